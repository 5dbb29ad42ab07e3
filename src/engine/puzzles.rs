//! Puzzles found in the AI's own games: positions where the side to move wins by force in 3 to 11
//! plies with exactly one first move, each proven by [`prove`].

use super::{prove, think_unhurried, Level, Proof};
use crate::rules::{BoardSize, Move, Position};

/// The shortest and longest wins a puzzle may ask for, in plies.
pub const PUZZLE_PLIES: std::ops::RangeInclusive<u32> = 3..=11;

/// The node budget of each proof a search for puzzles makes.
pub const PUZZLE_PROOF_NODES: u64 = 400_000;

/// A position, its one winning first move, and the proven length of the win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundPuzzle {
    pub position: Position,
    pub solution: Move,
    pub plies: u32,
}

impl std::fmt::Display for FoundPuzzle {
    /// The pool's line: the position as setup text, the solution, the plies.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.position, self.solution, self.plies)
    }
}

/// Whether `position` makes a puzzle: a proven win within [`PUZZLE_PLIES`] whose first move is the
/// only one proven to win within the longest bound.
pub fn as_puzzle(position: &Position) -> Option<FoundPuzzle> {
    let Proof::Win { plies, best } = prove(position, *PUZZLE_PLIES.end(), PUZZLE_PROOF_NODES)
    else {
        return None;
    };
    if !PUZZLE_PLIES.contains(&plies) {
        return None;
    }
    for &other in position.legal_moves().iter() {
        if other == best {
            continue;
        }
        let after = position.play(other).ok()?;
        if after.outcome().is_some() {
            return None;
        }
        if let Proof::Loss { .. } = prove(&after, PUZZLE_PLIES.end() - 1, PUZZLE_PROOF_NODES) {
            return None;
        }
    }
    Some(FoundPuzzle {
        position: *position,
        solution: best,
        plies,
    })
}

/// The puzzles of one game the AI plays against itself on `size` (levels 2 and 3, chosen by
/// `seed`): of the last 16 positions before the end, the one with the longest proven win and the
/// one with the shortest, when they make puzzles. The same for the same seed.
pub fn puzzles_of_game(size: BoardSize, seed: u64) -> Vec<FoundPuzzle> {
    let levels = [
        Level::new(2 + (seed % 2) as u8).unwrap_or_default(),
        Level::new(2 + ((seed / 2) % 2) as u8).unwrap_or_default(),
    ];
    let mut positions = vec![Position::new(size)];
    let mut position = Position::new(size);
    let mut ply = 0u64;
    while position.outcome().is_none() {
        let level = levels[(ply % 2) as usize];
        let Some(thought) =
            think_unhurried(&position, level, seed.wrapping_mul(1_000).wrapping_add(ply))
        else {
            break;
        };
        let Ok(next) = position.play(thought.best) else {
            break;
        };
        position = next;
        positions.push(position);
        ply += 1;
    }
    let from = positions.len().saturating_sub(17);
    let found: Vec<FoundPuzzle> = positions[from..positions.len() - 1]
        .iter()
        .filter_map(as_puzzle)
        .collect();
    let longest = found.iter().max_by_key(|p| p.plies).cloned();
    let shortest = found.iter().min_by_key(|p| p.plies).cloned();
    let mut picked: Vec<FoundPuzzle> = longest.into_iter().collect();
    if let Some(s) = shortest {
        if !picked.contains(&s) {
            picked.push(s);
        }
    }
    picked
}

/// `count` puzzles of `size` from games seeded `seed`, `seed + 1`, …, found by `threads` threads
/// at once, each position once, sorted by the length of their wins and then by their position.
/// `progress` hears how many are found so far, after each game.
pub fn generate(
    size: BoardSize,
    count: usize,
    seed: u64,
    threads: usize,
    progress: impl Fn(usize) + Sync,
) -> Vec<FoundPuzzle> {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Mutex;

    let next_game = AtomicU64::new(seed);
    let found: Mutex<BTreeMap<String, FoundPuzzle>> = Mutex::new(BTreeMap::new());
    let enough = |found: &Mutex<BTreeMap<String, FoundPuzzle>>| {
        found.lock().map(|f| f.len() >= count).unwrap_or(true)
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                while !enough(&found) {
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    let puzzles = puzzles_of_game(size, game);
                    let Ok(mut all) = found.lock() else {
                        return;
                    };
                    for p in puzzles {
                        if all.len() < count {
                            all.entry(p.position.to_string()).or_insert(p);
                        }
                    }
                    progress(all.len());
                }
            });
        }
    });
    let mut puzzles: Vec<FoundPuzzle> = found
        .into_inner()
        .map(|f| f.into_values().collect())
        .unwrap_or_default();
    puzzles.sort_by_key(|p| (p.plies, p.position.to_string()));
    puzzles
}
