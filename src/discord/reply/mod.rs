//! The replies commands and clicks share: a board as the reply to a change (handed to the
//! outbox when Discord does not take it), a message replaced after a click, the board after the
//! AI's answer, and a move's answer in the member's puzzle. `pictures` chooses each post's look
//! and adds a finished game's replay.

pub(super) mod pictures;

use crate::discord::views::Audience;
use poise::serenity_prelude as serenity;
use tracing::{error, warn};

use crate::game::{self, AiSlot, BoardStyle, DailyCount, Game, MemberId, PuzzleState, PuzzleStep};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::text;

use super::views::menu::{move_button, Menu};
use super::views::puzzle::{board, Board};
use super::views::{self, View};
use super::{ids, place, private_lang, public_lang, BotError, Context, Data};

/// After a change that posted `game`'s board as `message` (if it is known): records the message,
/// for a turn notification to link to and for a new game's thread to open on, which the service
/// then makes due.
pub(in crate::discord) async fn board_shown(
    data: &Data,
    game: game::GameId,
    message: Option<serenity::MessageId>,
) {
    if let Some(message) = message {
        if let Err(e) = data
            .games
            .outbox
            .board_posted(game, ids::message_id(message))
            .await
        {
            warn!(error = ?e, "could not record a board's message");
        }
    }
}

/// The public board of a change that went through, which Discord did not take as the reply to
/// its command (`why`: a 5xx, a time-out): handed to the outbox, which posts it in the game's
/// channel until Discord has it. The change stands, so the member is never told it failed.
pub(in crate::discord) async fn board_owed(
    data: &Data,
    game: &game::Game,
    why: &(dyn std::fmt::Display + Sync),
) {
    warn!(game = %game.id, error = %why, "could not post a board as a reply; handing it to the outbox");
    if let Err(e) = data.games.outbox.board_owed(game).await {
        error!(game = %game.id, error = ?e, "could not hand a board to the outbox");
    }
}

/// Whether the message of a board just replied is wanted: a game just started (whose thread may
/// open on it) or a turn told by direct message (which links to it) wait for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::discord) enum Linked {
    /// Read the message back (one more request) and record it.
    Record,
    /// Nothing waits for it.
    Not,
}

/// Replies to a command with `game`'s board after the change it made: the public post of that
/// change. A reply Discord does not take goes to the outbox instead ([`board_owed`]). With
/// [`Linked::Record`], the reply's message is read back and recorded.
pub(in crate::discord) async fn reply_board(ctx: Context<'_>, game: &game::Game, linked: Linked) {
    reply_board_saying(ctx, game, linked, None).await;
}

/// [`reply_board`], with `said` on a line above the board's own words.
pub(in crate::discord) async fn reply_board_saying(
    ctx: Context<'_>,
    game: &game::Game,
    linked: Linked,
    said: Option<String>,
) {
    let limit = pictures::attachment_limit(ctx);
    let mut v = pictures::public_board(&ctx.data().games, public_lang(ctx), game, limit).await;
    if let Some(said) = said {
        v = v.said_above(said);
    }
    match ctx.send(v.reply(Audience::Channel)).await {
        Ok(reply) => {
            let message = sent_message(&reply, linked).await;
            board_shown(ctx.data(), game.id, message).await;
        }
        Err(e) => board_owed(ctx.data(), game, &e).await,
    }
}

