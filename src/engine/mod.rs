//! The built-in AI. Pure and synchronous: a position in, a move out.
//!
//! An alpha-beta search (`search`) over bitboards (`board`) with an evaluation that knows the game
//! (`eval`). Levels differ in how many positions they may look at and, below the top, in how
//! much chance sways their choice among moves that are not decisive: a level above the first
//! never misses a win on the spot nor the capture that stops an enemy piece one step from home.
//! The top level paces its budget: less where its search settles on a move, more where it is in
//! doubt ([`Pacing`]).
//! `uct` is a plain Monte-Carlo tree search, the yardstick of the self-play harness; `analysis`
//! judges every position of a finished game, for a look back at it.

pub mod analysis;
mod board;
mod eval;
mod prove;
pub mod puzzles;
mod search;
pub mod uct;

use std::fmt;
use std::str::FromStr;

use crate::rules::{Geometry, Move, Position};
use board::{splitmix, Board, Steps};
pub use prove::{prove, Proof, MAX_PROOF_PLIES, PROOF_NODES};
use search::{Budget, Searcher, DECISIVE, WIN};

/// How strong the AI plays, from 1 (a beginner who makes real mistakes) to 5 (strong).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(5);
    pub const DEFAULT: Level = Level(3);

    /// A level from its number, `None` outside 1 to 5.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Self::MIN.0 && n <= Self::MAX.0 {
            Some(Level(n))
        } else {
            None
        }
    }

    pub const fn number(self) -> u8 {
        self.0
    }

    pub fn all() -> impl Iterator<Item = Level> {
        (Self::MIN.0..=Self::MAX.0).map(Level)
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::DEFAULT
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A level that is not a number from 1 to 5.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the level must be a number from 1 to 5")]
pub struct LevelError;

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or(LevelError)
    }
}

/// The AI's move in `position` at `level`; the same for the same `seed`. `None` once the game is
/// over. Takes up to the level's time budget (at most 2 seconds): call it off the async runtime.
///
/// ```
/// use breakthrough_bot::engine::{best_move, Level};
/// use breakthrough_bot::rules::Position;
///
/// let start = Position::default();
/// let mv = best_move(&start, Level::new(2).unwrap(), 7).unwrap();
/// assert!(start.is_legal(mv));
/// assert_eq!(best_move(&start, Level::new(2).unwrap(), 7), Some(mv));
/// ```
pub fn best_move(position: &Position, level: Level, seed: u64) -> Option<Move> {
    think(position, level, seed).map(|t| t.best)
}

/// A move and how it was found.
#[derive(Clone, Debug)]
pub struct Thought {
    pub best: Move,
    /// From the mover's side, in hundredths of a piece; beyond ±999,000 a forced win or loss.
    pub score: i32,
    /// Deepest complete iteration (0 for the first level, which does not search; for a win the
    /// prover found, its length in plies).
    pub depth: u32,
    /// Positions searched (0 when the prover found the move).
    pub nodes: u64,
}

/// What a level may spend and how much chance it lets in.
struct Style {
    budget: Budget,
    /// Root moves that are not decisive get a random bonus up to this much.
    noise: i32,
}

fn style(level: Level, pacing: Pacing) -> Style {
    let (nodes, min_depth, max_millis, table, noise) = match level.0 {
        1 => (0, 1, 200, 1 << 10, 0),
        2 => (1_500, 2, 500, 1 << 12, 60),
        3 => (15_000, 2, 800, 1 << 14, 15),
        4 => (200_000, 3, 1_200, 1 << 18, 0),
        _ => (2_000_000, 3, 2_000, 1 << 20, 0),
    };
    let flexible = level == Level::MAX && pacing == Pacing::Flexible;
    let (nodes, ceiling) = if flexible {
        (TOP_BASE, Some(TOP_CEILING))
    } else {
        (nodes, None)
    };
    Style {
        budget: Budget {
            nodes,
            min_depth,
            max_depth: 64,
            max_millis: Some(max_millis),
            table,
            ceiling,
        },
        noise,
    }
}

/// What the top level spends on a move whose search is neither settled nor in doubt (with a fixed
/// budget: 2,000,000 positions).
const TOP_BASE: u64 = 4_000_000;

/// The most positions the top level spends on a move, where its search is most in doubt: about
/// 1.7 s on the 2-core development machine, within the level's 2 s cap.
const TOP_CEILING: u64 = 12_000_000;

/// How the top level spreads its budget over a game's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pacing {
    /// Less where the search has settled on its move, more where it is in doubt, nothing more
    /// once at most one move does not lose by force: the bot's.
    #[default]
    Flexible,
    /// The same budget for every move, as the levels below the top spend theirs; for measuring
    /// what the flexible pace gains (`selfplay`).
    Fixed,
}

/// The levels from which the AI first tries to prove a win, and plays its shortest one when it
/// can; the search only when it cannot.
const PROVING_LEVEL: Level = Level(4);

