//! Moves by taps. The **Move** button on a game's boards, and on the puzzle a member is
//! solving, opens for the member who taps alone the menus of the legal moves (`views::menu`): a
//! piece, then its target, or the move itself when every move fits in one menu.
//!
//! A game's move is played as a typed `/move` is, and its board posted in the game's channel:
//! as a follow-up when the tap came from there, through the outbox when it came from elsewhere
//! (the turn's direct message). A puzzle's move is answered in place of its menu, for the
//! member alone.

use poise::serenity_prelude as serenity;

use crate::discord::reply::{self, pictures};
use crate::discord::views::menu::{move_menu, piece_menu, piece_of, Menu};
use crate::discord::views::puzzle::{board, Board};
use crate::discord::views::{game_facing, Audience, Markdown, View};
use crate::discord::{click_lang, click_place, click_public_lang, BotError, Data};
use crate::game::{
    AiSlot, BoardStyle, Error, Game, GameId, Member, PlayRefusal, Played, PuzzleId, PuzzleRefusal,
    PuzzleView,
};
use crate::i18n::tr;
use crate::text::{self, Refusal};

/// How a menu is shown: a new message for the member alone (from a board), or in place of the
/// menu tapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    New,
    InPlace,
}

/// The first menu of game `id` for `who`, if it is their turn there.
pub async fn on_move(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
    open: Open,
) -> Result<(), BotError> {
    let game = data.games.play.movable(who.id, id).await?;
    let v = game_menu(data, click, &game, who, None).await;
    show(ctx, click, v, open).await
}

/// A piece chosen at `ply`: the menu of its moves, or a fresh first menu when the game moved on.
pub async fn on_piece(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
    ply: u32,
) -> Result<(), BotError> {
    let game = match data.games.play.movable(who.id, id).await {
        Ok(game) => game,
        Err(e) => return refused(ctx, click, e).await,
    };
    let v = if game.ply == ply {
        // Only a square with a legal move is read: anything else gets the first menu.
        match chosen(click).and_then(|value| piece_of(&game.position, value)) {
            Some(from) => {
                let lang = click_lang(click);
                let board = game_board(data, click, &game, who).await;
                piece_menu(lang, &game.position, game_menu_of(&game), board, from)
            }
            None => game_menu(data, click, &game, who, None).await,
        }
    } else {
        game_menu(data, click, &game, who, Some(moved_on(click))).await
    };
    reply::update(ctx, click, v, Audience::Caller).await
}

/// A move chosen at `ply`: played, the menu replaced by what was played, and the board posted
/// as a typed move's is. A menu of a position gone gets the fresh one; another refusal replaces
/// the menu.
pub async fn on_target(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
    ply: u32,
) -> Result<(), BotError> {
    let lang = click_lang(click);
    let Some(value) = chosen(click) else {
        return Err(BotError::Input(tr!(lang, "discord-dead-button")));
    };
    let (played, slot) = match data.games.play.play_chosen(who, id, ply, value).await {
        Ok(done) => done,
        Err(Error::Refused(PlayRefusal::PositionChanged)) => {
            return match data.games.play.movable(who.id, id).await {
                Ok(game) => {
                    let v = game_menu(data, click, &game, who, Some(moved_on(click))).await;
                    reply::update(ctx, click, v, Audience::Caller).await
                }
                Err(e) => refused(ctx, click, e).await,
            };
        }
        Err(e) => return refused(ctx, click, e).await,
    };
    let said = tr!(
        lang,
        "menu-played",
        mv = played.mv.to_string(),
        id = id.to_string()
    );
    // The move stands: whatever Discord does from here, the member is not told otherwise.
    if let Err(e) = reply::update(ctx, click, View::text(said), Audience::Caller).await {
        tracing::warn!(error = %e, "could not confirm a move played by taps");
    }
    post_board(ctx, data, click, &played, slot).await;
    Ok(())
}