/// The message of a reply just sent, read back (one more request) only when wanted.
async fn sent_message(
    reply: &poise::ReplyHandle<'_>,
    linked: Linked,
) -> Option<serenity::MessageId> {
    if linked == Linked::Not {
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

/// Answers a click by replacing the message that carries the button.
pub(in crate::discord) async fn update(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
    v: View,
    to: Audience,
) -> Result<(), BotError> {
    // What the new view leaves out goes: a board's embed replaced by a line of text.
    let cleared = v.embed.is_none();
    let mut message = v.interaction_message(to);
    if cleared {
        message = message.embeds(Vec::new());
    }
    click
        .create_response(
            &ctx.http,
            serenity::CreateInteractionResponse::UpdateMessage(message),
        )
        .await?;
    Ok(())
}

/// Defers the response, lets the AI reply in `game` with its place in the queue (off the async
/// runtime: up to 2 seconds, after the searches ahead of it), and completes the response with
/// the board after its move. A reply lost on the way is left to the sweeper.
pub(in crate::discord) async fn answer_ai(
    ctx: Context<'_>,
    game: &Game,
    slot: AiSlot,
) -> Result<(), BotError> {
    ctx.defer().await?;
    let limit = pictures::attachment_limit(ctx);
    let v = after_ai(ctx.data(), public_lang(ctx), game, slot, limit).await?;
    match ctx {
        poise::Context::Application(app) => {
            match app
                .interaction
                .edit_response(ctx.serenity_context(), v.edit())
                .await
            {
                Ok(message) => {
                    board_shown(ctx.data(), game.id, Some(message.id)).await;
                }
                // The moves stand: the board as it is now goes to the outbox instead.
                Err(e) => {
                    let now = ctx.data().games.play.game(game.id).await?;
                    board_owed(ctx.data(), &now, &e).await;
                }
            }
        }
        poise::Context::Prefix(_) => {
            ctx.send(v.reply(Audience::Channel)).await?;
        }
    }
    Ok(())
}

/// The board once the AI has replied in `game` with its place in the queue: its move, the game
/// as it stands when another reply got there first, or an apology (logged) when it could not; in
/// the look chosen for the game's posts, with its replay if that ended it (within `limit`).
pub(in crate::discord) async fn after_ai(
    data: &Data,
    lang: Lang,
    game: &Game,
    slot: AiSlot,
    limit: u64,
) -> Result<View, BotError> {
    let games = &data.games;
    let style = pictures::public_style(&data.games, game).await;
    Ok(match games.play.ai_reply_with(slot).await {
        Ok(Some(played)) => {
            let v = views::ai_move(lang, &played, games.now(), style);
            pictures::at_the_end(games, lang, v, &played.game, style, limit).await
        }
        // Another reply (the sweeper's) got there first: show the game as it stands.
        Ok(None) => {
            pictures::public_board(&data.games, lang, &games.play.game(game.id).await?, limit).await
        }
        Err(e) => {
            tracing::error!(error = ?e, game = %game.id, "the AI could not reply");
            let mut v = views::game(lang, game, games.now(), style);
            v.content = Some(tr!(lang, "ai-failed"));
            v.mentions.clear();
            v
        }
    })
}

/// Whether a command's response is still to be made, or was deferred and is to be completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::discord) enum Response {
    Open,
    Deferred,
}

/// The answer to a `/move` in the member's puzzle, for them alone: the board after the bot's
/// reply, after the win, or at the end of the winning line when the move was wrong. A deferred
/// response ([`Done::Late`](crate::discord::window::Done::Late)) is completed by the answer. A
/// finished daily puzzle's count goes to the day's post.
pub(in crate::discord) async fn answer_move(
    ctx: Context<'_>,
    step: &PuzzleStep,
    response: Response,
) -> Result<(), BotError> {
    let lang = private_lang(ctx);
    let style = own_style(ctx, ids::member_id(ctx.author().id)).await;
    let v = puzzle_step(lang, step, style);
    match ctx {
        poise::Context::Application(app) if response == Response::Deferred => {
            app.interaction
                .edit_response(ctx.serenity_context(), v.edit())
                .await?;
        }
        _ => {
            ctx.send(v.reply(Audience::Caller)).await?;
        }
    }
    daily_counted(ctx.http(), public_lang(ctx), step).await;
    Ok(())
}

/// A move's answer in a puzzle, in `style`: the board after the bot's reply (with the Move
/// button while the puzzle goes on), after the win, or at the end of the winning line when the
/// move was wrong.
pub(in crate::discord) fn puzzle_step(lang: Lang, step: &PuzzleStep, style: BoardStyle) -> View {
    let last = match &step.state {
        PuzzleState::Failed { line, .. } => line.last().copied(),
        _ => step.reply.or(Some(step.played)),
    };
    let shown = Board {
        position: &step.position,
        last,
        attacker: step.attacker,
    };
    let mut v = board(lang, shown, style, text::puzzle_step(lang, step));
    if let PuzzleState::GoOn { moves_left } = step.state {
        let menu = Menu::Puzzle {
            puzzle: step.id,
            left: moves_left,
        };
        v.components = vec![move_button(lang, menu)];
    }
    v
}

/// After a vote: the count of votes so far on the post of the game's board, if one is known.
/// Best effort: the next vote counts again, and the window's close posts the next board. Only in
/// a game against the AI, whose one channel holds its board's post.
pub(in crate::discord) async fn votes_shown(
    http: &serenity::Http,
    data: &Data,
    lang: Lang,
    voted: &game::Voted,
) {
    let game = &voted.game;
    if game.ai.is_none() {
        return;
    }
    let message = match data.games.teams.board_message(game.id).await {
        Ok(Some(message)) => message,
        Ok(None) => return,
        Err(e) => {
            warn!(error = ?e, "could not read a vote game's board message");
            return;
        }
    };
    let content = views::team_call(lang, game, data.games.now(), voted.tally.voters);
    let edit = serenity::EditMessage::new().content(content);
    let edited = serenity::ChannelId::new(game.place.channel.get())
        .edit_message(http, serenity::MessageId::new(message.get()), edit)
        .await;
    if let Err(e) = edited {
        warn!(error = %e, game = %game.id, "could not count the votes on a vote game's board");
    }
}

/// After a move that finished a daily puzzle: its count on the day's post, if there is one.
pub(in crate::discord) async fn daily_counted(
    http: &serenity::Http,
    lang: Lang,
    step: &PuzzleStep,
) {
    if let PuzzleState::Solved(result) | PuzzleState::Failed { result, .. } = &step.state {
        if let Some(count) = &result.daily {
            edit_count(http, lang, count).await;
        }
    }
}

/// Replaces the count on the day's post, if there is one.
async fn edit_count(http: &serenity::Http, lang: Lang, count: &DailyCount) {
    let Some((channel, message)) = count.post else {
        return;
    };
    let edit = serenity::EditMessage::new().content(text::daily_count(lang, count));
    let edited = serenity::ChannelId::new(channel.get())
        .edit_message(http, serenity::MessageId::new(message.get()), edit)
        .await;
    if let Err(e) = edited {
        warn!(error = %e, "could not update the daily puzzle's count");
    }
}

/// The look of what only `member` sees: their own choice.
pub(in crate::discord) async fn own_style(ctx: Context<'_>, member: MemberId) -> BoardStyle {
    ctx.data()
        .games
        .settings
        .board_style(place(ctx), Some(member))
        .await
}
