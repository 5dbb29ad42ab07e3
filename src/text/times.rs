//! Time in words: spans of time, time controls, and moments as dates.

use std::time::Duration;

use crate::game::TimeControl;
use crate::game::Timestamp;
use crate::i18n::tr;
use crate::i18n::Lang;

/// A span of time for people: `2d 3h`, `23h 59m`, `9m`, `less than a minute`.
pub fn duration(lang: Lang, span: Duration) -> String {
    let s = span.as_secs();
    let (d, h, m) = (s / 86_400, s % 86_400 / 3_600, s % 3_600 / 60);
    match (d, h, m) {
        (0, 0, 0) => tr!(lang, "duration-under-minute"),
        (0, 0, m) => tr!(lang, "duration-minutes", minutes = m),
        (0, h, m) => tr!(lang, "duration-hours", hours = h, minutes = m),
        (d, h, _) => tr!(lang, "duration-days", days = d, hours = h),
    }
}

/// A time control as players read it: `1 day per move`.
pub fn time_control(lang: Lang, time: TimeControl) -> String {
    match time {
        TimeControl::TenMinutes => tr!(lang, "time-ten-minutes"),
        TimeControl::OneHour => tr!(lang, "time-one-hour"),
        TimeControl::OneDay => tr!(lang, "time-one-day"),
        TimeControl::ThreeDays => tr!(lang, "time-three-days"),
        TimeControl::SevenDays => tr!(lang, "time-seven-days"),
    }
}

/// A moment as `2026-12-01 18:00 UTC`: the same for every reader, whatever their time zone.
/// Moments beyond the years 9999 either way (none the bot sets) show as the nearest one it can
/// write.
pub fn utc_time(at: Timestamp) -> String {
    use time::UtcDateTime;
    let unix = at.unix_seconds();
    let t = UtcDateTime::from_unix_timestamp(unix).unwrap_or(if unix < 0 {
        UtcDateTime::MIN
    } else {
        UtcDateTime::MAX
    });
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::text::slow_down;

    #[test]
    fn moments_read_as_utc_dates() {
        let utc_time = |s| utc_time(Timestamp::from_unix_seconds(s));
        assert_eq!(utc_time(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_time(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_time(1_800_000_000), "2027-01-15 08:00 UTC");
        assert_eq!(utc_time(4_107_542_399), "2100-02-28 23:59 UTC");
        assert_eq!(utc_time(-1), "1969-12-31 23:59 UTC");
        assert_eq!(utc_time(i64::MAX), "9999-12-31 23:59 UTC");
        assert_eq!(super::utc_time(Timestamp::MAX), "9999-12-31 23:59 UTC");
    }

    #[test]
    fn durations_read_naturally() {
        let duration = |s| duration(Lang::En, Duration::from_secs(s));
        assert_eq!(duration(30), "less than a minute");
        assert_eq!(duration(9 * 60 + 5), "9m");
        assert_eq!(duration(23 * 3600 + 59 * 60), "23h 59m");
        assert_eq!(duration(2 * 86_400 + 3 * 3600 + 5), "2d 3h");
        let past = Timestamp::from_unix_seconds(5) - Timestamp::from_unix_seconds(10);
        assert_eq!(super::duration(Lang::En, past), "less than a minute");
    }

    #[test]
    fn a_wait_for_the_rate_limit_is_whole_seconds_rounded_up() {
        let again = |ms| slow_down(Lang::En, Duration::from_millis(ms));
        assert!(
            again(1_200).ends_with("try again in 2 s"),
            "{}",
            again(1_200)
        );
        assert!(
            again(3_000).ends_with("try again in 3 s"),
            "{}",
            again(3_000)
        );
        assert!(again(0).ends_with("try again in 1 s"), "{}", again(0));
    }
}
