//! The game of Breakthrough: board sizes, squares, positions, moves, notation and outcomes.
//!
//! Pure and synchronous: no I/O, no async, no allocation in move generation. Nothing here panics on
//! user input; every refusal is a typed error whose message speaks to the player.
//!
//! One file per concern, each depending only on those listed before it: `bits` (bitboard words),
//! `quote` (user text quoted back), `size` (sizes and squares), `color`, `geometry` (each size's
//! masks, shared with the engine), `moves`, `outcome`, `position` (positions, legality, move
//! generation), `perft`, `setup` (positions as text), `notation` (moves as text).

#![warn(clippy::missing_errors_doc)]

mod bits;
mod color;
mod geometry;
mod moves;
mod notation;
mod outcome;
mod perft;
mod position;
mod quote;
mod setup;
mod size;

pub use color::{ByColor, Color, ColorError};
pub(crate) use geometry::Geometry;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::{MoveError, MoveText, ParseMoveError, SquareText};
pub use outcome::{Outcome, WinReason};
pub use position::{IllegalMove, Position};
pub(crate) use quote::shorten;
pub use setup::{Setup, SetupError};
pub use size::{BoardSize, SizeError, Square, MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS};

/// Replays `moves` (in any accepted notation) from the start position of `size`.
///
/// # Errors
///
/// The zero-based index of the first move that failed, with its [`MoveError`]: the text is not a
/// move, or not a legal one in the position reached.
pub fn replay<'a>(
    size: BoardSize,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<(Position, Vec<Move>), (usize, MoveError)> {
    let mut position = Position::new(size);
    let mut played = Vec::new();
    for (i, text) in moves.into_iter().enumerate() {
        let mv = position.parse_move(text).map_err(|e| (i, e))?;
        position = position.play(mv).map_err(|e| (i, MoveError::Illegal(e)))?;
        played.push(mv);
    }
    Ok((position, played))
}
