//! Positions, moves, legality and the end of the game.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use arrayvec::ArrayVec;

use super::size::{BoardSize, Geometry, Square, MAX_COLS};

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
    /// [`Position::play`] checks every move it is given.
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
    #[error("more than one piece can move to {square}: write {options}")]
    Ambiguous { square: Square, options: String },
}

/// A legal Breakthrough position: the board, its pieces, and the side to move.
///
/// Positions come from [`Position::new`] and [`Position::play`], or from a checked
/// [`Setup`], so they never hold an impossible state.
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
        let m = Masks::<u128>::of(g);
        let any_move = match self.turn {
            Color::White => count_moves::<WhiteSide, u128>(&m, own, opp) != 0,
            Color::Black => count_moves::<BlackSide, u128>(&m, own, opp) != 0,
        };
        if any_move {
            None
        } else {
            won(self.turn.opposite(), WinReason::NoMoves)
        }
    }

    const fn own_opp(&self) -> (u128, u128) {
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
        let m = Masks::<u128>::of(self.size.geometry());
        let (own, opp) = self.own_opp();
        match self.turn {
            Color::White => self.push_moves::<WhiteSide>(&m, own, opp, &mut list),
            Color::Black => self.push_moves::<BlackSide>(&m, own, opp, &mut list),
        }
        list.sort_unstable_by_key(|m| (m.from.col(), m.from.row(), m.to.col()));
        list
    }

    fn push_moves<S: Side>(&self, m: &Masks<u128>, own: u128, opp: u128, list: &mut MoveList) {
        let empty = m.board & !(own | opp);
        let size = self.size;
        for (targets, back) in S::targets(m, own) {
            let mut t = targets & (empty | if back.diagonal { opp } else { 0 });
            while t != 0 {
                let to = t.trailing_zeros();
                t &= t - 1;
                let from = back.apply(to, S::WHITE);
                // ArrayVec capacity is the proven maximum; a full list cannot occur.
                let _ = list.try_push(Move {
                    from: size.square_at(from),
                    to: size.square_at(to),
                    capture: opp & (1u128 << to) != 0,
                });
            }
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv.from, mv.to, Some(mv.capture)).is_ok()
    }

    /// Plays `mv`, or says why it is illegal.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] with the reason when `mv` is not a legal move here, as [`Position::check`]
    /// finds it; a capture flag that does not match the board is refused too.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        let checked = self.check(mv.from, mv.to, Some(mv.capture))?;
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
        Ok(Move { from, to, capture })
    }

    fn play_unchecked(&self, mv: Move) -> Position {
        let from = 1u128 << self.size.index(mv.from);
        let to = 1u128 << self.size.index(mv.to);
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

    /// The number of move sequences of exactly `depth` plies from here. A sequence that ends the
    /// game early stops there and is not counted at a greater depth.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.outcome().is_some() {
            return 0;
        }
        let g = self.size.geometry();
        let (own, opp) = self.own_opp();
        if self.size.squares() <= 64 {
            perft_dispatch::<u64>(g, self.turn, own, opp, depth)
        } else {
            perft_dispatch::<u128>(g, self.turn, own, opp, depth)
        }
    }

    /// This position in the text form [`Setup`] reads.
    pub fn setup(&self) -> Setup {
        Setup {
            size: self.size,
            black: self.pieces(Color::Black).collect(),
            white: self.pieces(Color::White).collect(),
            turn: self.turn,
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::new(BoardSize::DEFAULT)
    }
}

/// Iterates the set bits of a bitboard, lowest first.
struct BitIter(u128);

