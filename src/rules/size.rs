//! Board sizes and squares.

use std::fmt;
use std::str::FromStr;

/// Fewest columns a board may have.
pub const MIN_COLS: u8 = 3;
/// Most columns a board may have (columns `a`..`j`).
pub const MAX_COLS: u8 = 10;
/// Fewest rows a board may have.
pub const MIN_ROWS: u8 = 5;
/// Most rows a board may have.
pub const MAX_ROWS: u8 = 10;

/// A supported board size: 3 to 10 columns and 5 to 10 rows, written `COLSxROWS`.
///
/// ```
/// use breakthrough_bot::rules::BoardSize;
/// let size: BoardSize = "6x5".parse().unwrap();
/// assert_eq!((size.cols(), size.rows()), (6, 5));
/// assert_eq!(size.to_string(), "6x5");
/// assert!("12x8".parse::<BoardSize>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoardSize {
    cols: u8,
    rows: u8,
}

/// Why a board size was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    #[error("cannot read board size `{0}`: write columns x rows, like 8x8 or 6x5")]
    Unreadable(String),
    #[error(
        "{cols}x{rows} is not a supported board: boards have {MIN_COLS} to {MAX_COLS} columns and {MIN_ROWS} to {MAX_ROWS} rows"
    )]
    Unsupported { cols: u32, rows: u32 },
}

impl BoardSize {
    /// The default board, 8x8.
    pub const DEFAULT: BoardSize = BoardSize { cols: 8, rows: 8 };

    /// The sizes players pick most, biggest first; any other supported size works too.
    pub const COMMON: [BoardSize; 8] = [
        BoardSize { cols: 8, rows: 8 },
        BoardSize { cols: 7, rows: 7 },
        BoardSize { cols: 6, rows: 6 },
        BoardSize { cols: 5, rows: 5 },
        BoardSize { cols: 10, rows: 10 },
        BoardSize { cols: 9, rows: 9 },
        BoardSize { cols: 6, rows: 5 },
        BoardSize { cols: 3, rows: 5 },
    ];

    /// A size with `cols` columns and `rows` rows, if it is supported.
    ///
    /// # Errors
    ///
    /// [`SizeError::Unsupported`] when `cols` is outside [`MIN_COLS`]..=[`MAX_COLS`] or `rows`
    /// outside [`MIN_ROWS`]..=[`MAX_ROWS`].
    pub const fn new(cols: u32, rows: u32) -> Result<BoardSize, SizeError> {
        match BoardSize::supported(cols, rows) {
            Some(size) => Ok(size),
            None => Err(SizeError::Unsupported { cols, rows }),
        }
    }

    /// [`BoardSize::new`] without the error, for constant tables.
    pub(super) const fn supported(cols: u32, rows: u32) -> Option<BoardSize> {
        if cols >= MIN_COLS as u32
            && cols <= MAX_COLS as u32
            && rows >= MIN_ROWS as u32
            && rows <= MAX_ROWS as u32
        {
            Some(BoardSize {
                cols: cols as u8,
                rows: rows as u8,
            })
        } else {
            None
        }
    }

    /// Every supported size, small to large.
    pub fn all() -> impl Iterator<Item = BoardSize> {
        (MIN_ROWS..=MAX_ROWS)
            .flat_map(|rows| (MIN_COLS..=MAX_COLS).map(move |cols| BoardSize { cols, rows }))
    }

    pub const fn cols(self) -> u8 {
        self.cols
    }

    pub const fn rows(self) -> u8 {
        self.rows
    }

    /// Number of squares on the board.
    pub const fn squares(self) -> u8 {
        self.cols * self.rows
    }

    /// The square at a zero-based column and row, if it is on this board.
    pub const fn square(self, col: u8, row: u8) -> Option<Square> {
        if col < self.cols && row < self.rows {
            Some(Square { col, row })
        } else {
            None
        }
    }

    /// Whether `square` lies on this board.
    pub const fn contains(self, square: Square) -> bool {
        square.col < self.cols && square.row < self.rows
    }

    /// Every square of the board, row 1 first, column `a` first.
    pub fn squares_iter(self) -> impl Iterator<Item = Square> {
        (0..self.rows).flat_map(move |row| (0..self.cols).map(move |col| Square { col, row }))
    }

    /// Bit index of a square on this board.
    pub(crate) const fn index(self, square: Square) -> u32 {
        square.row as u32 * self.cols as u32 + square.col as u32
    }

    /// The square of a bit index on this board.
    pub(crate) const fn square_at(self, index: u32) -> Square {
        Square {
            col: (index % self.cols as u32) as u8,
            row: (index / self.cols as u32) as u8,
        }
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::DEFAULT
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

impl FromStr for BoardSize {
    type Err = SizeError;

    /// Reads `COLSxROWS` (also with `X`, `×` or `*`, and spaces around).
    ///
    /// # Errors
    ///
    /// [`SizeError::Unreadable`] when the text is not two numbers around an `x`;
    /// [`SizeError::Unsupported`] when it is, but not a supported size.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unreadable = || SizeError::Unreadable(super::quote::shorten(s));
        let t = s.trim();
        let (c, r) = t.split_once(['x', 'X', '×', '*']).ok_or_else(unreadable)?;
        let number = |p: &str| -> Result<u32, SizeError> {
            let p = p.trim();
            if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(unreadable());
            }
            p.parse().map_err(|_| unreadable())
        };
        BoardSize::new(number(c)?, number(r)?)
    }
}

/// A square: a zero-based column (`a` = 0) and row (row `1` = 0).
///
/// Squares are made by [`BoardSize::square`], so a square is always on some supported board;
/// a position checks that it is on its own.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    row: u8,
    col: u8,
}

impl Square {
    pub const fn col(self) -> u8 {
        self.col
    }

    pub const fn row(self) -> u8 {
        self.row
    }

    /// The column letter, `a` to `j`.
    pub const fn file_char(self) -> char {
        (b'a' + self.col) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.row + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes_forgivingly_and_refuses_the_rest() {
        assert_eq!(" 7X7 ".parse::<BoardSize>(), BoardSize::new(7, 7));
        assert_eq!("10x10".parse::<BoardSize>(), BoardSize::new(10, 10));
        for bad in ["", "8", "x8", "8x", "axb", "8x8x8", "99999999999x8", "-3x5"] {
            assert!(
                matches!(bad.parse::<BoardSize>(), Err(SizeError::Unreadable(_))),
                "{bad}"
            );
        }
        for bad in ["2x8", "11x8", "8x4", "8x11", "0x0"] {
            assert!(
                matches!(bad.parse::<BoardSize>(), Err(SizeError::Unsupported { .. })),
                "{bad}"
            );
        }
    }
}
