//! `/move` (with autocomplete of the caller's legal moves), `/board`, `/resign`, `/abort`.

use poise::serenity_prelude as serenity;

use super::window::{self, Done};
use super::{caller, place, private_lang, public_lang, view, BotError, Context, Data};
use crate::game::{AiSlot, Game, GameId, GameRef, Member, Played, PuzzleStep};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::text;

/// Discord shows at most 25 autocomplete choices.
const MAX_CHOICES: usize = 25;

/// The game a command's `game` option means: that one, or the caller's only game here.
pub(super) fn game_ref(game: Option<i64>) -> GameRef {
    match game {
        Some(id) => GameRef::Id(GameId::new(id)),
        None => GameRef::Only,
    }
}

/// The caller's legal moves starting with what they typed.
async fn legal_moves(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    // The game option may already be filled in; autocomplete sees it in the raw options.
    let game = match ctx {
        poise::Context::Application(app) => {
            app.args
                .iter()
                .find(|o| o.name == "game")
                .and_then(|o| match &o.value {
                    serenity::ResolvedValue::Integer(n) => Some(*n),
                    _ => None,
                })
        }
        poise::Context::Prefix(_) => None,
    };
    let games = &ctx.data().games;
    let me = super::member_id(ctx.author().id);
    let here = place(ctx);
    let moves = games
        .move_suggestions(me, here, game_ref(game), partial, MAX_CHOICES)
        .await
        .unwrap_or_default();
    // No game number and no game here at the member's turn: the move goes to their puzzle, as
    // `/move` sends it (see `Games::move_goes_to_puzzle`).
    let at_turn = !moves.is_empty()
        || game.is_some()
        || games
            .move_suggestions(me, here, GameRef::Only, "", 1)
            .await
            .is_ok_and(|any| !any.is_empty());
    let moves = if at_turn {
        moves
    } else {
        super::puzzle::legal_moves(games, me, partial, MAX_CHOICES).await
    };
    serenity::CreateAutocompleteResponse::new().set_choices(
        moves
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
}

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
    // they are solving, if any (the rule of every front end, `Games::move_goes_to_puzzle`).
    let who = caller(ctx).await;
    let work = async {
        match games
            .play_with_slot(&who, place(ctx), game_ref(game), &text)
            .await
        {
            Err(e) if game.is_none() && games.move_goes_to_puzzle(who.id, &e).await? => {
                Ok(Moved::Puzzle(games.puzzle_move(&who, &text).await?))
            }
            played => Ok(Moved::Game(played?)),
        }
    };
    let (played, slot) = match window::run(ctx, work).await? {
        Done::InTime(Moved::Game(played)) => played,
        Done::Late(Moved::Game((played, slot))) => return late_move(ctx, &played, slot).await,
        Done::InTime(Moved::Puzzle(step)) => {
            return super::puzzle::answer_move(ctx, &step, false).await
        }
        Done::Late(Moved::Puzzle(step)) => {
            return super::puzzle::answer_move(ctx, &step, true).await
        }
        Done::Refused => return Ok(()),
    };
    if let Some(slot) = slot.filter(|_| played.game.ai_to_move()) {
        return answer_ai(ctx, &played.game, slot).await;
    }
    super::reply_board(ctx, &played.game, played.notified.is_some()).await;
    Ok(())
}

/// Where a `/move` went: into a game (with the AI's place in its queue, against the AI), or into
/// the member's puzzle.
enum Moved {
    Game((Played, Option<AiSlot>)),
    Puzzle(PuzzleStep),
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
        Some(slot) => match data.games.ai_reply_with_announced(slot).await {
            Ok(_) => None,
            Err(e) => {
                // The sweeper answers games left waiting for the AI.
                tracing::error!(error = ?e, game = %played.game.id, "the AI could not reply");
                Some(&played.game)
            }
        },
        None => Some(&played.game),
    };
    match owed {
        Some(game) => super::board_owed(data, game, &"the response closed before the move").await,
        None => data.outbox.notify_one(),
    }
    window::note(
        ctx,
        text::played_late(private_lang(ctx), played.mv, played.game.id),
    )
    .await
}

