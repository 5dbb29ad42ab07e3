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
    AiSlot, BoardStyle, Error, Game, GameId, Member, PlayRefusal, Played, PuzzleRefusal,
    PuzzleView, TeamRefusal,
};
use crate::i18n::tr;
use crate::rules::Position;
use crate::text::{self, Refusal};

/// How a menu is shown: a new message for the member alone (from a board), or in place of the
/// menu tapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    New,
    InPlace,
}

/// What a tap plays in: one of the member's games, or the puzzle they are solving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Of {
    Game(GameId),
    Puzzle,
}

impl From<Menu> for Of {
    fn from(menu: Menu) -> Of {
        match menu {
            Menu::Game { game, .. } => Of::Game(game),
            Menu::Puzzle { .. } => Of::Puzzle,
        }
    }
}

/// What a tap plays in, as it stands now, the member to move in it.
enum Now {
    Game(Box<Game>),
    Puzzle(PuzzleView),
}

impl Now {
    fn position(&self) -> &Position {
        match self {
            Now::Game(game) => &game.position,
            Now::Puzzle(view) => &view.position,
        }
    }

    /// The menu of it as it stands: a menu of another point is stale.
    fn menu(&self) -> Menu {
        match self {
            Now::Game(game) => Menu::Game {
                game: game.id,
                ply: game.ply,
            },
            Now::Puzzle(view) => Menu::Puzzle {
                puzzle: view.id,
                left: view.moves_left,
            },
        }
    }
}

