//! The end of a game on the board: who won, and why.

use std::fmt;

use super::color::Color;

/// How a game was won on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinReason {
    /// A piece reached the far row.
    Breakthrough,
    /// Every opposing piece was captured.
    AllCaptured,
    /// The side to move had no legal move. The rules name it, but with two or more columns it
    /// cannot arise: the mover's most advanced piece always has a diagonal step onto a square
    /// that no piece of its own holds.
    NoMoves,
}

impl WinReason {
    pub const fn describe(self) -> &'static str {
        match self {
            WinReason::Breakthrough => "a piece reached the far row",
            WinReason::AllCaptured => "every opposing piece was captured",
            WinReason::NoMoves => "the other side has no legal move",
        }
    }
}

/// The end of a game on the board. There are no draws.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    pub winner: Color,
    pub reason: WinReason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} wins: {}", self.winner, self.reason.describe())
    }
}
