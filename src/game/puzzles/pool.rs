//! The shipped pools of puzzles: one file a board size, compiled in, read by [`Pool::parse`].
//!
//! One puzzle a line, `<setup> <first move> <plies>`: the position as [`Setup`] writes it (rows
//! from the top, then the side to move, which is the attacker), the one winning first move in the
//! game's notation, and the proven distance of the win in plies (odd, 3 to 11). Lines starting
//! with `#` are comments, blank lines are skipped:
//!
//! ```text
//! # 6x6 puzzles
//! 6/6/6/2b3/1ww3/6 w c2-c3 3
//! ```
//!
//! [`Setup`]: crate::rules::Setup

use crate::rules::{BoardSize, Move, MoveError, Position, SetupError};

/// The distances a puzzle may have, in plies: the generator's.
use crate::engine::puzzles::PUZZLE_PLIES as PLIES;

/// One puzzle of a pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolPuzzle {
    /// The position, the attacker to move.
    pub setup: Position,
    /// The one winning first move.
    pub solution: Move,
    /// The proven distance of the win.
    pub plies: u32,
}

/// The puzzles of one board size, in the order of their file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    pub size: BoardSize,
    pub puzzles: Vec<PoolPuzzle>,
}

/// A line of a pool that is no puzzle, with its number (from 1).
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct PoolError {
    pub line: usize,
    #[source]
    pub why: PoolLineError,
}

/// Why a line of a pool is no puzzle.
#[derive(Debug, thiserror::Error)]
pub enum PoolLineError {
    #[error("expected `<setup> <first move> <plies>`")]
    Fields,
    #[error("the position cannot be read")]
    Setup(#[source] SetupError),
    #[error("the position is {found}, not {size} as the pool")]
    Size { found: BoardSize, size: BoardSize },
    #[error("the game is already over in this position")]
    Over,
    #[error("the first move `{text}` is not a legal move here")]
    Solution {
        text: String,
        #[source]
        source: MoveError,
    },
    #[error("`{0}` is not a distance of 3 to 11 plies, odd")]
    Plies(String),
    #[error("the same position as line {0}")]
    Duplicate(usize),
}

/// The shipped pools' files, with their board sizes.
const SHIPPED: [(&str, &str); 3] = [
    ("6x6", include_str!("pool/6x6.txt")),
    ("7x7", include_str!("pool/7x7.txt")),
    ("8x8", include_str!("pool/8x8.txt")),
];

impl Pool {
    /// Reads the pool of `size` from `text`.
    ///
    /// # Errors
    ///
    /// The first line that is no puzzle of `size`, with its number and why: not three fields, a
    /// position that cannot be read, of another size or already won, a first move that is not
    /// legal there, a distance that is not odd in [`PLIES`], or a position given before.
    pub fn parse(size: BoardSize, text: &str) -> Result<Pool, PoolError> {
        let mut puzzles: Vec<(usize, PoolPuzzle)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let puzzle = parse_line(size, line).map_err(|why| PoolError { line: line_no, why })?;
            if let Some((first, _)) = puzzles.iter().find(|(_, p)| p.setup == puzzle.setup) {
                return Err(PoolError {
                    line: line_no,
                    why: PoolLineError::Duplicate(*first),
                });
            }
            puzzles.push((line_no, puzzle));
        }
        Ok(Pool {
            size,
            puzzles: puzzles.into_iter().map(|(_, p)| p).collect(),
        })
    }

    /// The pools the bot ships, one a board size.
    ///
    /// # Errors
    ///
    /// A shipped file that does not read ([`Pool::parse`]), with the size it is for: a fault of
    /// the build, which the tests catch first.
    pub fn shipped() -> Result<Vec<(Pool, &'static str)>, (BoardSize, PoolError)> {
        SHIPPED
            .iter()
            .filter_map(|(size, text)| Some((size.parse::<BoardSize>().ok()?, *text)))
            .map(|(size, text)| {
                Pool::parse(size, text)
                    .map(|pool| (pool, text))
                    .map_err(|e| (size, e))
            })
            .collect()
    }
}