/// The first menu of the puzzle `who` is solving.
pub async fn on_puzzle(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    open: Open,
) -> Result<(), BotError> {
    let Some(view) = data.games.puzzles.puzzle_in_progress(who.id).await? else {
        return Err(Error::Refused(PuzzleRefusal::NoPuzzle).into());
    };
    let v = puzzle_menu(data, click, &view, who, None).await;
    show(ctx, click, v, open).await
}

/// A piece chosen in the puzzle `puzzle` with `left` own moves left: the menu of its moves, or a
/// fresh first menu when the puzzle moved on.
pub async fn on_puzzle_piece(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    puzzle: PuzzleId,
    left: u32,
) -> Result<(), BotError> {
    let Some(view) = data.games.puzzles.puzzle_in_progress(who.id).await? else {
        return no_puzzle(ctx, click).await;
    };
    let v = if (view.id, view.moves_left) == (puzzle, left) {
        match chosen(click).and_then(|value| piece_of(&view.position, value)) {
            Some(from) => {
                let board = puzzle_board(data, click, &view, who).await;
                let menu = puzzle_menu_of(&view);
                piece_menu(click_lang(click), &view.position, menu, board, from)
            }
            None => puzzle_menu(data, click, &view, who, None).await,
        }
    } else {
        puzzle_menu(data, click, &view, who, Some(moved_on(click))).await
    };
    reply::update(ctx, click, v, Audience::Caller).await
}

/// A move chosen in the puzzle `puzzle` with `left` own moves left: answered in place of the
/// menu, as a typed one is.
pub async fn on_puzzle_target(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    puzzle: PuzzleId,
    left: u32,
) -> Result<(), BotError> {
    let lang = click_lang(click);
    let Some(value) = chosen(click) else {
        return Err(BotError::Input(tr!(lang, "discord-dead-button")));
    };
    let puzzles = &data.games.puzzles;
    let Some(view) = puzzles.puzzle_in_progress(who.id).await? else {
        return no_puzzle(ctx, click).await;
    };
    if (view.id, view.moves_left) != (puzzle, left) {
        let v = puzzle_menu(data, click, &view, who, Some(moved_on(click))).await;
        return reply::update(ctx, click, v, Audience::Caller).await;
    }
    let step = match puzzles.puzzle_move(who, value).await {
        Ok(step) => step,
        Err(Error::Refused(why)) => {
            let said = why.localized(lang, &Markdown);
            return reply::update(ctx, click, View::text(said), Audience::Caller).await;
        }
        Err(e) => return Err(e.into()),
    };
    let style = own_style(data, click, who).await;
    let v = reply::puzzle_step(lang, &step, style);
    reply::update(ctx, click, v, Audience::Caller).await?;
    reply::daily_counted(&ctx.http, click_public_lang(click), &step).await;
    Ok(())
}

/// The board after a move played by taps, as a typed move's: after the AI's reply when it has
/// one to make; a follow-up in the game's channel when the tap came from there, else handed to
/// the outbox, which posts it there.
async fn post_board(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    played: &Played,
    slot: Option<AiSlot>,
) {
    let games = &data.games;
    let game = &played.game;
    let slot = slot.filter(|_| game.ai_to_move());
    if click_place(click) != game.place {
        let owed = match slot {
            Some(slot) => games.play.ai_reply_with_announced(slot).await.err(),
            None => games.outbox.board_owed(game).await.err().map(Error::Failed),
        };
        if let Some(e) = owed {
            tracing::error!(error = ?e, game = %game.id, "could not hand a board to the outbox");
        }
        return;
    }
    let lang = click_public_lang(click);
    let limit = pictures::click_attachment_limit(click);
    let v = match slot {
        Some(slot) => match reply::after_ai(data, lang, game, slot, limit).await {
            Ok(v) => v,
            Err(e) => {
                tracing::error!(error = ?e, game = %game.id, "could not show the AI's reply");
                return;
            }
        },
        None => pictures::public_board(games, lang, game, limit).await,
    };
    match click.create_followup(&ctx.http, v.followup()).await {
        Ok(message) => reply::board_shown(data, game.id, Some(message.id)).await,
        Err(e) => {
            let now = games.play.game(game.id).await;
            reply::board_owed(data, now.as_ref().unwrap_or(game), &e).await;
        }
    }
}