/// The first menu of what `of` names, for `who`, if they are to move in it.
pub async fn on_open(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    of: Of,
    open: Open,
) -> Result<(), BotError> {
    let v = match now(data, click, who, of).await? {
        Ok(now) => first_menu(data, click, &now, who, None).await,
        // A refusal from a board is a message of its own, as any other button's.
        Err(said) if open == Open::New => return Err(BotError::Input(said)),
        Err(said) => View::text(said),
    };
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

/// A piece chosen in `menu`: the menu of its moves, or a fresh first menu when the game or
/// puzzle moved on since.
pub async fn on_piece(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    menu: Menu,
) -> Result<(), BotError> {
    let now = match now(data, click, who, menu.into()).await? {
        Ok(now) => now,
        Err(said) => return reply::update(ctx, click, View::text(said), Audience::Caller).await,
    };
    let v = if now.menu() == menu {
        // Only a square with a legal move is read: anything else gets the first menu.
        match chosen(click).and_then(|value| piece_of(now.position(), value)) {
            Some(from) => {
                let board = board_of(data, click, &now, who).await;
                piece_menu(click_lang(click), now.position(), menu, board, from)
            }
            None => first_menu(data, click, &now, who, None).await,
        }
    } else {
        first_menu(data, click, &now, who, Some(moved_on(click))).await
    };
    reply::update(ctx, click, v, Audience::Caller).await
}

/// A move chosen in `menu`: played in the game (see [`on_game_target`]) or answered in the
/// puzzle (see [`on_puzzle_target`]).
pub async fn on_target(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    menu: Menu,
) -> Result<(), BotError> {
    let Some(value) = chosen(click) else {
        return Err(BotError::Input(tr!(
            click_lang(click),
            "discord-dead-button"
        )));
    };
    match menu {
        Menu::Game { game, ply } => on_game_target(ctx, data, click, who, game, ply, value).await,
        Menu::Puzzle { .. } => on_puzzle_target(ctx, data, click, who, menu, value).await,
    }
}

/// A move chosen at `ply`: played, the menu replaced by what was played, and the board posted
/// as a typed move's is. A menu of a position gone gets the fresh one; another refusal replaces
/// the menu.
async fn on_game_target(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    id: GameId,
    ply: u32,
    value: &str,
) -> Result<(), BotError> {
    if vote_game(data, click, id).await?.is_some() {
        return on_vote(ctx, data, click, who, ply, value).await;
    }
    let (played, slot) = match data.games.play.play_chosen(who, id, ply, value).await {
        Ok(done) => done,
        Err(Error::Refused(PlayRefusal::PositionChanged)) => {
            let v = match now(data, click, who, Of::Game(id)).await? {
                Ok(now) => first_menu(data, click, &now, who, Some(moved_on(click))).await,
                Err(said) => View::text(said),
            };
            return reply::update(ctx, click, v, Audience::Caller).await;
        }
        Err(Error::Refused(why)) => {
            let said = why.localized(click_lang(click), &Markdown);
            return reply::update(ctx, click, View::text(said), Audience::Caller).await;
        }
        Err(e) => return Err(e.into()),
    };
    let said = tr!(
        click_lang(click),
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

/// The vote game `id`, if the channel tapped in plays it.
async fn vote_game(
    data: &Data,
    click: &serenity::ComponentInteraction,
    id: GameId,
) -> Result<Option<Game>, BotError> {
    let game = data.games.teams.game_in(click_place(click).channel).await?;
    Ok(game.filter(|g| g.id == id))
}

/// A move chosen at `ply` of the channel's vote game: the member's vote, answered in place of
/// the menu with the window's leading moves.
async fn on_vote(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    ply: u32,
    value: &str,
) -> Result<(), BotError> {
    let lang = click_lang(click);
    let voted = match data
        .games
        .teams
        .vote(who, click_place(click), Some(ply), value)
        .await
    {
        Ok(voted) => voted,
        Err(Error::Refused(why)) => {
            let said = why.localized(lang, &Markdown);
            return reply::update(ctx, click, View::text(said), Audience::Caller).await;
        }
        Err(e) => return Err(e.into()),
    };
    let said = text::voted(lang, &Markdown, &voted, data.games.now());
    reply::update(ctx, click, View::text(said), Audience::Caller).await?;
    reply::votes_shown(&ctx.http, data, click_public_lang(click), &voted).await;
    Ok(())
}

/// A move chosen in the puzzle's `menu`: answered in place of the menu, as a typed one is; a
/// menu of a point the puzzle has moved on from gets the fresh one.
async fn on_puzzle_target(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    menu: Menu,
    value: &str,
) -> Result<(), BotError> {
    let lang = click_lang(click);
    let now = match now(data, click, who, Of::Puzzle).await? {
        Ok(now) => now,
        Err(said) => return reply::update(ctx, click, View::text(said), Audience::Caller).await,
    };
    if now.menu() != menu {
        let v = first_menu(data, click, &now, who, Some(moved_on(click))).await;
        return reply::update(ctx, click, v, Audience::Caller).await;
    }
    let step = match data.games.puzzles.puzzle_move(who, value).await {
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

/// What `of` names as it stands, if `who` is to move in it; else why not, in their words.
async fn now(
    data: &Data,
    click: &serenity::ComponentInteraction,
    who: &Member,
    of: Of,
) -> Result<Result<Now, String>, BotError> {
    let lang = click_lang(click);
    Ok(match of {
        Of::Game(id) => match data.games.play.movable(who.id, id).await {
            Ok(game) => Ok(Now::Game(Box::new(game))),
            // Not a player: a voter, where the channel votes on its move in this game.
            Err(Error::Refused(why)) => match vote_game(data, click, id).await? {
                Some(game) if game.team_to_move() => Ok(Now::Game(Box::new(game))),
                Some(game) => Err(TeamRefusal::NotYourTurn(game.id).localized(lang, &Markdown)),
                None => Err(why.localized(lang, &Markdown)),
            },
            Err(e) => return Err(e.into()),
        },
        Of::Puzzle => match data.games.puzzles.puzzle_in_progress(who.id).await? {
            Some(view) => Ok(Now::Puzzle(view)),
            None => Err(PuzzleRefusal::NoPuzzle.localized(lang, &Markdown)),
        },
    })
}

/// The first menu of `now` for `who`, with `note` above it.
async fn first_menu(
    data: &Data,
    click: &serenity::ComponentInteraction,
    now: &Now,
    who: &Member,
    note: Option<String>,
) -> View {
    let board = board_of(data, click, now, who).await;
    move_menu(click_lang(click), now.position(), now.menu(), board, note)
}

/// The board of `now` from the side of its member to move, in `who`'s own look.
async fn board_of(
    data: &Data,
    click: &serenity::ComponentInteraction,
    now: &Now,
    who: &Member,
) -> View {
    let style = own_style(data, click, who).await;
    let lang = click_lang(click);
    match now {
        Now::Game(game) => game_facing(lang, game, data.games.now(), game.position.turn(), style),
        Now::Puzzle(view) => {
            let shown = Board {
                position: &view.position,
                last: view.last,
                attacker: view.attacker,
            };
            board(lang, shown, style, text::puzzle_view(lang, view))
        }
    }
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

/// The value chosen in a select menu.
fn chosen(click: &serenity::ComponentInteraction) -> Option<&str> {
    match &click.data.kind {
        serenity::ComponentInteractionDataKind::StringSelect { values } => {
            values.first().map(String::as_str)
        }
        _ => None,
    }
}
