//! Positions, legality, and move generation for every board size.

use super::bits::{BitIter, Bits};
use super::color::Color;
use super::geometry::Geometry;
use super::moves::{Move, MoveList};
use super::outcome::{Outcome, WinReason};
use super::size::{BoardSize, Square};

/// Why a move cannot be played in a position. The messages speak to the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("{square} is off the board: this board is {size} (columns a to {last_col}, rows 1 to {rows})", last_col = (b'a' + size.cols() - 1) as char, rows = size.rows())]
    OffBoard { square: String, size: BoardSize },
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    #[error("the piece on {square} is not yours: {turn} is to move")]
    NotYourPiece { square: Square, turn: Color },
    #[error("pieces only move forward")]
    NotForward,
    #[error("a piece moves one square at a time")]
    TooFar,
    #[error("{0} is taken by your own piece")]
    OwnPiece(Square),
    #[error("straight moves cannot capture: {0} is blocked")]
    StraightCapture(Square),
    #[error("there is nothing to capture on {to}: write {from}-{to}")]
    NothingToCapture { from: Square, to: Square },
    #[error("no piece of yours can move to {0}")]
    NoMoveTo(Square),
    #[error("more than one piece can move to {square}: write {}", or_list(.options))]
    Ambiguous { square: Square, options: Vec<Move> },
}

/// `a4-b3 or c4-b3`.
fn or_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" or ")
}

/// A legal Breakthrough position: the board, its pieces, and the side to move.
///
/// Positions come from [`Position::new`] and [`Position::play`], or from a checked
/// [`Setup`](super::Setup), so they never hold an impossible state.
///
/// ```
/// use breakthrough_bot::rules::{BoardSize, Color, Position};
/// let start = Position::new(BoardSize::DEFAULT);
/// assert_eq!(start.turn(), Color::Black);
/// assert_eq!(start.legal_moves().len(), 22);
/// assert_eq!(start.perft(3), 11132);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    size: BoardSize,
    black: u128,
    white: u128,
    turn: Color,
}

impl Position {
    /// The start position: White on rows 1 and 2, Black on the top two rows, Black to move.
    pub fn new(size: BoardSize) -> Position {
        let g = size.geometry();
        Position {
            size,
            black: g.black_start,
            white: g.white_start,
            turn: Color::Black,
        }
    }

    /// A position from its parts, unchecked: only for callers that have checked them.
    pub(super) const fn from_parts(
        size: BoardSize,
        black: u128,
        white: u128,
        turn: Color,
    ) -> Position {
        Position {
            size,
            black,
            white,
            turn,
        }
    }

    pub const fn size(&self) -> BoardSize {
        self.size
    }

    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The colour of the piece on `square`, if any (none for squares off this board).
    pub fn piece_at(&self, square: Square) -> Option<Color> {
        if !self.size.contains(square) {
            return None;
        }
        let bit = 1u128 << self.size.index(square);
        if self.black & bit != 0 {
            Some(Color::Black)
        } else if self.white & bit != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// How many pieces `color` has.
    pub fn count(&self, color: Color) -> u32 {
        self.bits(color).count_ones()
    }

    /// The squares of `color`'s pieces, row 1 first.
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        let size = self.size;
        BitIter(self.bits(color)).map(move |i| size.square_at(i))
    }

    /// The bitboards of Black and White (bit `row * cols + col`), for the engine.
    pub(crate) const fn raw(&self) -> (u128, u128) {
        (self.black, self.white)
    }

    const fn bits(&self, color: Color) -> u128 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Whether the game is over and, if so, who won and why.
    pub fn outcome(&self) -> Option<Outcome> {
        let g = self.size.geometry();
        let won = |winner, reason| Some(Outcome { winner, reason });
        if self.black & g.first_row != 0 {
            return won(Color::Black, WinReason::Breakthrough);
        }
        if self.white & g.last_row != 0 {
            return won(Color::White, WinReason::Breakthrough);
        }
        if self.white == 0 {
            return won(Color::Black, WinReason::AllCaptured);
        }
        if self.black == 0 {
            return won(Color::White, WinReason::AllCaptured);
        }
        let (own, opp) = self.own_opp();
        let any_move = match self.turn {
            Color::White => count_moves::<WhiteSide, u128>(g, own, opp) != 0,
            Color::Black => count_moves::<BlackSide, u128>(g, own, opp) != 0,
        };
        if any_move {
            None
        } else {
            won(self.turn.opposite(), WinReason::NoMoves)
        }
    }

    /// The side to move's pieces and the other side's.
    pub(super) const fn own_opp(&self) -> (u128, u128) {
        match self.turn {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        }
    }

