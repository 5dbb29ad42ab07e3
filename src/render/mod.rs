//! Boards as text: an emoji grid for Discord and a plain grid for terminals and logs. Pure.
//!
//! The emoji grid uses Unicode emoji only (custom emoji and shortcodes fail on phones). Boards
//! everyone sees have Black on top; a player's own view may turn the board round, their side at
//! the bottom (`*_facing`). The last move's from-square shows an arrow pointing where the piece
//! went, as drawn, and the piece that moved is drawn as a heart of its colour.
//!
//! Boards as pictures too: a PNG of one position ([`board_png`], in `picture`) and an animated
//! GIF of a game ([`replay_gif`], in `replay`), drawn with the same rows and columns as the grids.

mod glyphs;
mod picture;
mod replay;

use std::fmt::Write;

use crate::rules::{Color, Move, Position, Square};

pub use picture::{board_png, PictureError};
#[cfg(feature = "test-support")]
pub use replay::long_game;
pub use replay::replay_gif;

pub const DARK_SQUARE: &str = "🟫";
pub const LIGHT_SQUARE: &str = "🟧";
pub const BLACK_PIECE: &str = "⚫";
pub const WHITE_PIECE: &str = "⚪";
pub const BLACK_MOVED: &str = "🖤";
pub const WHITE_MOVED: &str = "🤍";
/// Stands in the corner where the row numbers meet the column letters.
pub const CORNER: &str = "⬛";
/// Keeps two regional-indicator letters from fusing into a flag.
const ZERO_WIDTH_SPACE: char = '\u{200B}';

const KEYCAPS: [&str; 10] = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟"];

/// The arrow drawn on the from-square of the last move, pointing where the piece went on a
/// board drawn with `bottom` at the bottom (turned round for Black: up is down, left is right).
fn arrow(mv: Move, bottom: Color) -> &'static str {
    let turned = bottom == Color::Black;
    let up = (mv.to().row() > mv.from().row()) != turned;
    let across = mv.to().col().cmp(&mv.from().col());
    let across = if turned { across.reverse() } else { across };
    match (up, across) {
        (true, std::cmp::Ordering::Less) => "↖️",
        (true, std::cmp::Ordering::Equal) => "⬆️",
        (true, std::cmp::Ordering::Greater) => "↗️",
        (false, std::cmp::Ordering::Less) => "↙️",
        (false, std::cmp::Ordering::Equal) => "⬇️",
        (false, std::cmp::Ordering::Greater) => "↘️",
    }
}

fn is_dark(square: Square) -> bool {
    (square.col() + square.row()).is_multiple_of(2)
}

/// Regional-indicator letter for a column (🇦 for `a`).
fn column_letter(col: u8) -> char {
    char::from_u32(0x1F1E6 + col as u32).unwrap_or('?')
}

/// The rows from top to bottom and the columns from left to right of a board of `rows` x `cols`
/// drawn with `bottom`'s side at the bottom: White's view has row 1 at the bottom and `a` on the
/// left, Black's the board turned round.
fn drawing_order(rows: u8, cols: u8, bottom: Color) -> (Vec<u8>, Vec<u8>) {
    match bottom {
        Color::White => ((0..rows).rev().collect(), (0..cols).collect()),
        Color::Black => ((0..rows).collect(), (0..cols).rev().collect()),
    }
}

/// The board as an emoji grid, Black on top, row numbers on the left, column letters below.
/// `last` is the move that led to `position`, marked when given.
#[cfg(feature = "test-support")]
pub fn emoji_board(position: &Position, last: Option<Move>) -> String {
    emoji_board_facing(position, last, Color::White)
}

/// [`emoji_board`] with `bottom`'s pieces at the bottom, the row numbers and column letters in
/// the order that side sees them.
pub fn emoji_board_facing(position: &Position, last: Option<Move>, bottom: Color) -> String {
    let size = position.size();
    let (rows, cols) = drawing_order(size.rows(), size.cols(), bottom);
    let mut out = String::with_capacity(64 * size.squares() as usize);
    for &row in &rows {
        out.push_str(KEYCAPS[row as usize]);
        for &col in &cols {
            let Some(square) = size.square(col, row) else {
                continue;
            };
            let cell = match (position.piece_at(square), last) {
                (_, Some(mv)) if mv.from() == square => arrow(mv, bottom),
                (Some(Color::Black), Some(mv)) if mv.to() == square => BLACK_MOVED,
                (Some(Color::White), Some(mv)) if mv.to() == square => WHITE_MOVED,
                (Some(Color::Black), _) => BLACK_PIECE,
                (Some(Color::White), _) => WHITE_PIECE,
                (None, _) if is_dark(square) => DARK_SQUARE,
                (None, _) => LIGHT_SQUARE,
            };
            out.push_str(cell);
        }
        out.push('\n');
    }
    out.push_str(CORNER);
    for (i, &col) in cols.iter().enumerate() {
        if i > 0 {
            out.push(ZERO_WIDTH_SPACE);
        }
        out.push(column_letter(col));
    }
    out
}

/// The board as plain text: `b` black, `w` white, `.` empty; the last move's from-square is `*`
/// and the piece that moved is a capital letter.
#[cfg(feature = "test-support")]
pub fn text_board(position: &Position, last: Option<Move>) -> String {
    text_board_facing(position, last, Color::White)
}

/// [`text_board`] with `bottom`'s pieces at the bottom, the row numbers and column letters in
/// the order that side sees them.
pub fn text_board_facing(position: &Position, last: Option<Move>, bottom: Color) -> String {
    let size = position.size();
    let (rows, cols) = drawing_order(size.rows(), size.cols(), bottom);
    let mut out = String::new();
    for &row in &rows {
        let _ = write!(out, "{:>2} ", row + 1);
        for &col in &cols {
            let Some(square) = size.square(col, row) else {
                continue;
            };
            let moved = last.is_some_and(|mv| mv.to() == square);
            let cell = match position.piece_at(square) {
                _ if last.is_some_and(|mv| mv.from() == square) => '*',
                Some(Color::Black) if moved => 'B',
                Some(Color::White) if moved => 'W',
                Some(Color::Black) => 'b',
                Some(Color::White) => 'w',
                None => '.',
            };
            out.push(' ');
            out.push(cell);
        }
        out.push('\n');
    }
    out.push_str("   ");
    for &col in &cols {
        out.push(' ');
        out.push((b'a' + col) as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardSize;

    #[test]
    fn regional_indicators_never_touch() {
        for size in BoardSize::all() {
            let board = emoji_board(&Position::new(size), None);
            let chars: Vec<char> = board.chars().collect();
            for pair in chars.windows(2) {
                let ri = |c: char| ('\u{1F1E6}'..='\u{1F1FF}').contains(&c);
                assert!(!(ri(pair[0]) && ri(pair[1])), "{size}: flags could form");
            }
        }
    }
}
