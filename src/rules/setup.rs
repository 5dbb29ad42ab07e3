//! Positions written out as text, and read back with every impossible one refused.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use super::color::Color;
use super::position::Position;
use super::size::{BoardSize, SizeError, Square, MAX_COLS};

/// A position written out: rows from the top (Black's side) down, separated by `/`, with `b` for a
/// black piece, `w` for a white one and a number for a run of empty squares, then the side to
/// move. The start of 5x5 is `bbbbb/bbbbb/5/wwwww/wwwww b`.
///
/// Reading one checks that it could occur in a game; [`Position::try_from`] then gives a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub size: BoardSize,
    pub black: Vec<Square>,
    pub white: Vec<Square>,
    pub turn: Color,
}

/// Why a setup is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("cannot read position `{0}`: write rows from the top separated by /, with b, w and numbers of empty squares, then b or w for the side to move")]
    Unreadable(String),
    #[error(transparent)]
    Size(#[from] SizeError),
    #[error("rows have different lengths")]
    RaggedRows,
    #[error("{0} is off the board")]
    OffBoard(Square),
    #[error("{0} holds two pieces")]
    Overlap(Square),
    #[error("{0} has more pieces than fit its two starting rows")]
    TooManyPieces(Color),
    #[error("{0} cannot have lost every piece with {0} having just moved")]
    MoverCaptured(Color),
    #[error("both sides have reached the far row")]
    BothBrokeThrough,
    #[error("{0} reached the far row but it is {0}'s turn again")]
    BreakthroughOutOfTurn(Color),
}

impl TryFrom<&Setup> for Position {
    type Error = SetupError;

    /// The position `s` describes, if it could occur in a game.
    ///
    /// # Errors
    ///
    /// [`SetupError::OffBoard`] for a square off the setup's board,
    /// [`Overlap`](SetupError::Overlap) for a square given twice,
    /// [`TooManyPieces`](SetupError::TooManyPieces) for a side with more pieces than two rows
    /// hold, [`MoverCaptured`](SetupError::MoverCaptured) when the side that just moved has no
    /// piece left, and [`BothBrokeThrough`](SetupError::BothBrokeThrough) or
    /// [`BreakthroughOutOfTurn`](SetupError::BreakthroughOutOfTurn) when a side on its goal row
    /// could not have got there with the turn as given.
    fn try_from(s: &Setup) -> Result<Position, SetupError> {
        let size = s.size;
        let g = size.geometry();
        let mut bits = [0u128; 2];
        for (side, squares) in [(0, &s.black), (1, &s.white)] {
            for &sq in squares {
                if !size.contains(sq) {
                    return Err(SetupError::OffBoard(sq));
                }
                let bit = 1u128 << size.index(sq);
                if (bits[0] | bits[1]) & bit != 0 {
                    return Err(SetupError::Overlap(sq));
                }
                bits[side] |= bit;
            }
        }
        let [black, white] = bits;
        for (color, b) in [(Color::Black, black), (Color::White, white)] {
            if b.count_ones() > 2 * size.cols() as u32 {
                return Err(SetupError::TooManyPieces(color));
            }
        }
        // The side that just moved is the one not to move: it cannot have been wiped out.
        let mover = s.turn.opposite();
        let mover_bits = if mover == Color::Black { black } else { white };
        if mover_bits == 0 {
            return Err(SetupError::MoverCaptured(mover));
        }
        let black_through = black & g.first_row != 0;
        let white_through = white & g.last_row != 0;
        match (black_through, white_through) {
            (true, true) => return Err(SetupError::BothBrokeThrough),
            (true, false) if s.turn == Color::Black => {
                return Err(SetupError::BreakthroughOutOfTurn(Color::Black))
            }
            (false, true) if s.turn == Color::White => {
                return Err(SetupError::BreakthroughOutOfTurn(Color::White))
            }
            _ => {}
        }
        Ok(Position::from_parts(size, black, white, s.turn))
    }
}

impl FromStr for Position {
    type Err = SetupError;

    /// Reads a position written as a [`Setup`], such as `bbbbb/bbbbb/5/wwwww/wwwww b`.
    ///
    /// # Errors
    ///
    /// Any [`SetupError`]: the text cannot be read as a setup (see [`Setup::from_str`]), or the
    /// setup is no position (see [`Position::try_from`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::try_from(&s.parse::<Setup>()?)
    }
}

impl FromStr for Setup {
    type Err = SetupError;