    /// Every legal move of the side to move (none once the game is over), from-square order.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.outcome().is_some() {
            return list;
        }
        let g = self.size.geometry();
        let (own, opp) = self.own_opp();
        match self.turn {
            Color::White => self.push_moves::<WhiteSide>(g, own, opp, &mut list),
            Color::Black => self.push_moves::<BlackSide>(g, own, opp, &mut list),
        }
        list.sort_unstable_by_key(|m| (m.from().col(), m.from().row(), m.to().col()));
        list
    }

    fn push_moves<S: Side>(&self, m: &Geometry, own: u128, opp: u128, list: &mut MoveList) {
        let empty = m.board & !(own | opp);
        let size = self.size;
        for (targets, back) in S::targets(m, own) {
            let mut t = targets & (empty | if back.diagonal { opp } else { 0 });
            while t != 0 {
                let to = t.trailing_zeros();
                t &= t - 1;
                let from = back.apply(to, S::WHITE);
                // ArrayVec capacity is the proven maximum; a full list cannot occur.
                let _ = list.try_push(Move::new(
                    size.square_at(from),
                    size.square_at(to),
                    opp & (1u128 << to) != 0,
                ));
            }
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv.from(), mv.to(), Some(mv.is_capture()))
            .is_ok()
    }

    /// Plays `mv`, or says why it is illegal.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] with the reason when `mv` is not a legal move here, as [`Position::check`]
    /// finds it; a capture flag that does not match the board is refused too.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        let checked = self.check(mv.from(), mv.to(), Some(mv.is_capture()))?;
        Ok(self.play_unchecked(checked))
    }

    /// Finds the legal move from `from` to `to`, or says why there is none.
    /// `claims_capture` is what the player wrote: `Some(true)` for `x`, `Some(false)` for a plain
    /// move, `None` when the notation said nothing. A plain move onto an enemy piece is accepted.
    ///
    /// # Errors
    ///
    /// The first reason that applies: [`IllegalMove::GameOver`] once the game is over,
    /// [`OffBoard`](IllegalMove::OffBoard) for a square off this board,
    /// [`NoPiece`](IllegalMove::NoPiece) or [`NotYourPiece`](IllegalMove::NotYourPiece) for the
    /// square moved from, [`NotForward`](IllegalMove::NotForward) or
    /// [`TooFar`](IllegalMove::TooFar) for the step, [`OwnPiece`](IllegalMove::OwnPiece) or
    /// [`StraightCapture`](IllegalMove::StraightCapture) for a blocked target, and
    /// [`NothingToCapture`](IllegalMove::NothingToCapture) when `claims_capture` is `Some(true)`
    /// and the target is empty.
    pub fn check(
        &self,
        from: Square,
        to: Square,
        claims_capture: Option<bool>,
    ) -> Result<Move, IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        for sq in [from, to] {
            if !self.size.contains(sq) {
                return Err(IllegalMove::OffBoard {
                    square: sq.to_string(),
                    size: self.size,
                });
            }
        }
        match self.piece_at(from) {
            None => return Err(IllegalMove::NoPiece(from)),
            Some(c) if c != self.turn => {
                return Err(IllegalMove::NotYourPiece {
                    square: from,
                    turn: self.turn,
                })
            }
            Some(_) => {}
        }
        let forward = match self.turn {
            Color::White => to.row() as i32 - from.row() as i32,
            Color::Black => from.row() as i32 - to.row() as i32,
        };
        let sideways = (to.col() as i32 - from.col() as i32).abs();
        if forward <= 0 {
            return Err(IllegalMove::NotForward);
        }
        if forward > 1 || sideways > 1 {
            return Err(IllegalMove::TooFar);
        }
        let capture = match self.piece_at(to) {
            Some(c) if c == self.turn => return Err(IllegalMove::OwnPiece(to)),
            Some(_) if sideways == 0 => return Err(IllegalMove::StraightCapture(to)),
            Some(_) => true,
            None => false,
        };
        if claims_capture == Some(true) && !capture {
            return Err(IllegalMove::NothingToCapture { from, to });
        }
        Ok(Move::new(from, to, capture))
    }

    fn play_unchecked(&self, mv: Move) -> Position {
        let from = 1u128 << self.size.index(mv.from());
        let to = 1u128 << self.size.index(mv.to());
        let mut next = *self;
        match self.turn {
            Color::White => {
                next.white ^= from | to;
                next.black &= !to;
            }
            Color::Black => {
                next.black ^= from | to;
                next.white &= !to;
            }
        }
        next.turn = self.turn.opposite();
        next
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::new(BoardSize::DEFAULT)
    }
}

/// How to step back from a move's target to its origin.
#[derive(Clone, Copy)]
pub(super) struct Back {
    /// Bit distance between origin and target.
    pub delta: u32,
    pub diagonal: bool,
}

