//! Trying a request to Discord again: what a failed request means, and how long to wait before
//! the next try. Start-up and the outbox both go by it.

use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::http::HttpError;

/// The pause before each new try: `first` after one failure, doubling with each failure after
/// it, up to `cap`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Backoff {
    pub first: Duration,
    pub cap: Duration,
}

impl Backoff {
    /// The pause after a failure that follows `earlier` others in a row.
    pub fn pause(self, earlier: u32) -> Duration {
        self.first
            .saturating_mul(1 << earlier.min(20))
            .min(self.cap)
    }
}

/// What a failed request to Discord means for trying it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// It may go through later: Discord's trouble (a 5xx, a 408), a 429 (one reaches us only
    /// with serenity's rate limiter off, which otherwise waits it out itself), the connection's,
    /// or the token's (a 401, which a restart with a good one fixes).
    Later,
    /// The member takes no direct messages from the bot (a 403 with code 50007).
    DmClosed,
    /// Trying again cannot help: anything else Discord refused (such as Missing Access 50001,
    /// Missing Permissions 50013, Unknown Channel 10003), or what serenity would not send.
    Never,
}

/// Discord's JSON error code for a member whose direct messages are closed to the bot.
const CANNOT_MESSAGE_USER: isize = 50_007;

/// Discord's JSON error code for a channel it does not know (or no longer has).
pub(super) const UNKNOWN_CHANNEL: isize = 10_003;

/// The JSON error code of Discord's refusal, if `e` is one.
pub(super) fn json_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// What `e` means for trying its request again.
pub(super) fn verdict(e: &serenity::Error) -> Verdict {
    match e {
        serenity::Error::Http(HttpError::Request(_)) => Verdict::Later,
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
            refusal(r.status_code.as_u16(), r.error.code)
        }
        _ => Verdict::Never,
    }
}

/// What Discord's refusal with HTTP `status` and JSON error `code` means.
fn refusal(status: u16, code: isize) -> Verdict {
    match (status, code) {
        (403, CANNOT_MESSAGE_USER) => Verdict::DmClosed,
        (401 | 408 | 429 | 500..=599, _) => Verdict::Later,
        _ => Verdict::Never,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_told_apart() {
        assert_eq!(refusal(403, 50_007), Verdict::DmClosed);
        for (status, code) in [(403, 50_001), (403, 50_013), (404, 10_003), (400, 50_035)] {
            assert_eq!(refusal(status, code), Verdict::Never, "{status} {code}");
        }
        for status in [401, 408, 429, 500, 502] {
            assert_eq!(refusal(status, 0), Verdict::Later, "{status}");
        }
        let too_long = serenity::Error::Model(serenity::ModelError::MessageTooLong(1));
        assert_eq!(verdict(&too_long), Verdict::Never);
    }

    #[test]
    fn the_pause_doubles_up_to_its_cap() {
        let backoff = Backoff {
            first: Duration::from_millis(250),
            cap: Duration::from_secs(300),
        };
        assert_eq!(backoff.pause(0), Duration::from_millis(250));
        assert_eq!(backoff.pause(2), Duration::from_secs(1));
        assert_eq!(backoff.pause(1_000), Duration::from_secs(300));
    }
}
