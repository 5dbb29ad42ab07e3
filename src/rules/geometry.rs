//! The bit masks of each board size, worked out at compile time: one table shared by the rules'
//! move generator and the engine.

use super::bits::Bits;
use super::color::Color;
use super::size::{BoardSize, MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS};

/// Bit masks of one board size in one bitboard width (`u128` unless a `u64` is narrowed from it
/// for a board that fits). Bit `row * cols + col` stands for a square. Sides are indexed
/// `[black, white]`, as [`Color::index`] gives them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry<B = u128> {
    pub size: BoardSize,
    pub cols: u32,
    pub rows: u32,
    pub board: B,
    pub not_first_col: B,
    pub not_last_col: B,
    /// Row 1, where Black wins.
    pub first_row: B,
    /// The top row, where White wins.
    pub last_row: B,
    pub white_start: B,
    pub black_start: B,
    /// `rows_of[side][r]`: the squares `r` rows ahead of `side`'s home row.
    pub rows_of: [[B; MAX_ROWS as usize]; 2],
}

const BLACK: usize = Color::Black.index();
const WHITE: usize = Color::White.index();

impl BoardSize {
    /// The masks of this size.
    pub(crate) fn geometry(self) -> &'static Geometry {
        &GEOMETRIES[(self.rows() - MIN_ROWS) as usize][(self.cols() - MIN_COLS) as usize]
    }
}

impl Geometry {
    /// The same masks in a narrower word; only for boards that fit it.
    #[inline]
    pub fn narrow<B: Bits>(&self) -> Geometry<B> {
        Geometry {
            size: self.size,
            cols: self.cols,
            rows: self.rows,
            board: B::narrow(self.board),
            not_first_col: B::narrow(self.not_first_col),
            not_last_col: B::narrow(self.not_last_col),
            first_row: B::narrow(self.first_row),
            last_row: B::narrow(self.last_row),
            white_start: B::narrow(self.white_start),
            black_start: B::narrow(self.black_start),
            rows_of: self.rows_of.map(|side| side.map(B::narrow)),
        }
    }

    /// The row where `side` wins.
    #[inline(always)]
    pub fn goal(&self, side: usize) -> u128 {
        self.rows_of[side][self.rows as usize - 1]
    }

    /// The row one step short of `side`'s goal: a piece there wins on its next move.
    #[inline(always)]
    pub fn pre_goal(&self, side: usize) -> u128 {
        self.rows_of[side][self.rows as usize - 2]
    }

    /// Squares `side`'s pieces in `b` attack (diagonally forward).
    #[inline(always)]
    pub fn attacks(&self, side: usize, b: u128) -> u128 {
        let c = self.cols;
        if side == WHITE {
            (((b & self.not_first_col) << (c - 1)) | ((b & self.not_last_col) << (c + 1)))
                & self.board
        } else {
            ((b & self.not_first_col) >> (c + 1)) | ((b & self.not_last_col) >> (c - 1))
        }
    }

    /// How many rows ahead of `side`'s home row the square of bit `index` lies.
    #[inline(always)]
    pub fn advance(&self, side: usize, index: u8) -> usize {
        let row = u32::from(index) / self.cols;
        if side == WHITE {
            row as usize
        } else {
            (self.rows - 1 - row) as usize
        }
    }
}

const fn geometry(cols: u32, rows: u32) -> Geometry {
    let Some(size) = BoardSize::supported(cols, rows) else {
        panic!("the table holds supported sizes only")
    };
    let squares = cols * rows;
    let board = if squares == 128 {
        u128::MAX
    } else {
        (1u128 << squares) - 1
    };
    let row_mask = (1u128 << cols) - 1;
    let mut first_col = 0u128;
    let mut last_col = 0u128;
    let mut rows_of = [[0u128; MAX_ROWS as usize]; 2];
    let mut r = 0;
    while r < rows {
        first_col |= 1u128 << (r * cols);
        last_col |= 1u128 << (r * cols + cols - 1);
        let row = row_mask << (r * cols);
        rows_of[WHITE][r as usize] = row;
        rows_of[BLACK][(rows - 1 - r) as usize] = row;
        r += 1;
    }
    let last_row = row_mask << ((rows - 1) * cols);
    Geometry {
        size,
        cols,
        rows,
        board,
        not_first_col: board & !first_col,
        not_last_col: board & !last_col,
        first_row: row_mask,
        last_row,
        white_start: row_mask | (row_mask << cols),
        black_start: last_row | (last_row >> cols),
        rows_of,
    }
}

const ROW_KINDS: usize = (MAX_ROWS - MIN_ROWS + 1) as usize;
const COL_KINDS: usize = (MAX_COLS - MIN_COLS + 1) as usize;

static GEOMETRIES: [[Geometry; COL_KINDS]; ROW_KINDS] = {
    const fn row(rows: u32) -> [Geometry; COL_KINDS] {
        [
            geometry(3, rows),
            geometry(4, rows),
            geometry(5, rows),
            geometry(6, rows),
            geometry(7, rows),
            geometry(8, rows),
            geometry(9, rows),
            geometry(10, rows),
        ]
    }
    [row(5), row(6), row(7), row(8), row(9), row(10)]
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_geometry_matches_its_size() {
        assert_eq!(BoardSize::all().count(), 48);
        for size in BoardSize::all() {
            let g = size.geometry();
            let (cols, rows) = (u32::from(size.cols()), u32::from(size.rows()));
            assert_eq!((g.size, g.cols, g.rows), (size, cols, rows));
            assert_eq!(g.board.count_ones(), u32::from(size.squares()));
            assert_eq!(g.white_start.count_ones(), 2 * cols);
            assert_eq!(g.black_start.count_ones(), 2 * cols);
            assert_eq!(g.white_start & g.black_start, 0);
            assert_eq!(g.goal(BLACK), g.first_row);
            assert_eq!(g.goal(WHITE), g.last_row);
            let rows_of = |side: usize| g.rows_of[side][..rows as usize].iter();
            assert_eq!(rows_of(WHITE).fold(0, |a, r| a | r), g.board);
            assert!(rows_of(BLACK).eq(rows_of(WHITE).rev()));
            let narrow = g.narrow::<u64>();
            if size.squares() <= 64 {
                assert_eq!(u128::from(narrow.board), g.board);
                assert_eq!(u128::from(narrow.rows_of[BLACK][1]), g.rows_of[BLACK][1]);
            }
        }
    }
}
