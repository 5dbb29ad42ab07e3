//! The menus that play a move by taps, for the member to move alone: the pieces that can move,
//! then one piece's targets (or, when every legal move fits in one menu, the moves themselves),
//! each over the board from the mover's side. Only legal moves are ever offered.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

use crate::game::{BoardStyle, Game, Timestamp};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::rules::{Color, Move, Square};

use super::super::button::Button;
use super::{game_facing, View};

/// The most options a Discord select menu holds.
pub const MENU_OPTIONS: usize = 25;

/// The first menu of `game` for its member to move (who must be to move): the moves themselves
/// when they all fit in one menu, else the pieces that can move. `note` goes above it (why a
/// fresh menu replaced the one tapped).
pub fn move_menu(
    lang: Lang,
    game: &Game,
    now: Timestamp,
    style: BoardStyle,
    note: Option<String>,
) -> View {
    let moves = game.position.legal_moves();
    let (prompt, menu) = if moves.len() <= MENU_OPTIONS {
        (
            tr!(lang, "menu-choose-move"),
            targets_menu(lang, game, &moves),
        )
    } else {
        (
            tr!(lang, "menu-choose-piece"),
            pieces_menu(lang, game, &moves),
        )
    };
    let mut v = board(lang, game, now, style);
    v.content = Some(match note {
        Some(note) => format!("{note}\n{prompt}"),
        None => prompt,
    });
    v.components = vec![CreateActionRow::SelectMenu(menu)];
    v
}

/// The menu of the moves of the piece on `from` in `game`, with a way back to the pieces; the
/// first menu when no legal move starts there.
pub fn piece_menu(
    lang: Lang,
    game: &Game,
    now: Timestamp,
    style: BoardStyle,
    from: Square,
) -> View {
    let moves: Vec<Move> = game
        .position
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == from)
        .collect();
    if moves.is_empty() {
        return move_menu(lang, game, now, style, None);
    }
    let mut v = board(lang, game, now, style);
    v.content = Some(tr!(lang, "menu-choose-target", square = from.to_string()));
    v.components = vec![
        CreateActionRow::SelectMenu(targets_menu(lang, game, &moves)),
        CreateActionRow::Buttons(vec![CreateButton::new(Button::Pieces(game.id).to_string())
            .label(tr!(lang, "menu-other-piece"))
            .style(ButtonStyle::Secondary)]),
    ];
    v
}

/// The board of `game` from the side of its member to move, pinging no one.
fn board(lang: Lang, game: &Game, now: Timestamp, style: BoardStyle) -> View {
    let bottom: Color = game.position.turn();
    let mut v = game_facing(lang, game, now, bottom, style);
    v.mentions.clear();
    v
}

/// A select of the moves `moves` (at most [`MENU_OPTIONS`]): its value a move, as typed.
fn targets_menu(lang: Lang, game: &Game, moves: &[Move]) -> CreateSelectMenu {
    let options = moves
        .iter()
        .take(MENU_OPTIONS)
        .map(|m| CreateSelectMenuOption::new(move_label(lang, *m), m.to_string()))
        .collect();
    CreateSelectMenu::new(
        Button::Target {
            game: game.id,
            ply: game.ply,
        }
        .to_string(),
        CreateSelectMenuKind::String { options },
    )
    .placeholder(tr!(lang, "menu-move-placeholder"))
}

/// A select of the squares of the pieces that can move, each with its targets: its value a
/// square.
fn pieces_menu(lang: Lang, game: &Game, moves: &[Move]) -> CreateSelectMenu {
    let mut from: Vec<Square> = moves.iter().map(|m| m.from()).collect();
    from.sort_by_key(|s| (s.col(), s.row()));
    from.dedup();
    let options = from
        .iter()
        .take(MENU_OPTIONS)
        .map(|&square| {
            let targets: Vec<String> = moves
                .iter()
                .filter(|m| m.from() == square)
                .map(|m| target_label(*m))
                .collect();
            let label = tr!(
                lang,
                "menu-piece",
                square = square.to_string(),
                targets = targets.join(", ")
            );
            CreateSelectMenuOption::new(label, square.to_string())
        })
        .collect();
    CreateSelectMenu::new(
        Button::Piece {
            game: game.id,
            ply: game.ply,
        }
        .to_string(),
        CreateSelectMenuKind::String { options },
    )
    .placeholder(tr!(lang, "menu-piece-placeholder"))
}

/// A move in words: `b2 to b3`, `b2 takes c3`.
fn move_label(lang: Lang, m: Move) -> String {
    let (from, to) = (m.from().to_string(), m.to().to_string());
    if m.is_capture() {
        tr!(lang, "menu-capture", from = from, to = to)
    } else {
        tr!(lang, "menu-step", from = from, to = to)
    }
}

/// A target in a piece's label: its square, `×` before a capture.
fn target_label(m: Move) -> String {
    if m.is_capture() {
        format!("×{}", m.to())
    } else {
        m.to().to_string()
    }
}