/// Shows a menu: a new message for the member alone, or in place of the one tapped.
async fn show(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
    v: View,
    open: Open,
) -> Result<(), BotError> {
    match open {
        Open::New => {
            let message = v.interaction_message(Audience::Caller);
            click
                .create_response(
                    &ctx.http,
                    serenity::CreateInteractionResponse::Message(message),
                )
                .await?;
            Ok(())
        }
        Open::InPlace => reply::update(ctx, click, v, Audience::Caller).await,
    }
}

fn game_menu_of(game: &Game) -> Menu {
    Menu::Game {
        game: game.id,
        ply: game.ply,
    }
}

fn puzzle_menu_of(view: &PuzzleView) -> Menu {
    Menu::Puzzle {
        puzzle: view.id,
        left: view.moves_left,
    }
}

/// The first menu of `game` for `who`, with `note` above it.
async fn game_menu(
    data: &Data,
    click: &serenity::ComponentInteraction,
    game: &Game,
    who: &Member,
    note: Option<String>,
) -> View {
    let board = game_board(data, click, game, who).await;
    move_menu(
        click_lang(click),
        &game.position,
        game_menu_of(game),
        board,
        note,
    )
}

/// The first menu of the puzzle `who` is solving, with `note` above it.
async fn puzzle_menu(
    data: &Data,
    click: &serenity::ComponentInteraction,
    view: &PuzzleView,
    who: &Member,
    note: Option<String>,
) -> View {
    let board = puzzle_board(data, click, view, who).await;
    move_menu(
        click_lang(click),
        &view.position,
        puzzle_menu_of(view),
        board,
        note,
    )
}

/// `game`'s board from the side of its member to move, in `who`'s own look.
async fn game_board(
    data: &Data,
    click: &serenity::ComponentInteraction,
    game: &Game,
    who: &Member,
) -> View {
    let style = own_style(data, click, who).await;
    let lang = click_lang(click);
    game_facing(lang, game, data.games.now(), game.position.turn(), style)
}

/// The board of the puzzle `who` is solving, in their own look.
async fn puzzle_board(
    data: &Data,
    click: &serenity::ComponentInteraction,
    view: &PuzzleView,
    who: &Member,
) -> View {
    let style = own_style(data, click, who).await;
    let lang = click_lang(click);
    let shown = Board {
        position: &view.position,
        last: view.last,
        attacker: view.attacker,
    };
    board(lang, shown, style, text::puzzle_view(lang, view))
}

/// The look of what only `who` sees where they tapped.
async fn own_style(
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
) -> BoardStyle {
    data.games
        .settings
        .board_style(click_place(click), Some(who.id))
        .await
}

fn moved_on(click: &serenity::ComponentInteraction) -> String {
    tr!(click_lang(click), "menu-changed")
}

/// The menu replaced by why the tap was refused; a failure on our side is the caller's to say.
async fn refused(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
    e: Error<PlayRefusal>,
) -> Result<(), BotError> {
    let Error::Refused(why) = e else {
        return Err(e.into());
    };
    let said = why.localized(click_lang(click), &Markdown);
    reply::update(ctx, click, View::text(said), Audience::Caller).await
}

/// The menu replaced by: no puzzle is being solved (it ended meanwhile).
async fn no_puzzle(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
) -> Result<(), BotError> {
    let said = PuzzleRefusal::NoPuzzle.localized(click_lang(click), &Markdown);
    reply::update(ctx, click, View::text(said), Audience::Caller).await
}

/// The value chosen in a select menu.
fn chosen(click: &serenity::ComponentInteraction) -> Option<&str> {
    match &click.data.kind {
        serenity::ComponentInteractionDataKind::StringSelect { values } => {
            values.first().map(String::as_str)
        }
        _ => None,
    }
}
