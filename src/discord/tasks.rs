//! The background tasks beside the gateway: the clock's sweeper, the AI's answers to games a
//! restart left waiting, and the outbox that posts what both queued.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tracing::error;

use crate::game::Services;

use super::outbox;

/// Starts the clock's tasks: the sweeper, the AI's answers to games a restart left waiting, and
/// the outbox that posts what both queued. Each posts nothing itself, so a slow Discord cannot
/// hold up the clocks, and a long AI search cannot hold up a reminder.
pub(super) fn spawn_clock_tasks(
    http: Arc<serenity::Http>,
    cache: Arc<serenity::Cache>,
    games: Services,
    every: Duration,
    post_timeout: Duration,
) {
    outbox::spawn_outbox(http, cache, games.clone(), post_timeout);
    spawn_sweeper(games.clone(), every);
    spawn_ai_answers(games, every);
}

/// Checks the clocks every `every`: first records that the bot is alive (moving every clock on
/// by the time it was away, after a silence of more than two sweeps), then sweeps. What the
/// sweep did is queued in the outbox with it, which the service tells the outbox of.
fn spawn_sweeper(games: Services, every: Duration) {
    let grace = every.saturating_mul(2);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let now = games.now();
            // No sweep on clocks that may still have to move on.
            if let Err(e) = games.outbox.keep_alive(now, grace).await {
                error!(error = ?e, "could not record that the bot is alive");
                continue;
            }
            if let Err(e) = games.play.sweep(now).await {
                error!(error = ?e, "clock sweep failed");
            }
        }
    });
}

/// Answers the games left waiting for the AI every `every`, on a task of its own.
fn spawn_ai_answers(games: Services, every: Duration) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            answer_waiting_ai(&games).await;
        }
    });
}

/// How long the AI must have been to move before the sweeper answers for it: longer than any
/// reply in progress in a `/move` takes, so the sweeper only picks up what a restart left.
const AI_STALLED: Duration = Duration::from_secs(10);

/// Answers the games left waiting for the AI; each move is queued in the outbox with its
/// announcement.
async fn answer_waiting_ai(games: &Services) {
    let ids = match games.play.ai_games_to_move(AI_STALLED).await {
        Ok(ids) => ids,
        Err(e) => {
            error!(error = ?e, "could not list games waiting for the AI");
            return;
        }
    };
    for id in ids {
        if let Err(e) = games.play.ai_reply_announced(id).await {
            error!(error = ?e, game = %id, "the AI could not reply");
        }
    }
}
