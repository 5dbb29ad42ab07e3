//! Quoting what a player typed back to them in a refusal.

/// Cuts user text down to a size fit to quote back in a message, between backticks: a backtick
/// in it becomes `'` and a line break a space, so the quote stays one piece of code on one line.
pub(crate) fn shorten(s: &str) -> String {
    const MAX: usize = 24;
    let s = s.trim();
    let mut t: String = s
        .chars()
        .take(MAX)
        .map(|c| match c {
            '`' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    if s.chars().count() > MAX {
        t.push('…');
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_stay_short_on_one_line_and_inside_their_backticks() {
        assert_eq!(shorten("  e2`e3\nx "), "e2'e3 x");
        let long = "a".repeat(100);
        assert_eq!(shorten(&long), format!("{}…", "a".repeat(24)));
    }
}
