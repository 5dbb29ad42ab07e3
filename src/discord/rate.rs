//! The per-member rate limit on slash commands and button clicks: a token bucket per member
//! (governor's keyed GCRA limiter), so one member sending fast cannot hold up everyone else.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota};

use super::{BotError, Context};
use crate::game::MemberId;

/// Members remembered before the ones whose bucket is full again are forgotten.
const FORGET_PAST: usize = 10_000;

/// A bucket of `burst` commands per member, refilled in full over `period`.
#[derive(Debug)]
pub struct RateLimit {
    members: DefaultKeyedRateLimiter<MemberId>,
}

impl RateLimit {
    pub fn new(burst: NonZeroU32, period: Duration) -> RateLimit {
        // One command back every period / burst; a zero period (not allowed by the settings)
        // would mean no limit worth the name, so it falls back to one a second.
        let quota = Quota::with_period(period / burst.get())
            .unwrap_or_else(|| Quota::per_second(burst))
            .allow_burst(burst);
        RateLimit {
            members: DefaultKeyedRateLimiter::keyed(quota),
        }
    }

    /// Takes one command from `member`'s bucket, or says when the next one will be there.
    pub fn take(&self, member: MemberId) -> Result<(), BotError> {
        let taken = self.members.check_key(&member);
        if self.members.len() > FORGET_PAST {
            self.members.retain_recent();
        }
        taken.map_err(|not_yet| {
            let wait = not_yet.wait_time_from(self.members.clock().now());
            BotError::SlowDown(wait)
        })
    }
}

/// poise's `command_check`, run before every command. poise runs it for autocomplete requests
/// too (`run_autocomplete` calls the same checks), and those cost nothing: they are let through
/// without taking from the bucket. A refusal reaches `on_error` as `CommandCheckFailed` with the
/// error, and is answered there, ephemerally, before the command ran.
pub async fn check(ctx: Context<'_>) -> Result<bool, BotError> {
    if let poise::Context::Application(app) = ctx {
        if app.interaction_type == poise::CommandInteractionType::Autocomplete {
            return Ok(true);
        }
    }
    ctx.data().rate.take(super::member_id(ctx.author().id))?;
    Ok(true)
}