impl Back {
    #[inline(always)]
    pub fn apply(self, to: u32, white: bool) -> u32 {
        if white {
            to - self.delta
        } else {
            to + self.delta
        }
    }
}

/// The side to move, as a type, so the move generator compiles once per side with its shifts fixed.
pub(super) trait Side {
    type Other: Side;
    const WHITE: bool;

    /// Squares reached straight ahead, diagonally towards column `a`, and towards the last column,
    /// with the distance back to the origin.
    #[inline(always)]
    fn targets<B: Bits>(m: &Geometry<B>, own: B) -> [(B, Back); 3] {
        let c = m.cols;
        let left = own & m.not_first_col;
        let right = own & m.not_last_col;
        if Self::WHITE {
            [
                (
                    (own << c) & m.board,
                    Back {
                        delta: c,
                        diagonal: false,
                    },
                ),
                (
                    (left << (c - 1)) & m.board,
                    Back {
                        delta: c - 1,
                        diagonal: true,
                    },
                ),
                (
                    (right << (c + 1)) & m.board,
                    Back {
                        delta: c + 1,
                        diagonal: true,
                    },
                ),
            ]
        } else {
            [
                (
                    own >> c,
                    Back {
                        delta: c,
                        diagonal: false,
                    },
                ),
                (
                    left >> (c + 1),
                    Back {
                        delta: c + 1,
                        diagonal: true,
                    },
                ),
                (
                    right >> (c - 1),
                    Back {
                        delta: c - 1,
                        diagonal: true,
                    },
                ),
            ]
        }
    }

    /// The row where this side's pieces win.
    #[inline(always)]
    fn goal<B: Bits>(m: &Geometry<B>) -> B {
        if Self::WHITE {
            m.last_row
        } else {
            m.first_row
        }
    }
}

pub(super) struct WhiteSide;
pub(super) struct BlackSide;

impl Side for WhiteSide {
    type Other = BlackSide;
    const WHITE: bool = true;
}

impl Side for BlackSide {
    type Other = WhiteSide;
    const WHITE: bool = false;
}

/// Number of legal moves for the side owning `own`, in bulk.
#[inline(always)]
pub(super) fn count_moves<S: Side, B: Bits>(m: &Geometry<B>, own: B, opp: B) -> u32 {
    let [straight, left, right] = S::targets(m, own);
    let empty = m.board & !(own | opp);
    (straight.0 & empty).ones() + (left.0 & !own).ones() + (right.0 & !own).ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(size: BoardSize, name: &str) -> Square {
        let b = name.as_bytes();
        size.square(b[0] - b'a', name[1..].parse::<u8>().unwrap() - 1)
            .unwrap()
    }

    #[test]
    fn each_refusal_names_its_reason() {
        let size = BoardSize::DEFAULT;
        let p = Position::new(size);
        let check =
            |from: &str, to: &str, x: Option<bool>| p.check(sq(size, from), sq(size, to), x);
        assert_eq!(
            check("e4", "e3", None),
            Err(IllegalMove::NoPiece(sq(size, "e4")))
        );
        assert!(matches!(
            check("e2", "e3", None),
            Err(IllegalMove::NotYourPiece { .. })
        ));
        assert_eq!(check("e7", "e8", None), Err(IllegalMove::NotForward));
        assert_eq!(check("e7", "d7", None), Err(IllegalMove::NotForward));
        assert_eq!(check("e7", "e5", None), Err(IllegalMove::TooFar));
        assert_eq!(
            check("e8", "e7", None),
            Err(IllegalMove::OwnPiece(sq(size, "e7")))
        );
        assert!(matches!(
            check("e7", "e6", Some(true)),
            Err(IllegalMove::NothingToCapture { .. })
        ));
        let mv = check("e7", "e6", None).unwrap();
        assert_eq!(mv.to_string(), "e7-e6");
        assert!(p.is_legal(mv));
    }

    #[test]
    fn outcomes_cover_each_way_to_win() {
        let w: Position = "w2/3/3/b2/3 b".parse().unwrap();
        assert_eq!(
            w.outcome(),
            Some(Outcome {
                winner: Color::White,
                reason: WinReason::Breakthrough
            })
        );
        let c: Position = "3/3/3/b2/3 w".parse().unwrap();
        assert_eq!(
            c.outcome(),
            Some(Outcome {
                winner: Color::Black,
                reason: WinReason::AllCaptured
            })
        );
        // White's a1 is blocked straight ahead by a2 but steps diagonally to b2.
        let blocked: Position = "b2/b2/3/b2/w2 w".parse().unwrap();
        assert_eq!(
            blocked
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>(),
            ["a1-b2"]
        );
        assert_eq!(blocked.outcome(), None);
    }
}
