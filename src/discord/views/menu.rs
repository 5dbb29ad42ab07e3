//! The menus that play a move by taps, for the member to move alone: the pieces that can move,
//! then one piece's targets (or, when every legal move fits in one menu, the moves themselves),
//! each over the board from the mover's side. Only legal moves are ever offered. The same
//! menus answer a game and the puzzle a member is solving.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

use crate::game::{GameId, PuzzleId};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::rules::{Move, Position, Square};

use super::super::button::Button;
use super::View;

/// The most options a Discord select menu holds.
pub const MENU_OPTIONS: usize = 25;

/// What a menu plays in, and at which point of it: a game at a ply, or a puzzle with this many
/// of the member's own moves left. A menu of another point is stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Menu {
    Game { game: GameId, ply: u32 },
    Puzzle { puzzle: PuzzleId, left: u32 },
}

impl Menu {
    /// The button that opens this menu's first step: on a board.
    pub fn open(self) -> Button {
        match self {
            Menu::Game { game, .. } => Button::Move(game),
            Menu::Puzzle { .. } => Button::PuzzleMove,
        }
    }

    fn back(self) -> Button {
        match self {
            Menu::Game { game, .. } => Button::Pieces(game),
            Menu::Puzzle { .. } => Button::PuzzlePieces,
        }
    }

    fn pieces(self) -> Button {
        match self {
            Menu::Game { game, ply } => Button::Piece { game, ply },
            Menu::Puzzle { puzzle, left } => Button::PuzzlePiece { puzzle, left },
        }
    }

    fn targets(self) -> Button {
        match self {
            Menu::Game { game, ply } => Button::Target { game, ply },
            Menu::Puzzle { puzzle, left } => Button::PuzzleTarget { puzzle, left },
        }
    }
}

/// The Move button a board carries while it waits for its member's move.
pub fn move_button(lang: Lang, menu: Menu) -> CreateActionRow {
    CreateActionRow::Buttons(vec![CreateButton::new(menu.open().to_string())
        .label(tr!(lang, "button-move"))
        .style(ButtonStyle::Primary)])
}

/// The first menu of `position` over `board` (the board from the mover's side): the moves
/// themselves when they all fit in one menu, else the pieces that can move. `note` goes above
/// it (why a fresh menu replaced the one tapped).
pub fn move_menu(
    lang: Lang,
    position: &Position,
    menu: Menu,
    mut board: View,
    note: Option<String>,
) -> View {
    let moves = position.legal_moves();
    let (prompt, select) = if moves.len() <= MENU_OPTIONS {
        (
            tr!(lang, "menu-choose-move"),
            targets_menu(lang, menu, &moves),
        )
    } else {
        (
            tr!(lang, "menu-choose-piece"),
            pieces_menu(lang, menu, &moves),
        )
    };
    board.content = Some(match note {
        Some(note) => format!("{note}\n{prompt}"),
        None => prompt,
    });
    board.components = vec![CreateActionRow::SelectMenu(select)];
    board.mentions.clear();
    board
}

/// The menu of the moves of the piece on `from`, with a way back to the pieces; the first menu
/// when no legal move starts there.
pub fn piece_menu(lang: Lang, position: &Position, menu: Menu, board: View, from: Square) -> View {
    let moves: Vec<Move> = position
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == from)
        .collect();
    if moves.is_empty() {
        return move_menu(lang, position, menu, board, None);
    }
    let mut v = board;
    v.content = Some(tr!(lang, "menu-choose-target", square = from.to_string()));
    v.components = vec![
        CreateActionRow::SelectMenu(targets_menu(lang, menu, &moves)),
        CreateActionRow::Buttons(vec![CreateButton::new(menu.back().to_string())
            .label(tr!(lang, "menu-other-piece"))
            .style(ButtonStyle::Secondary)]),
    ];
    v.mentions.clear();
    v
}

/// The square of a piece that can move in `position`, as a piece menu's value names it; `None`
/// for anything else.
pub fn piece_of(position: &Position, value: &str) -> Option<Square> {
    position
        .legal_moves()
        .iter()
        .map(|m| m.from())
        .find(|s| s.to_string() == value)
}

/// A select of the moves `moves` (at most [`MENU_OPTIONS`]): its value a move, as typed.
fn targets_menu(lang: Lang, menu: Menu, moves: &[Move]) -> CreateSelectMenu {
    let options = moves
        .iter()
        .take(MENU_OPTIONS)
        .map(|m| CreateSelectMenuOption::new(move_label(lang, *m), m.to_string()))
        .collect();
    CreateSelectMenu::new(
        menu.targets().to_string(),
        CreateSelectMenuKind::String { options },
    )
    .placeholder(tr!(lang, "menu-move-placeholder"))
}

/// A select of the squares of the pieces that can move, each with its targets: its value a
/// square.
fn pieces_menu(lang: Lang, menu: Menu, moves: &[Move]) -> CreateSelectMenu {
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
        menu.pieces().to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameId;
    use crate::rules::BoardSize;

    /// The select a menu's first row holds: its custom id and how many options.
    fn select(v: &View) -> (String, usize) {
        let rows = serde_json::to_value(&v.components).expect("components as JSON");
        let menu = &rows[0]["components"][0];
        let options = menu["options"].as_array().map_or(0, Vec::len);
        (
            menu["custom_id"].as_str().unwrap_or_default().to_string(),
            options,
        )
    }

    #[test]
    fn an_8x8_opening_is_one_menu_and_a_middlegame_of_40_moves_starts_with_the_pieces() {
        let game = |ply| Menu::Game {
            game: GameId::new(1),
            ply,
        };
        let start = Position::new(BoardSize::DEFAULT);
        assert_eq!(start.legal_moves().len(), 22);
        let v = move_menu(Lang::En, &start, game(0), View::default(), None);
        assert_eq!(select(&v), ("move:to:1:0".to_string(), 22));

        // A middlegame with two lines of Black pieces free to move: 44 moves.
        let position: Position = "8/8/bbbbbbbb/8/bbbbbbbb/8/8/wwwwwwww b"
            .parse()
            .expect("a position");
        assert_eq!(position.legal_moves().len(), 44);
        let ply = 20;
        let v = move_menu(Lang::En, &position, game(ply), View::default(), None);
        let (id, pieces) = select(&v);
        assert_eq!(id, format!("move:piece:1:{ply}"));
        assert!((1..=MENU_OPTIONS).contains(&pieces), "{pieces} pieces");
    }
}
