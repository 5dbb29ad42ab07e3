//! When a tournament starts, as a member writes it: `1d`, `12h`, `30m`, `1d12h`.

use std::time::Duration;

/// A tournament's `starts_in` as a member writes it, for every front end: one or more numbers,
/// each with its unit, `m` (minutes), `h` (hours), `d` (days) or `w` (weeks), added up (`1d`,
/// `12h`, `30m`, `1d 12h`); any case, spaces between the parts allowed. `None` for anything
/// else, or a span too long to count; whether it is within [`super::MAX_STARTS_IN`] is the
/// game's to say when the tournament is created.
///
/// ```
/// # use std::time::Duration;
/// # use breakthrough_bot::game::parse_starts_in;
/// assert_eq!(parse_starts_in("1d12h"), Some(Duration::from_secs(36 * 3_600)));
/// assert_eq!(parse_starts_in("soon"), None);
/// ```
pub fn parse_starts_in(text: &str) -> Option<Duration> {
    let text: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if text.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        if digits == 0 {
            return None;
        }
        let (n, after) = rest.split_at(digits);
        let n: u64 = n.parse().ok()?;
        let mut units = after.chars();
        let unit = match units.next()? {
            'm' => 60,
            'h' => 3_600,
            'd' => 86_400,
            'w' => 7 * 86_400,
            _ => return None,
        };
        total = total.checked_add(n.checked_mul(unit)?)?;
        rest = units.as_str();
    }
    Some(Duration::from_secs(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: u64 = 3_600;

    #[test]
    fn spans_in_minutes_hours_days_and_weeks_add_up() {
        let secs = |t: &str| parse_starts_in(t).map(|d| d.as_secs());
        assert_eq!(secs("1d"), Some(24 * HOUR));
        assert_eq!(secs("12h"), Some(12 * HOUR));
        assert_eq!(secs("30m"), Some(30 * 60));
        assert_eq!(secs("2w"), Some(14 * 24 * HOUR));
        assert_eq!(secs("1d12h"), Some(36 * HOUR));
        assert_eq!(secs(" 1D 12H 30m "), Some(36 * HOUR + 30 * 60));
        assert_eq!(secs("0m"), Some(0));
    }

    #[test]
    fn anything_else_is_refused() {
        for text in [
            "",
            " ",
            "1",
            "d",
            "1x",
            "1.5d",
            "-1d",
            "1d12",
            "h12",
            "tomorrow",
            "1 day",
            "99999999999999999999d",
            "40000000000000w",
        ] {
            assert_eq!(parse_starts_in(text), None, "{text:?}");
        }
    }
}
