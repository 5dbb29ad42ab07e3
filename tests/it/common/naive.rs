//! A deliberately simple Breakthrough move generator: a grid of cells and the rules spelled out
//! one by one. Slow and obviously right; the fast bitboard generator is checked against it.

use breakthrough_bot::rules::{BoardSize, Color, Position};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Naive {
    pub cols: usize,
    pub rows: usize,
    /// `cells[row][col]`, row 0 = row 1 of the board (White's side).
    pub cells: Vec<Vec<Option<Color>>>,
    pub turn: Color,
}

/// A move as plain coordinates: (from col, from row, to col, to row).
pub type NaiveMove = (usize, usize, usize, usize);

impl Naive {
    /// Reads a position through the library's public square-by-square view only.
    pub fn from_position(p: &Position) -> Naive {
        let size = p.size();
        let (cols, rows) = (size.cols() as usize, size.rows() as usize);
        let mut cells = vec![vec![None; cols]; rows];
        for (row, line) in cells.iter_mut().enumerate() {
            for (col, cell) in line.iter_mut().enumerate() {
                *cell = size
                    .square(col as u8, row as u8)
                    .and_then(|sq| p.piece_at(sq));
            }
        }
        Naive {
            cols,
            rows,
            cells,
            turn: p.turn(),
        }
    }

    /// The start position, built from the rules' description, not from the library.
    pub fn start(size: BoardSize) -> Naive {
        let (cols, rows) = (size.cols() as usize, size.rows() as usize);
        let mut cells = vec![vec![None; cols]; rows];
        for (row, line) in cells.iter_mut().enumerate() {
            let fill = match row {
                0 | 1 => Some(Color::White),
                r if r + 2 >= rows => Some(Color::Black),
                _ => None,
            };
            line.fill(fill);
        }
        Naive {
            cols,
            rows,
            cells,
            turn: Color::Black,
        }
    }

    fn count(&self, color: Color) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|c| **c == Some(color))
            .count()
    }

    /// Is the game over: a piece on its far row, or a side with no pieces left?
    /// (A side with pieces but no move is caught by `moves()` being empty.)
    pub fn is_over(&self) -> bool {
        let black_home = self.cells[0].contains(&Some(Color::Black));
        let white_home = self.cells[self.rows - 1].contains(&Some(Color::White));
        black_home || white_home || self.count(Color::Black) == 0 || self.count(Color::White) == 0
    }

    pub fn moves(&self) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        if self.is_over() {
            return out;
        }
        let forward: isize = if self.turn == Color::White { 1 } else { -1 };
        for row in 0..self.rows {
            for col in 0..self.cols {
                if self.cells[row][col] != Some(self.turn) {
                    continue;
                }
                let to_row = row as isize + forward;
                if to_row < 0 || to_row >= self.rows as isize {
                    continue;
                }
                let to_row = to_row as usize;
                for side_step in [-1isize, 0, 1] {
                    let to_col = col as isize + side_step;
                    if to_col < 0 || to_col >= self.cols as isize {
                        continue;
                    }
                    let to_col = to_col as usize;
                    let target = self.cells[to_row][to_col];
                    let legal = match target {
                        None => true,
                        Some(c) if c == self.turn => false,
                        Some(_) => side_step != 0,
                    };
                    if legal {
                        out.push((col, row, to_col, to_row));
                    }
                }
            }
        }
        out
    }

    pub fn play(&self, (fc, fr, tc, tr): NaiveMove) -> Naive {
        let mut next = self.clone();
        next.cells[tr][tc] = next.cells[fr][fc].take();
        next.turn = self.turn.opposite();
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }
}
