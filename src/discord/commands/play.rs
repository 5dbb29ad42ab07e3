//! `/move` (with autocomplete of the caller's legal moves), `/board`, `/resign`, `/abort`.

use crate::discord::views::{Audience, Markdown, View};
use poise::serenity_prelude as serenity;

use crate::discord::params::{game_ref, legal_moves};
use crate::discord::reply::answer_ai;
use crate::discord::reply::{self, Linked, Response};
use crate::discord::window::{self, Done};
use crate::discord::{caller, place, private_lang, public_lang, views, BotError, Context, Data};
use crate::game::{AiSlot, GameId, GameRef, Member, Moved, Played, Voted};
use crate::i18n::tr;
use crate::text;

/// Play a move, like e7-e6 or d4xe5.
#[poise::command(slash_command, rename = "move")]
pub async fn play_move(
    ctx: Context<'_>,
    #[description = "Your move, like e7-e6 or d4xe5"]
    #[autocomplete = "legal_moves"]
    #[rename = "move"]
    text: String,
    #[description = "Game number, if you have several here"] game: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    // The member's own move is quick, so a refusal can still be an ephemeral reply; only the
    // AI's thinking needs the response deferred (or a write that waits, see `window`).
    // Against the AI, the move is only played with a place in the AI's queue for its reply.
    // With no game number, a move no game here takes at the member's turn goes to the puzzle
    // they are solving, if any (the service's rule: `Play::move_or_puzzle`).
    let who = caller(ctx).await;
    let work = async {
        Ok(games
            .play
            .move_or_puzzle(&who, place(ctx), game_ref(game), &text)
            .await?)
    };
    let (played, slot) = match window::run(ctx, work).await? {
        Done::InTime(Moved::Game(played, slot)) => (played, slot),
        Done::Late(Moved::Game(played, slot)) => return late_move(ctx, &played, slot).await,
        Done::InTime(Moved::Puzzle(step)) => {
            return reply::answer_move(ctx, &step, Response::Open).await
        }
        Done::Late(Moved::Puzzle(step)) => {
            return reply::answer_move(ctx, &step, Response::Deferred).await
        }
        Done::InTime(Moved::Vote(voted)) => return answer_vote(ctx, &voted, false).await,
        Done::Late(Moved::Vote(voted)) => return answer_vote(ctx, &voted, true).await,
        Done::Refused => return Ok(()),
    };
    if let Some(slot) = slot.filter(|_| played.game.ai_to_move()) {
        return answer_ai(ctx, &played.game, slot).await;
    }
    let linked = match played.notified {
        Some(_) => Linked::Record,
        None => Linked::Not,
    };
    reply::reply_board(ctx, &played.game, linked).await;
    Ok(())
}

/// A vote is answered to its member alone, with the window's leading moves (completing the
/// response deferred when it was `late`), and counted on the board's post.
async fn answer_vote(ctx: Context<'_>, voted: &Voted, late: bool) -> Result<(), BotError> {
    let said = text::voted(private_lang(ctx), &Markdown, voted, ctx.data().games.now());
    if late {
        window::note(ctx, said).await?;
    } else {
        ctx.send(View::text(said).reply(Audience::Caller)).await?;
    }
    let http = &ctx.serenity_context().http;
    reply::votes_shown(http, ctx.data(), public_lang(ctx), voted).await;
    Ok(())
}

/// A move that went through after its response was deferred: the board (after the AI's reply,
/// in a game against the AI) goes to the channel through the outbox, and the member gets a
/// private note.
async fn late_move(
    ctx: Context<'_>,
    played: &Played,
    slot: Option<AiSlot>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let owed = match slot.filter(|_| played.game.ai_to_move()) {
        // The AI's move is queued with its announcement; another reply that got there first
        // (the sweeper's) announced itself.
        Some(slot) => match data.games.play.ai_reply_with_announced(slot).await {
            Ok(_) => None,
            Err(e) => {
                // The sweeper answers games left waiting for the AI.
                tracing::error!(error = ?e, game = %played.game.id, "the AI could not reply");
                Some(&played.game)
            }
        },
        None => Some(&played.game),
    };
    if let Some(game) = owed {
        reply::board_owed(data, game, &"the response closed before the move").await;
    }
    window::note(
        ctx,
        text::played_late(private_lang(ctx), played.mv, played.game.id),
    )
    .await
}

/// Show a game's board.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Game number (default: your game here)"] game: Option<i64>,
    #[description = "Turn the board round (default: your side at the bottom, or White for onlookers)"]
    flip: Option<bool>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let me = crate::discord::member_id(ctx.author().id);
    let g = games.play.find_game(me, place(ctx), game_ref(game)).await?;
    let seen = g.sight(me, flip.unwrap_or(false));
    let lang = if seen.private {
        private_lang(ctx)
    } else {
        public_lang(ctx)
    };
    let style = if seen.private {
        reply::pictures::private_style(&ctx.data().games, &g, me).await
    } else {
        reply::pictures::public_style(&ctx.data().games, &g).await
    };
    let mut v = views::game_facing(lang, &g, games.now(), seen.bottom, style);
    // Looking at a board pings nobody.
    v.mentions.clear();
    if g.is_active() {
        v.content = None;
    }
    let to = if seen.private {
        Audience::Caller
    } else {
        Audience::Channel
    };
    ctx.send(v.reply(to)).await?;
    Ok(())
}

/// Resign a game (asks to confirm).
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Game number, if you have several here"] game: Option<i64>,
) -> Result<(), BotError> {
    let g = ctx
        .data()
        .games
        .play
        .resignable(
            crate::discord::member_id(ctx.author().id),
            place(ctx),
            game_ref(game),
        )
        .await?;
    ctx.send(views::confirm_resign(private_lang(ctx), &g).reply(Audience::Caller))
        .await?;
    Ok(())
}

/// End a game without result, before both players have moved.
#[poise::command(slash_command)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "Game number, if you have several here"] game: Option<i64>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let g = games
        .play
        .abort(&caller(ctx).await, place(ctx), game_ref(game))
        .await?;
    reply::reply_board(ctx, &g, Linked::Not).await;
    Ok(())
}

/// Yes on the resign confirmation: resigns the game.
pub async fn on_resign(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
) -> Result<(), BotError> {
    let games = &data.games;
    let at = crate::discord::click_place(click);
    let game = games.play.resign(who, at, GameRef::Id(id)).await?;
    // The game is over: whatever Discord does from here, the member is not told otherwise.
    let done = views::View::text(tr!(
        crate::discord::click_lang(click),
        "resign-done",
        id = id.to_string()
    ));
    if let Err(e) = reply::update(ctx, click, done, Audience::Caller).await {
        tracing::warn!(error = %e, "could not confirm a resignation to its member");
    }
    let limit = reply::pictures::click_attachment_limit(click);
    let result = reply::pictures::public_board(
        &data.games,
        crate::discord::click_public_lang(click),
        &game,
        limit,
    )
    .await;
    if let Err(e) = click.create_followup(&ctx.http, result.followup()).await {
        reply::board_owed(data, &game, &e).await;
    }
    Ok(())
}
