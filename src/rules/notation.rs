//! Move notation, read in two steps: syntax ([`MoveText`]), then legality against a position.
//!
//! ```
//! use breakthrough_bot::rules::{MoveText, Position};
//! let start = Position::default();
//! let text: MoveText = " E7 E6 ".parse().unwrap();
//! let mv = text.resolve(&start).unwrap();
//! assert_eq!(mv.to_string(), "e7-e6");
//! assert!("e7xe6".parse::<MoveText>().unwrap().resolve(&start).is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::moves::Move;
use super::position::{IllegalMove, Position};
use super::quote::shorten;
use super::size::{BoardSize, Square};

/// A square as written: a column letter and a row number, not yet checked against a board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SquareText {
    /// Zero-based column, 0 = `a`, up to 25 = `z`.
    col: u8,
    /// Row number as written, 1 to 99.
    row: u8,
}

impl SquareText {
    /// The square this names on a board of `size`.
    ///
    /// # Errors
    ///
    /// [`IllegalMove::OffBoard`] when the square is not on a board of `size`.
    pub fn on(self, size: BoardSize) -> Result<Square, IllegalMove> {
        self.row
            .checked_sub(1)
            .and_then(|row| size.square(self.col, row))
            .ok_or_else(|| IllegalMove::OffBoard {
                square: self.to_string(),
                size,
            })
    }
}

impl fmt::Display for SquareText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row)
    }
}

/// A move as written, before it meets a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveText {
    /// `e2-e3`, `e2e3`, `e2 e3`, `d4xe5`. `capture` is `Some(true)` for `x`, `Some(false)` for `-`,
    /// `None` when nothing stood between the squares.
    Full {
        from: SquareText,
        to: SquareText,
        capture: Option<bool>,
    },
    /// A bare destination, `e3`: fine when exactly one legal move goes there.
    Destination(SquareText),
}

/// Text that is not a move at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read `{0}` as a move: write it like e2-e3, or d4xe5 for a capture")]
pub struct ParseMoveError(pub String);

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

impl Reader<'_> {
    fn skip_spaces(&mut self) -> bool {
        let mut skipped = false;
        while self.chars.next_if(|c| c.is_whitespace()).is_some() {
            skipped = true;
        }
        skipped
    }

    fn square(&mut self) -> Option<SquareText> {
        let letter = self.chars.next_if(|c| c.is_ascii_alphabetic())?;
        let col = letter.to_ascii_lowercase() as u8 - b'a';
        let mut row: u32 = 0;
        let mut digits = 0;
        while let Some(d) = self.chars.next_if(|c| c.is_ascii_digit()) {
            row = row * 10 + d.to_digit(10)?;
            digits += 1;
            if digits > 2 {
                return None;
            }
        }
        if digits == 0 {
            return None;
        }
        Some(SquareText {
            col,
            row: row as u8,
        })
    }
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    /// Reads a move in any accepted spelling; legality is [`MoveText::resolve`]'s to say.
    ///
    /// # Errors
    ///
    /// [`ParseMoveError`] when the text is not a square, or two squares with at most one of
    /// `-`, `x` (or their look-alikes) and spaces between them.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = || ParseMoveError(shorten(s));
        let mut r = Reader {
            chars: s.trim().chars().peekable(),
        };
        let from = r.square().ok_or_else(fail)?;
        let spaced = r.skip_spaces();
        if r.chars.peek().is_none() {
            return if spaced {
                Err(fail())
            } else {
                Ok(MoveText::Destination(from))
            };
        }
        let capture = match r.chars.peek() {
            Some('x' | 'X' | '×' | ':') => Some(true),
            Some('-' | '–' | '—') => Some(false),
            _ => None,
        };
        if capture.is_some() {
            r.chars.next();
            r.skip_spaces();
        } else if !spaced && !r.chars.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            return Err(fail());
        }
        let to = r.square().ok_or_else(fail)?;
        if r.chars.next().is_some() {
            return Err(fail());
        }
        Ok(MoveText::Full { from, to, capture })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::Full { from, to, capture } => {
                let sep = if *capture == Some(true) { "x" } else { "-" };
                write!(f, "{from}{sep}{to}")
            }
            MoveText::Destination(to) => write!(f, "{to}"),
        }
    }
}