/// Defers the response, lets the AI reply in `game` with its place in the queue (off the async
/// runtime: up to 2 seconds, after the searches ahead of it), and completes the response with
/// the board after its move. A reply lost on the way is left to the sweeper.
pub async fn answer_ai(ctx: Context<'_>, game: &Game, slot: AiSlot) -> Result<(), BotError> {
    ctx.defer().await?;
    let limit = super::pictures::attachment_limit(ctx);
    let v = after_ai(ctx.data(), public_lang(ctx), game, slot, limit).await?;
    match ctx {
        poise::Context::Application(app) => {
            match app
                .interaction
                .edit_response(ctx.serenity_context(), v.edit())
                .await
            {
                Ok(message) => {
                    super::board_shown(ctx.data(), game.id, Some(message.id)).await;
                }
                // The moves stand: the board as it is now goes to the outbox instead.
                Err(e) => {
                    let now = ctx.data().games.game(game.id).await?;
                    super::board_owed(ctx.data(), &now, &e).await;
                }
            }
        }
        poise::Context::Prefix(_) => {
            ctx.send(v.reply(false)).await?;
        }
    }
    Ok(())
}

/// The board once the AI has replied in `game` with its place in the queue: its move, the game
/// as it stands when another reply got there first, or an apology (logged) when it could not; in
/// the look chosen for the game's posts, with its replay if that ended it (within `limit`).
pub async fn after_ai(
    data: &Data,
    lang: Lang,
    game: &Game,
    slot: AiSlot,
    limit: u64,
) -> Result<view::View, BotError> {
    let games = &data.games;
    let style = super::pictures::public_style(&data.games, game).await;
    Ok(match games.ai_reply_with(slot).await {
        Ok(Some(played)) => {
            let v = view::ai_move(lang, &played, games.now(), style);
            super::pictures::at_the_end(games, lang, v, &played.game, style, limit).await
        }
        // Another reply (the sweeper's) got there first: show the game as it stands.
        Ok(None) => {
            super::pictures::public_board(&data.games, lang, &games.game(game.id).await?, limit)
                .await
        }
        Err(e) => {
            tracing::error!(error = ?e, game = %game.id, "the AI could not reply");
            let mut v = view::game(lang, game, games.now(), style);
            v.content = Some(tr!(lang, "ai-failed"));
            v.mentions.clear();
            v
        }
    })
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
    let me = super::member_id(ctx.author().id);
    let g = games.find_game(me, place(ctx), game_ref(game)).await?;
    let seen = g.sight(me, flip.unwrap_or(false));
    let lang = if seen.private {
        private_lang(ctx)
    } else {
        public_lang(ctx)
    };
    let style = if seen.private {
        super::pictures::private_style(&ctx.data().games, &g, me).await
    } else {
        super::pictures::public_style(&ctx.data().games, &g).await
    };
    let mut v = view::game_facing(lang, &g, games.now(), seen.bottom, style);
    // Looking at a board pings nobody.
    v.mentions.clear();
    if g.is_active() {
        v.content = None;
    }
    ctx.send(v.reply(seen.private)).await?;
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
        .resignable(
            super::member_id(ctx.author().id),
            place(ctx),
            game_ref(game),
        )
        .await?;
    ctx.send(view::confirm_resign(private_lang(ctx), &g).reply(true))
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
        .abort(&caller(ctx).await, place(ctx), game_ref(game))
        .await?;
    super::reply_board(ctx, &g, false).await;
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
    let at = super::click_place(click);
    let game = games.resign(who, at, GameRef::Id(id)).await?;
    // The game is over: whatever Discord does from here, the member is not told otherwise.
    let done = view::View::text(tr!(
        super::click_lang(click),
        "resign-done",
        id = id.to_string()
    ));
    if let Err(e) = super::update(ctx, click, done, true).await {
        tracing::warn!(error = %e, "could not confirm a resignation to its member");
    }
    let limit = super::pictures::click_attachment_limit(click);
    let result =
        super::pictures::public_board(&data.games, super::click_public_lang(click), &game, limit)
            .await;
    if let Err(e) = click.create_followup(&ctx.http, result.followup()).await {
        super::board_owed(data, &game, &e).await;
    }
    Ok(())
}
