//! `breakthrough-bot selfplay`: the AI's levels measured against each other and against plain UCT.
//!
//! Each match plays pairs of games from the same opening (two random plies, one per side, drawn
//! from the seed) with colours swapped, so neither side profits from the opening or from moving
//! first. Games run on worker threads; each game's result depends only on its seed.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::engine::{self, Level};
use crate::rules::{BoardSize, Color, Position};

/// A player in the harness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Ai(Level),
    /// The level with every move given the same budget (see [`engine::Pacing::Fixed`]).
    AiFixed(Level),
    /// Plain UCT with this many simulations per move.
    Uct(u32),
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Ai(l) => write!(f, "level {l}"),
            Player::AiFixed(l) => write!(f, "level {l} (fixed budget)"),
            Player::Uct(n) => write!(f, "UCT {n}"),
        }
    }
}

impl Player {
    fn choose(self, position: &Position, seed: u64) -> Option<crate::rules::Move> {
        match self {
            Player::Ai(level) => engine::best_move(position, level, seed),
            Player::AiFixed(level) => {
                engine::think_paced(position, level, seed, engine::Pacing::Fixed).map(|t| t.best)
            }
            Player::Uct(n) => engine::uct::uct_move(position, n, seed),
        }
    }
}

/// One match's tally.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub first: Player,
    pub second: Player,
    pub games: usize,
    /// Games won by `first`.
    pub first_wins: usize,
    pub plies: usize,
    /// The time each move took to choose, per side.
    pub think: [Vec<Duration>; 2],
    pub elapsed: Duration,
}

impl MatchReport {
    pub fn first_share(&self) -> f64 {
        self.first_wins as f64 / self.games.max(1) as f64
    }
}

struct SelfplayGame {
    first_won: bool,
    plies: usize,
    think: [Vec<Duration>; 2],
}

fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^ (z >> 29)
}

/// Plays game `index` of a match: pair `index / 2`'s opening, `first` with Black on even indexes.
fn play_one(
    first: Player,
    second: Player,
    size: BoardSize,
    seed: u64,
    index: usize,
) -> SelfplayGame {
    let pair = (index / 2) as u64;
    let first_is_black = index.is_multiple_of(2);
    let mut position = Position::new(size);
    // The opening: two random plies, the same for both games of a pair.
    for k in 0..2 {
        let moves = position.legal_moves();
        let pick = (mix(seed, pair * 2 + k) % moves.len() as u64) as usize;
        if let Ok(next) = position.play(moves[pick]) {
            position = next;
        }
    }
    let mut think = [Vec::new(), Vec::new()];
    let mut plies = 2;
    let winner = loop {
        if let Some(outcome) = position.outcome() {
            break outcome.winner;
        }
        let black_to_move = position.turn() == Color::Black;
        let first_to_move = black_to_move == first_is_black;
        let (player, side) = if first_to_move {
            (first, 0)
        } else {
            (second, 1)
        };
        let t = Instant::now();
        let choice = player.choose(&position, mix(seed ^ 0xabcd, index as u64 * 1000 + plies));
        think[side].push(t.elapsed());
        plies += 1;
        match choice.and_then(|mv| position.play(mv).ok()) {
            Some(next) => position = next,
            // A player without a legal answer loses (never seen; counted honestly if it happens).
            None => break position.turn().opposite(),
        }
    };
    SelfplayGame {
        first_won: (winner == Color::Black) == first_is_black,
        plies: plies as usize,
        think,
    }
}

/// Plays `games` games between `first` and `second` on `threads` threads.
pub fn play_match(
    first: Player,
    second: Player,
    games: usize,
    size: BoardSize,
    seed: u64,
    threads: usize,
) -> MatchReport {
    let began = Instant::now();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(games));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let game = play_one(first, second, size, seed, i);
                if let Ok(mut all) = results.lock() {
                    all.push(game);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    let mut report = MatchReport {
        first,
        second,
        games: results.len(),
        first_wins: 0,
        plies: 0,
        think: [Vec::new(), Vec::new()],
        elapsed: began.elapsed(),
    };
    for g in results {
        report.first_wins += usize::from(g.first_won);
        report.plies += g.plies;
        for (all, these) in report.think.iter_mut().zip(g.think) {
            all.extend(these);
        }
    }
    report
}

/// The header of the table [`row`] writes.
pub const HEADER: &str = "| match | games | wins of the first | share | plies per game | ms per move, first (mean / median / max) | second (mean / median / max) | wall time |\n|---|---|---|---|---|---|---|---|";

/// Mean, median and longest of a side's times per move, in milliseconds.
fn times(moves: &[Duration]) -> String {
    let mut ms: Vec<f64> = moves.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    let median = ms.get(ms.len() / 2).copied().unwrap_or(0.0);
    let max = ms.last().copied().unwrap_or(0.0);
    format!("{mean:.1} / {median:.1} / {max:.1}")
}

/// One line of the results table, in Markdown.
pub fn row(r: &MatchReport) -> String {
    let mut line = String::new();
    let _ = write!(
        line,
        "| {} vs {} | {} | {} | {:.0}% | {:.1} | {} | {} | {:.0} s |",
        r.first,
        r.second,
        r.games,
        r.first_wins,
        r.first_share() * 100.0,
        r.plies as f64 / r.games.max(1) as f64,
        times(&r.think[0]),
        times(&r.think[1]),
        r.elapsed.as_secs_f64()
    );
    line
}

/// `breakthrough-bot selfplay`: each level against the one below, the top level against itself
/// with a fixed budget and against plain UCT (or only the matches named in `only`), a row each.
pub fn run(
    games: usize,
    size: BoardSize,
    uct_simulations: u32,
    seed: u64,
    threads: usize,
    only: &[String],
) -> ExitCode {
    let mut matches = Vec::new();
    for n in 2..=Level::MAX.number() {
        if let (Some(a), Some(b)) = (Level::new(n), Level::new(n - 1)) {
            matches.push((format!("{n}-{}", n - 1), Player::Ai(a), Player::Ai(b)));
        }
    }
    matches.push((
        format!("{}-{}fixed", Level::MAX, Level::MAX),
        Player::Ai(Level::MAX),
        Player::AiFixed(Level::MAX),
    ));
    matches.push((
        format!("{}-uct", Level::MAX),
        Player::Ai(Level::MAX),
        Player::Uct(uct_simulations),
    ));
    for name in only {
        if !matches.iter().any(|(m, _, _)| m == name) {
            let known: Vec<_> = matches.iter().map(|(m, _, _)| m.as_str()).collect();
            eprintln!("unknown match {name:?}; known: {}", known.join(", "));
            return ExitCode::from(2);
        }
    }
    println!("{}", HEADER);
    for (name, first, second) in matches {
        if !only.is_empty() && !only.contains(&name) {
            continue;
        }
        let report = play_match(first, second, games, size, seed, threads);
        println!("{}", row(&report));
    }
    ExitCode::SUCCESS
}