impl MoveText {
    /// User text cut to a length fit to quote back in a message.
    pub fn quote(text: &str) -> String {
        shorten(text)
    }

    /// The legal move this text names in `position`.
    ///
    /// # Errors
    ///
    /// [`IllegalMove::GameOver`] once the game is over; [`IllegalMove::OffBoard`] for a square
    /// off the board; for a full move, every refusal of [`Position::check`]; for a bare
    /// destination, [`IllegalMove::NoMoveTo`] when no legal move goes there and
    /// [`IllegalMove::Ambiguous`] when more than one does.
    pub fn resolve(&self, position: &Position) -> Result<Move, IllegalMove> {
        if position.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let size = position.size();
        match *self {
            MoveText::Full { from, to, capture } => {
                position.check(from.on(size)?, to.on(size)?, capture)
            }
            MoveText::Destination(to) => {
                let to = to.on(size)?;
                let moves = position.legal_moves();
                let mut found = moves.iter().filter(|m| m.to() == to);
                match (found.next(), found.next()) {
                    (None, _) => Err(IllegalMove::NoMoveTo(to)),
                    (Some(&m), None) => Ok(m),
                    (Some(_), Some(_)) => Err(IllegalMove::Ambiguous {
                        square: to,
                        options: moves.iter().filter(|m| m.to() == to).copied().collect(),
                    }),
                }
            }
        }
    }
}

/// Why text could not be played as a move: it is not a move, or not a legal one here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

impl Position {
    /// Reads `text` and finds the legal move it names.
    ///
    /// # Errors
    ///
    /// [`MoveError::Parse`] when `text` is not a move at all (see [`MoveText::from_str`]);
    /// [`MoveError::Illegal`] when it is not a legal one here (see [`MoveText::resolve`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Ok(text.parse::<MoveText>()?.resolve(self)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> String {
        s.parse::<MoveText>()
            .map(|m| m.to_string())
            .unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn reads_every_accepted_spelling() {
        for s in ["e2-e3", "E2-E3", " e2e3 ", "e2 e3", "e2 - e3", "e2–e3"] {
            assert_eq!(read(s), "e2-e3", "{s:?}");
        }
        for s in ["d4xe5", "D4XE5", "d4 x e5", "d4×e5"] {
            assert_eq!(read(s), "d4xe5", "{s:?}");
        }
        assert_eq!(read("j10-j9"), "j10-j9");
        assert_eq!(read("e3"), "e3");
    }

    #[test]
    fn refuses_what_is_not_a_move() {
        for s in [
            "", " ", "e", "2e", "e2-", "e2--e3", "e2-e3-e4", "e2 e3 x", "e2e", "e100-e3", "ee2",
            "é2-e3", "e2xx e3",
        ] {
            let r = s.parse::<MoveText>();
            assert!(r.is_err(), "{s:?} read as {r:?}");
        }
        let long = "a".repeat(10_000);
        let msg = long.parse::<MoveText>().unwrap_err().to_string();
        assert!(msg.len() < 200, "{msg}");
    }

    #[test]
    fn legality_reasons_reach_the_player() {
        let p = Position::default();
        let err = |s: &str| p.parse_move(s).unwrap_err().to_string();
        assert_eq!(
            err("k7-k6"),
            "k7 is off the board: this board is 8x8 (columns a to h, rows 1 to 8)"
        );
        assert_eq!(
            err("e9-e8"),
            "e9 is off the board: this board is 8x8 (columns a to h, rows 1 to 8)"
        );
        assert_eq!(
            err("e0-e1"),
            "e0 is off the board: this board is 8x8 (columns a to h, rows 1 to 8)"
        );
        assert_eq!(
            err("e2-e3"),
            "the piece on e2 is not yours: black is to move"
        );
        assert_eq!(
            err("e7xe6"),
            "there is nothing to capture on e6: write e7-e6"
        );
        assert_eq!(err("e5"), "no piece of yours can move to e5");
        assert_eq!(
            err("e6"),
            "more than one piece can move to e6: write d7-e6 or e7-e6 or f7-e6"
        );
        let lone: Position = "3/b2/3/3/ww1 b".parse().unwrap();
        assert_eq!(lone.parse_move("b3").unwrap().to_string(), "a4-b3");
        assert_eq!(lone.parse_move("B3").unwrap().to_string(), "a4-b3");
    }
}
