//! Discord's 3-second window: an interaction not answered within 3 seconds of being sent is
//! gone, and whatever the bot then sends for it is refused. A change that commits late (a write
//! waiting for a locked database) must still reach the players, so work that has not finished
//! by [`DEFER_AFTER`] has its response deferred, privately, and its public message goes to the
//! channel as an ordinary post instead of the interaction's reply.

use std::future::Future;
use std::time::Duration;

use super::{BotError, Context};

/// When a command still at work has its response deferred: early enough for the deferral to
/// reach Discord within the window on a slow day.
pub const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// How a command's work ended, as for its answer.
pub enum Done<T> {
    /// In time: answer as usual.
    InTime(T),
    /// After the response was deferred (privately): post the public message in the channel
    /// and complete the deferred response with a private note.
    Late(T),
    /// Refused after the response was deferred; the refusal is already shown.
    Refused,
}

/// Runs `work` for the command of `ctx`, deferring its response (ephemeral) if it is not done
/// by [`DEFER_AFTER`].
///
/// # Errors
/// The work's own error when it ends in time; a failed deferral or edit.
pub async fn run<T>(
    ctx: Context<'_>,
    work: impl Future<Output = Result<T, BotError>>,
) -> Result<Done<T>, BotError> {
    if !matches!(ctx, poise::Context::Application(_)) {
        return work.await.map(Done::InTime);
    }
    tokio::pin!(work);
    tokio::select! {
        done = &mut work => return done.map(Done::InTime),
        () = tokio::time::sleep(DEFER_AFTER) => {}
    }
    super::measure::late();
    ctx.defer_ephemeral().await?;
    match work.await {
        Ok(v) => Ok(Done::Late(v)),
        Err(e) => {
            note(ctx, e.for_member(super::private_lang(ctx))).await?;
            Ok(Done::Refused)
        }
    }
}

/// Completes a deferred response with a private `text`.
pub async fn note(ctx: Context<'_>, text: String) -> Result<(), BotError> {
    if let poise::Context::Application(app) = ctx {
        app.interaction
            .edit_response(
                ctx.serenity_context(),
                poise::serenity_prelude::EditInteractionResponse::new().content(text),
            )
            .await?;
    }
    Ok(())
}
