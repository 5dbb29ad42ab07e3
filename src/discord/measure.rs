//! What the Discord front end records of each command and tap, for an admin's graphs (see
//! `crate::telemetry`): its outcome, how long its answer took, and an answer that never reached
//! Discord.

use std::time::{Duration, Instant};

use crate::telemetry;
use crate::text::AnyError;

use super::{BotError, Context};

/// How a command or tap ended, as counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    Ok,
    /// The member is told why: a rule, the rate limit, an option that does not read.
    Refused,
    /// A fault on our side or Discord's.
    Failed,
}

impl Outcome {
    fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Refused => "refused",
            Outcome::Failed => "failed",
        }
    }

    /// How the command that failed with `e` is counted.
    pub(super) fn of(e: &BotError) -> Outcome {
        match e {
            BotError::Game(AnyError::Failed(_)) => Outcome::Failed,
            BotError::Game(_) | BotError::Input(_) | BotError::SlowDown(_) => Outcome::Refused,
            BotError::Discord(_) => Outcome::Failed,
        }
    }
}

/// When a command started, kept with its invocation.
struct Started(Instant);

/// Notes that the command of `ctx` starts now.
pub(super) async fn started(ctx: Context<'_>) {
    ctx.set_invocation_data(Started(Instant::now())).await;
}

/// Counts the command of `ctx` as ended with `outcome`, with its time since [`started`] if it got
/// that far (the rate limit refuses before).
pub(super) async fn finished(ctx: Context<'_>, outcome: Outcome) {
    let took = ctx
        .invocation_data::<Started>()
        .await
        .map(|started| started.0.elapsed());
    record(ctx.command().qualified_name.to_string(), outcome, took);
}

/// Counts a tap on a button or a choice in a menu of `kind` (unknown: `None`), started at
/// `started`.
pub(super) fn tapped(kind: Option<&str>, outcome: Outcome, started: Instant) {
    let command = format!("tap:{}", kind.unwrap_or("unknown"));
    record(command, outcome, Some(started.elapsed()));
}

fn record(command: String, outcome: Outcome, took: Option<Duration>) {
    if let Some(took) = took {
        metrics::histogram!(telemetry::COMMAND_SECONDS, "command" => command.clone()).record(took);
    }
    metrics::counter!(telemetry::COMMANDS, "command" => command, "outcome" => outcome.label())
        .increment(1);
}

/// An interaction whose work outlasted the first part of Discord's window: answered late.
pub(super) fn late() {
    metrics::counter!(telemetry::LATE).increment(1);
}

/// An interaction that got no answer at all.
pub(super) fn unanswered() {
    metrics::counter!(telemetry::UNANSWERED).increment(1);
}
