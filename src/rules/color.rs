//! The two sides.

use std::fmt;
use std::str::FromStr;

/// A side. Black starts on the top rows and moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The side's place in `[black, white]` arrays: 0 for Black, 1 for White.
    pub(crate) const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = ColorError;

    /// Reads `black` or `white` (or `b`, `w`), in any case, with spaces around.
    ///
    /// # Errors
    ///
    /// [`ColorError`] for anything else.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" | "b" => Ok(Color::Black),
            "white" | "w" => Ok(Color::White),
            _ => Err(ColorError),
        }
    }
}

/// A colour name that is neither black nor white.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a side is `black` or `white`")]
pub struct ColorError;
