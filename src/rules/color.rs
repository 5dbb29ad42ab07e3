//! The two sides, and one value for each.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// A side. Black starts on the top rows and moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// Both sides, Black (who moves first) first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

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

/// One value for each side, in place of `[T; 2]` with literal indices or `black_*`/`white_*`
/// pairs: `by.get(color)` (or `by[color]`), [`ByColor::map`], [`ByColor::iter`].
///
/// ```
/// use breakthrough_bot::rules::{ByColor, Color};
///
/// let pieces = ByColor::new(16, 15);
/// assert_eq!(pieces[Color::White], 15);
/// assert_eq!(pieces.map(|n| n * 2), ByColor::new(32, 30));
/// assert_eq!(pieces.find(|&n| n == 16), Some(Color::Black));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    pub black: T,
    pub white: T,
}

impl<T> ByColor<T> {
    pub const fn new(black: T, white: T) -> ByColor<T> {
        ByColor { black, white }
    }

    /// Each side's value, made by `f`, Black's first.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        let black = f(Color::Black);
        ByColor {
            black,
            white: f(Color::White),
        }
    }

    pub const fn get(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    /// Each side's value through `f`, Black's first.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        let black = f(self.black);
        ByColor {
            black,
            white: f(self.white),
        }
    }

    pub const fn as_ref(&self) -> ByColor<&T> {
        ByColor {
            black: &self.black,
            white: &self.white,
        }
    }

    /// Each side with its value, Black first.
    pub fn iter(&self) -> impl Iterator<Item = (Color, &T)> {
        [(Color::Black, &self.black), (Color::White, &self.white)].into_iter()
    }

    /// The first side, Black first, whose value satisfies `pred`.
    pub fn find(&self, mut pred: impl FnMut(&T) -> bool) -> Option<Color> {
        self.iter().find(|(_, v)| pred(v)).map(|(c, _)| c)
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;

    fn index(&self, color: Color) -> &T {
        self.get(color)
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        self.get_mut(color)
    }
}