    /// Reads the board twice, once to check it and measure it and once to place the pieces, so
    /// that reading a stored game allocates nothing but the two lists of squares. Whether the
    /// setup could occur in a game is [`Position::try_from`]'s to say.
    ///
    /// # Errors
    ///
    /// [`SetupError::Unreadable`] when the text is not a board and a side to move, or a row holds
    /// other than `b`, `w` and counts, or more than [`MAX_COLS`] squares;
    /// [`RaggedRows`](SetupError::RaggedRows) when rows differ in length;
    /// [`Size`](SetupError::Size) when the board is not a supported size.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unreadable = || SetupError::Unreadable(super::quote::shorten(s));
        let mut parts = s.split_whitespace();
        let board = parts.next().ok_or_else(unreadable)?;
        let turn = parts
            .next()
            .ok_or_else(unreadable)?
            .parse::<Color>()
            .map_err(|_| unreadable())?;
        if parts.next().is_some() {
            return Err(unreadable());
        }
        let mut rows = 0;
        let mut cols = None;
        let mut ragged = false;
        for row in board.split('/') {
            let len = read_row(row, |_, _| {}).ok_or_else(unreadable)?;
            ragged |= *cols.get_or_insert(len) != len;
            rows += 1;
        }
        if ragged {
            return Err(SetupError::RaggedRows);
        }
        let size = BoardSize::new(cols.unwrap_or(0) as u32, rows)?;
        let mut setup = Setup {
            size,
            black: Vec::new(),
            white: Vec::new(),
            turn,
        };
        for (i, line) in board.split('/').enumerate() {
            let row = (rows as usize - 1 - i) as u8;
            read_row(line, |col, color| {
                if let Some(sq) = size.square(col as u8, row) {
                    match color {
                        Color::Black => setup.black.push(sq),
                        Color::White => setup.white.push(sq),
                    }
                }
            });
        }
        Ok(setup)
    }
}

/// Reads one row of a written board (`b`, `w`, and counts of empty squares from 1 to 10),
/// calling `piece` with the column and colour of each piece; its length, or `None` if it is
/// not a row of at most [`MAX_COLS`] squares.
fn read_row(row: &str, mut piece: impl FnMut(usize, Color)) -> Option<usize> {
    let mut len = 0;
    let mut chars = row.bytes().peekable();
    while let Some(c) = chars.next() {
        match c {
            b'b' | b'B' => {
                piece(len, Color::Black);
                len += 1;
            }
            b'w' | b'W' => {
                piece(len, Color::White);
                len += 1;
            }
            b'1'..=b'9' => {
                let mut n = usize::from(c - b'0');
                if n == 1 && chars.peek() == Some(&b'0') {
                    chars.next();
                    n = 10;
                }
                len += n;
            }
            _ => return None,
        }
        if len > MAX_COLS as usize {
            return None;
        }
    }
    Some(len)
}

impl Position {
    /// This position in the text form [`Setup`] reads.
    pub fn setup(&self) -> Setup {
        Setup {
            size: self.size(),
            black: self.pieces(Color::Black).collect(),
            white: self.pieces(Color::White).collect(),
            turn: self.turn(),
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Counts of empty squares run from 1 to 10.
        fn empties(f: &mut fmt::Formatter<'_>, n: u8) -> fmt::Result {
            match n {
                0 => Ok(()),
                10 => f.write_str("10"),
                n => f.write_char(char::from(b'0' + n)),
            }
        }
        for row in (0..self.size().rows()).rev() {
            let mut empty = 0;
            for col in 0..self.size().cols() {
                let piece = self
                    .size()
                    .square(col, row)
                    .and_then(|sq| self.piece_at(sq));
                match piece {
                    None => empty += 1,
                    Some(c) => {
                        empties(f, empty)?;
                        empty = 0;
                        f.write_char(if c == Color::Black { 'b' } else { 'w' })?;
                    }
                }
            }
            empties(f, empty)?;
            if row > 0 {
                f.write_char('/')?;
            }
        }
        f.write_str(if self.turn() == Color::Black {
            " b"
        } else {
            " w"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setups_round_trip_and_impossible_ones_are_refused() {
        let start = Position::new(BoardSize::new(5, 5).unwrap());
        assert_eq!(start.to_string(), "bbbbb/bbbbb/5/wwwww/wwwww b");
        assert_eq!("bbbbb/bbbbb/5/wwwww/wwwww b".parse::<Position>(), Ok(start));
        let ten: Position = "10/b9/10/10/10/10/10/10/10/9w w".parse().unwrap();
        assert_eq!(ten.size(), BoardSize::new(10, 10).unwrap());
        assert_eq!(ten.to_string().parse::<Position>(), Ok(ten));
        assert!("bbb/3/3/3/www b".parse::<Position>().is_ok());
        assert_eq!(
            "bbb/3/3/3/3 b".parse::<Position>(),
            Err(SetupError::MoverCaptured(Color::White))
        );
        assert_eq!(
            "3/3/3/w2/b2 b".parse::<Position>(),
            Err(SetupError::BreakthroughOutOfTurn(Color::Black))
        );
        assert_eq!(
            "w2/3/3/3/b2 b".parse::<Position>(),
            Err(SetupError::BothBrokeThrough)
        );
        assert_eq!(
            "bbb/3/3/3/ww w".parse::<Position>(),
            Err(SetupError::RaggedRows)
        );
        assert!("bbbb/bbbb/bbbb/4/4/wwww w".parse::<Position>().is_err());
    }
}