/// A digest of a pool's text (64-bit FNV-1a, in hex), to tell whether it changed since it was
/// last loaded.
pub fn digest(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn parse_line(size: BoardSize, line: &str) -> Result<PoolPuzzle, PoolLineError> {
    // The setup holds one space (before the side to move): the other two fields come from the
    // right.
    let mut fields = line.rsplitn(3, char::is_whitespace);
    let (Some(plies), Some(solution), Some(setup)) = (fields.next(), fields.next(), fields.next())
    else {
        return Err(PoolLineError::Fields);
    };
    let setup: Position = setup.trim().parse().map_err(PoolLineError::Setup)?;
    if setup.size() != size {
        return Err(PoolLineError::Size {
            found: setup.size(),
            size,
        });
    }
    if setup.outcome().is_some() {
        return Err(PoolLineError::Over);
    }
    let solution = setup
        .parse_move(solution)
        .map_err(|source| PoolLineError::Solution {
            text: solution.to_string(),
            source,
        })?;
    let plies = plies
        .parse::<u32>()
        .ok()
        .filter(|n| PLIES.contains(n) && n % 2 == 1)
        .ok_or_else(|| PoolLineError::Plies(plies.to_string()))?;
    Ok(PoolPuzzle {
        setup,
        solution,
        plies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(s: &str) -> BoardSize {
        s.parse().unwrap()
    }

    #[test]
    fn reads_puzzles_and_skips_comments() {
        let text = "# a pool\n\n1b3b/6/3w2/b4w/4w1/6 w d4d5 3\n  # indented comment\n";
        let pool = Pool::parse(size("6x6"), text).unwrap();
        assert_eq!(pool.puzzles.len(), 1);
        let p = pool.puzzles[0];
        assert_eq!(p.setup.to_string(), "1b3b/6/3w2/b4w/4w1/6 w");
        assert_eq!(p.solution.to_string(), "d4-d5");
        assert_eq!(p.plies, 3);
    }

    #[test]
    fn refuses_bad_lines_with_their_number() {
        let good = "1b3b/6/3w2/b4w/4w1/6 w d4-d5 3";
        let cases = [
            ("d4-d5 3", "expected"),
            ("1b3b/6/3w2/b4w/4w1/6 w d4-d5", "position"),
            ("1b3b/6/3w2/b4w/4w1/6 x d4-d5 3", "position"),
            ("b4/5/5/1w3/5 w b2-b3 3", "not 6x6"),
            ("6/6/6/6/1w4/6 b b2-b1 3", "over"),
            ("1b3b/6/3w2/b4w/4w1/6 w d4-d6 3", "not a legal move"),
            ("1b3b/6/3w2/b4w/4w1/6 w d4-d5 4", "distance"),
            ("1b3b/6/3w2/b4w/4w1/6 w d4-d5 13", "distance"),
            ("1b3b/6/3w2/b4w/4w1/6 w d4-d5 1", "distance"),
            ("1b3b/6/3w2/b4w/4w1/6 w d4-d5 three", "distance"),
        ];
        for (line, says) in cases {
            let e = Pool::parse(size("6x6"), &format!("# head\n{good}\n{line}\n")).unwrap_err();
            assert_eq!(e.line, 3, "{line}");
            assert!(e.to_string().contains(says), "{line}: {e}");
        }
        let e = Pool::parse(size("6x6"), &format!("# head\n{good}\n\n{good}\n")).unwrap_err();
        assert_eq!(e.line, 4);
        assert_eq!(e.to_string(), "line 4: the same position as line 2");
    }

    #[test]
    fn the_shipped_pools_read() {
        let pools = Pool::shipped().unwrap();
        assert_eq!(pools.len(), 3);
        for (pool, _) in pools {
            assert!(!pool.puzzles.is_empty(), "{}", pool.size);
        }
    }

    #[test]
    fn the_digest_tells_texts_apart() {
        assert_eq!(digest("a"), digest("a"));
        assert_ne!(digest("a"), digest("b"));
        assert_eq!(digest("").len(), 16);
    }
}
