//! What the bot measures of itself, for an admin's graphs: the names of its metrics, what each
//! means, and the Prometheus recorder that keeps them.
//!
//! The code records a metric where its outcome is decided, through the `metrics` crate's facade
//! (`counter!`, `histogram!`, `gauge!`): without a recorder (the console, the tests of the
//! service, a bot without `HEALTH_ADDR`) each record is a no-op. The binary installs the
//! recorder where it starts ([`install`]) and the health listener renders it on `/metrics`.

use std::time::Duration;

use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

/// Slash commands and taps answered, by `command` (a command's name, or `tap:` and the button's
/// kind) and `outcome`: `ok`, `refused` (the member is told why: a rule, the rate limit, an
/// unreadable option) or `failed` (a fault on our side or Discord's).
pub const COMMANDS: &str = "breakthrough_commands_total";
/// How long a command or tap took, from its arrival to its answer, by `command`.
pub const COMMAND_SECONDS: &str = "breakthrough_command_seconds";
/// Interactions whose work outlasted the first part of Discord's 3-second window: their answer
/// was deferred, and their public message posted in the channel instead.
pub const LATE: &str = "breakthrough_interactions_late_total";
/// Interactions that got no answer at all: Discord refused or never took the bot's answer.
pub const UNANSWERED: &str = "breakthrough_interactions_unanswered_total";
/// Moves played, by `by`: `member` or `ai`.
pub const MOVES: &str = "breakthrough_moves_total";
/// Games in progress in the servers this process serves, read as it is scraped.
pub const GAMES_IN_PROGRESS: &str = "breakthrough_games_in_progress";
/// Announcements waiting in the outbox of the servers this process serves.
pub const OUTBOX_DEPTH: &str = "breakthrough_outbox_depth";
/// How long the oldest announcement in the outbox has waited (0 when it is empty).
pub const OUTBOX_OLDEST_SECONDS: &str = "breakthrough_outbox_oldest_seconds";
/// The outbox's posts to Discord, by `outcome`: `2xx`, `4xx`, `429`, `5xx`, or `no_answer` (a
/// time-out or a connection that failed).
pub const POSTS: &str = "breakthrough_posts_total";
/// The outcomes [`POSTS`] counts.
pub const POST_OUTCOMES: [&str; 5] = ["2xx", "4xx", "429", "5xx", "no_answer"];
/// A write to the database, from asking for the writing connection (waiting for the write lock
/// included) to giving it back.
pub const DATABASE_WRITE_SECONDS: &str = "breakthrough_database_write_seconds";
/// Searches of the AI queued or running (replies and analyses).
pub const AI_QUEUE: &str = "breakthrough_ai_queue";
/// How long the AI thought over a reply.
pub const AI_THINKING_SECONDS: &str = "breakthrough_ai_thinking_seconds";
/// The latency of each gateway `shard`'s last heartbeat, as Discord acknowledged it.
pub const GATEWAY_LATENCY_SECONDS: &str = "breakthrough_gateway_latency_seconds";

/// The histograms' buckets, in seconds: from a millisecond (a move written) to half a minute (a
/// command held up by a locked database, the AI's deepest search).
const BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// How often the recorder folds the histograms' new samples into their buckets between scrapes,
/// so that samples never pile up in memory when nothing scrapes.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Installs the Prometheus recorder for the whole process and starts its upkeep on the current
/// runtime; its handle renders the text format.
///
/// # Errors
///
/// A recorder is already installed in this process.
pub fn install() -> anyhow::Result<PrometheusHandle> {
    let handle = PrometheusBuilder::new()
        .set_buckets(BUCKETS)?
        .install_recorder()?;
    describe();
    // Counters an admin alerts on are there from the start, at zero: a rate over them needs a
    // first sample.
    for counter in [LATE, UNANSWERED] {
        metrics::counter!(counter).absolute(0);
    }
    for outcome in POST_OUTCOMES {
        metrics::counter!(POSTS, "outcome" => outcome).absolute(0);
    }
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(UPKEEP_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            upkeep.run_upkeep();
        }
    });
    Ok(handle)
}

/// Gives each metric its help line.
fn describe() {
    describe_counter!(
        COMMANDS,
        "Slash commands and taps answered, by command and outcome (ok, refused, failed)."
    );
    describe_histogram!(
        COMMAND_SECONDS,
        Unit::Seconds,
        "Time from a command's or tap's arrival to its answer."
    );
    describe_counter!(
        LATE,
        "Interactions answered late: deferred, their message posted in the channel."
    );
    describe_counter!(UNANSWERED, "Interactions that got no answer at all.");
    describe_counter!(MOVES, "Moves played, by who played them (member, ai).");
    describe_gauge!(
        GAMES_IN_PROGRESS,
        "Games in progress in the servers this process serves."
    );
    describe_gauge!(OUTBOX_DEPTH, "Announcements waiting to be posted.");
    describe_gauge!(
        OUTBOX_OLDEST_SECONDS,
        Unit::Seconds,
        "How long the oldest announcement waiting has waited."
    );
    describe_counter!(
        POSTS,
        "The outbox's posts to Discord, by outcome (2xx, 4xx, 429, 5xx, no_answer)."
    );
    describe_histogram!(
        DATABASE_WRITE_SECONDS,
        Unit::Seconds,
        "Writes to the database, waiting for the write lock included."
    );
    describe_gauge!(AI_QUEUE, "Searches of the AI queued or running.");
    describe_histogram!(
        AI_THINKING_SECONDS,
        Unit::Seconds,
        "How long the AI thought over a reply."
    );
    describe_gauge!(
        GATEWAY_LATENCY_SECONDS,
        Unit::Seconds,
        "Each gateway shard's last heartbeat latency."
    );
}
