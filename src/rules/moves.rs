//! Moves and the list that holds a position's legal moves.

use std::fmt;

use arrayvec::ArrayVec;

use super::size::{Square, MAX_COLS};

/// A move: one piece one step forward, possibly capturing.
///
/// Displayed in canonical notation: `e2-e3`, or `d4xe5` for a capture.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: Square,
    to: Square,
    capture: bool,
}

impl Move {
    /// A move from its parts, as read back from storage. Nothing is checked here:
    /// [`Position::play`](super::Position::play) checks every move it is given.
    pub const fn new(from: Square, to: Square, capture: bool) -> Move {
        Move { from, to, capture }
    }

    pub const fn from(self) -> Square {
        self.from
    }

    pub const fn to(self) -> Square {
        self.to
    }

    pub const fn is_capture(self) -> bool {
        self.capture
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { 'x' } else { '-' };
        write!(f, "{}{}{}", self.from, sep, self.to)
    }
}

/// The most legal moves a side can have: 2 rows of 10 pieces with 3 moves each.
pub const MAX_MOVES: usize = 3 * 2 * MAX_COLS as usize;

/// Legal moves, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
