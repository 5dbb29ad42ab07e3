//! The Discord front end: poise slash commands and buttons over the `game` API. Thin: read the
//! interaction, call `game`, build the message (`view`), reply.
//!
//! This file holds what every command reaches ([`Data`], [`Context`]) and the replies they
//! share; beside it, `error` (what a member is told when something fails), `ids` (Discord's ids
//! as the game knows them), `lang` (the language of each answer), `framework` (the poise setup,
//! the clicks, and [`run`]) and `tasks` (the sweeper and the AI's answers in the background).

mod analyze;
mod button;
mod challenge;
mod error;
mod framework;
mod ids;
mod info;
mod lang;
pub mod locales;
mod outbox;
mod pictures;
mod play;
mod puzzle;
mod rate;
mod reach;
mod refusals;
mod retry;
mod settings;
mod startup;
mod tasks;
mod tournament;
mod view;
mod window;

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use tracing::{error, warn};

use crate::game::{self, Games, Member};

pub use error::BotError;
#[cfg(test)]
pub(crate) use framework::localized_commands;
pub use framework::{commands, run};
use ids::{click_place, guild_id, member_id, place, user_member};
use lang::{click_lang, click_public_lang, private_lang, public_lang};
pub use refusals::Refusals;

/// What every command can reach: the game service, and nothing else (no game state in memory);
/// and the members' rate limit.
pub struct Data {
    pub games: Games,
    pub rate: rate::RateLimit,
    /// Tells the outbox something was queued, for a command whose change announces itself.
    pub outbox: Arc<tokio::sync::Notify>,
}

pub type Context<'a> = poise::Context<'a, Data, BotError>;

/// After a change that posted `game`'s board as `message` (if it is known): records the message,
/// for a turn notification to link to and for a new game's thread to open on, and wakes the
/// outbox, which may be waiting for it.
async fn board_shown(data: &Data, game: game::GameId, message: Option<serenity::MessageId>) {
    if let Some(message) = message {
        if let Err(e) = data
            .games
            .board_posted(game, ids::message_id(message))
            .await
        {
            warn!(error = ?e, "could not record a board's message");
        }
    }
    data.outbox.notify_one();
}

/// The public board of a change that went through, which Discord did not take as the reply to
/// its command (`why`: a 5xx, a time-out): handed to the outbox, which posts it in the game's
/// channel until Discord has it. The change stands, so the member is never told it failed.
async fn board_owed(data: &Data, game: &game::Game, why: &(dyn std::fmt::Display + Sync)) {
    warn!(game = %game.id, error = %why, "could not post a board as a reply; handing it to the outbox");
    match data.games.board_owed(game).await {
        Ok(()) => data.outbox.notify_one(),
        Err(e) => error!(game = %game.id, error = ?e, "could not hand a board to the outbox"),
    }
}

/// Replies to a command with `game`'s board after the change it made: the public post of that
/// change. A reply Discord does not take goes to the outbox instead ([`board_owed`]). With
/// `linked` (a game just started, whose thread may open on it, or a turn told by direct message,
/// which links to it), the reply's message is read back and recorded.
async fn reply_board(ctx: Context<'_>, game: &game::Game, linked: bool) {
    let limit = pictures::attachment_limit(ctx);
    let v = pictures::public_board(&ctx.data().games, public_lang(ctx), game, limit).await;
    match ctx.send(v.reply(false)).await {
        Ok(reply) => {
            let message = sent_message(&reply, linked).await;
            board_shown(ctx.data(), game.id, message).await;
        }
        Err(e) => board_owed(ctx.data(), game, &e).await,
    }
}

/// The message of a reply just sent, read back (one more request) only when `wanted`.
async fn sent_message(reply: &poise::ReplyHandle<'_>, wanted: bool) -> Option<serenity::MessageId> {
    if !wanted {
        return None;
    }
    match reply.message().await {
        Ok(m) => Some(m.id),
        Err(e) => {
            warn!(error = %e, "could not read back a board's message");
            None
        }
    }
}

/// The member who sent a command, with the name they show in this server.
async fn caller(ctx: Context<'_>) -> Member {
    let name = match ctx.author_member().await {
        Some(m) => m.display_name().to_string(),
        None => ctx.author().display_name().to_string(),
    };
    Member::new(member_id(ctx.author().id), name)
}

/// Answers a click by replacing the message that carries the button.
async fn update(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
    v: view::View,
    ephemeral: bool,
) -> Result<(), BotError> {
    let message = v.interaction_message(ephemeral);
    click
        .create_response(
            &ctx.http,
            serenity::CreateInteractionResponse::UpdateMessage(message),
        )
        .await?;
    Ok(())
}