impl Iterator for BitIter {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// How to step back from a move's target to its origin.
#[derive(Clone, Copy)]
struct Back {
    /// Bit distance between origin and target.
    delta: u32,
    diagonal: bool,
}

impl Back {
    #[inline(always)]
    fn apply(self, to: u32, white: bool) -> u32 {
        if white {
            to - self.delta
        } else {
            to + self.delta
        }
    }
}

/// A bitboard: `u64` serves boards of up to 64 squares (8x8 included) faster; `u128` serves all.
trait Bits:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    fn lowest(self) -> u32;
    fn without_lowest(self) -> Self;
    fn ones(self) -> u32;
    /// The low bits of a `u128` mask; callers only narrow masks of boards that fit.
    fn narrow(wide: u128) -> Self;
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn narrow(wide: u128) -> Self {
                wide as $t
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

/// The masks of one board size in one bitboard width.
#[derive(Clone, Copy)]
struct Masks<B> {
    cols: u32,
    board: B,
    not_first_col: B,
    not_last_col: B,
    first_row: B,
    last_row: B,
}

impl<B: Bits> Masks<B> {
    fn of(g: &Geometry) -> Masks<B> {
        Masks {
            cols: g.cols,
            board: B::narrow(g.board),
            not_first_col: B::narrow(g.not_first_col),
            not_last_col: B::narrow(g.not_last_col),
            first_row: B::narrow(g.first_row),
            last_row: B::narrow(g.last_row),
        }
    }
}

/// The side to move, as a type, so the move generator compiles once per side with its shifts fixed.
trait Side {
    type Other: Side;
    const WHITE: bool;

    /// Squares reached straight ahead, diagonally towards column `a`, and towards the last column,
    /// with the distance back to the origin.
    #[inline(always)]
    fn targets<B: Bits>(m: &Masks<B>, own: B) -> [(B, Back); 3] {
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
    fn goal<B: Bits>(m: &Masks<B>) -> B {
        if Self::WHITE {
            m.last_row
        } else {
            m.first_row
        }
    }
}

struct WhiteSide;
struct BlackSide;

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
fn count_moves<S: Side, B: Bits>(m: &Masks<B>, own: B, opp: B) -> u32 {
    let [straight, left, right] = S::targets(m, own);
    let empty = m.board & !(own | opp);
    (straight.0 & empty).ones() + (left.0 & !own).ones() + (right.0 & !own).ones()
}

/// Perft of a position that is not over, `depth >= 1`.
fn perft_from<S: Side, B: Bits>(m: &Masks<B>, own: B, opp: B, depth: u32) -> u64 {
    if depth == 1 {
        return count_moves::<S, B>(m, own, opp) as u64;
    }
    let empty = m.board & !(own | opp);
    // A move onto the goal row ends the game: it is no sequence of a greater depth.
    let open = !S::goal(m);
    let mut total = 0;
    for (targets, back) in S::targets(m, own) {
        let mut t = targets & open & if back.diagonal { !own } else { empty };
        while t != B::ZERO {
            let to_index = t.lowest();
            t = t.without_lowest();
            let to = B::ONE << to_index;
            let from = B::ONE << back.apply(to_index, S::WHITE);
            let opp_after = opp & !to;
            if opp_after != B::ZERO {
                total += perft_from::<S::Other, B>(m, opp_after, own ^ from ^ to, depth - 1);
            }
        }
    }
    total
}

fn perft_dispatch<B: Bits>(g: &Geometry, turn: Color, own: u128, opp: u128, depth: u32) -> u64 {
    let m = Masks::<B>::of(g);
    let (own, opp) = (B::narrow(own), B::narrow(opp));
    match turn {
        Color::White => perft_from::<WhiteSide, B>(&m, own, opp, depth),
        Color::Black => perft_from::<BlackSide, B>(&m, own, opp, depth),
    }
}

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
    Size(#[from] super::size::SizeError),
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
        Ok(Position {
            size,
            black,
            white,
            turn: s.turn,
        })
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
        for row in (0..self.size.rows()).rev() {
            let mut empty = 0;
            for col in 0..self.size.cols() {
                let piece = self.size.square(col, row).and_then(|sq| self.piece_at(sq));
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
        f.write_str(if self.turn == Color::Black {
            " b"
        } else {
            " w"
        })
    }
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
    fn perft_matches_the_reference_counts_at_low_depth() {
        let p = Position::new(BoardSize::DEFAULT);
        assert_eq!(
            (1..=4).map(|d| p.perft(d)).collect::<Vec<_>>(),
            [22, 484, 11132, 256036]
        );
        let p = Position::new(BoardSize::new(7, 7).unwrap());
        assert_eq!(
            (1..=4).map(|d| p.perft(d)).collect::<Vec<_>>(),
            [19, 361, 7220, 144251]
        );
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