/// How far the top levels' prover looks before they search: wins up to 9 plies.
const LEVEL_PROOF_PLIES: u32 = 9;

/// The positions the top levels' prover may look at before they search: a small share of their
/// search's budget, so that the time they take hardly changes.
const LEVEL_PROOF_NODES: u64 = 20_000;

/// The AI's move with its score and the work it took.
pub fn think(position: &Position, level: Level, seed: u64) -> Option<Thought> {
    think_within(position, level, seed, Clock::Capped, Pacing::Flexible)
}

/// [`think`] with the top level's budget spread as `pacing` says (the levels below the top
/// always spend a fixed one).
pub fn think_paced(
    position: &Position,
    level: Level,
    seed: u64,
    pacing: Pacing,
) -> Option<Thought> {
    think_within(position, level, seed, Clock::Capped, pacing)
}

/// The move [`think`] finds when the level's node budget runs out before its wall-clock cap, as
/// on a fast enough, idle machine: the same on every machine for the same seed. For analysis and
/// reproducible checks; on a slow or busy machine it takes longer than the level's time budget,
/// so the bot itself plays [`think`].
///
/// ```
/// use breakthrough_bot::engine::{think_unhurried, Level};
/// use breakthrough_bot::rules::Position;
///
/// let start = Position::default();
/// let a = think_unhurried(&start, Level::new(3).unwrap(), 1).unwrap();
/// let b = think_unhurried(&start, Level::new(3).unwrap(), 1).unwrap();
/// assert_eq!((a.best, a.nodes), (b.best, b.nodes));
/// ```
pub fn think_unhurried(position: &Position, level: Level, seed: u64) -> Option<Thought> {
    think_within(position, level, seed, Clock::Ignored, Pacing::Flexible)
}

/// Whether a search stops at its level's wall-clock cap.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Clock {
    Capped,
    Ignored,
}

fn think_within(
    position: &Position,
    level: Level,
    seed: u64,
    clock: Clock,
    pacing: Pacing,
) -> Option<Thought> {
    if position.outcome().is_some() {
        return None;
    }
    if level >= PROVING_LEVEL {
        // A proven win is converted by the shortest route, whatever the search would prefer.
        if let Proof::Win { plies, best } = prove(position, LEVEL_PROOF_PLIES, LEVEL_PROOF_NODES) {
            return Some(Thought {
                best,
                score: WIN - i32::try_from(plies).unwrap_or(0),
                depth: plies,
                nodes: 0,
            });
        }
    }
    let geo = position.size().geometry();
    let board = Board::from_position(position);
    let mut rng = seed ^ 0x005e_ed0f_b7ea_c047;
    if level.0 == 1 {
        return Some(beginner(&board, geo, &mut rng));
    }
    let mut style = style(level, pacing);
    if clock == Clock::Ignored {
        style.budget.max_millis = None;
    }
    let noisy = style.noise > 0;
    let mut searcher = Searcher::new(geo, &style.budget);
    let found = searcher.search(&board, &style.budget, noisy);
    let &(first, top) = found.root.first()?;
    let (step, score) = if !noisy || top > DECISIVE {
        (first, top)
    } else {
        // Chance picks among the moves that do not lose by force (all of them if every one does).
        let safe: Vec<_> = found.root.iter().filter(|(_, s)| *s > -DECISIVE).collect();
        let pool = if safe.is_empty() {
            found.root.iter().collect()
        } else {
            safe
        };
        let mut pick = (first, top);
        let mut best = i32::MIN;
        for &&(s, score) in &pool {
            let swayed = score + (splitmix(&mut rng) % (2 * style.noise as u64 + 1)) as i32;
            if swayed > best {
                best = swayed;
                pick = (s, score);
            }
        }
        pick
    };
    Some(Thought {
        best: board.move_of(geo, step),
        score,
        depth: found.depth,
        nodes: found.nodes,
    })
}

/// The first level: one move ahead at most, and often not even that.
fn beginner(board: &Board, geo: &Geometry, rng: &mut u64) -> Thought {
    let mut steps = Steps::new();
    board.moves(geo, &mut steps);
    let weights = eval::Weights::new(geo);
    let roll = |rng: &mut u64, n: u64| splitmix(rng) % n;
    let mut pick = steps[0];
    if roll(rng, 10) < 3 {
        pick = steps[roll(rng, steps.len() as u64) as usize];
    } else {
        let mut best = i32::MIN;
        for &s in &steps {
            let after = board.play(s);
            let score = -eval::evaluate(&after, geo, &weights) + roll(rng, 301) as i32;
            if score > best {
                best = score;
                pick = s;
            }
        }
    }
    Thought {
        best: board.move_of(geo, pick),
        score: 0,
        depth: 0,
        nodes: steps.len() as u64,
    }
}
