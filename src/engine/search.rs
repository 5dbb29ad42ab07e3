//! Alpha-beta: iterative deepening, principal variation search, a transposition table, and move
//! ordering by the table's move, wins, captures of advanced pieces, killers and history.
//!
//! Two rules of Breakthrough are settled before the evaluation is asked: the side to move with a
//! piece one step from its goal wins; a side facing such a piece must take it at once (every other
//! move loses), so those positions search only the captures, and cost no depth.

use std::time::Instant;

use super::board::{Board, Step, Steps};
use super::eval::{evaluate, Weights};
use crate::rules::Geometry;

/// A won position, less the plies to the win.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by the search.
pub const DECISIVE: i32 = WIN - 1_000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 128;

/// When a search stops.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Nodes after which no new iteration starts and the current one stops (once the minimum
    /// depth is done). The search is deterministic while this binds.
    pub nodes: u64,
    /// Depth always completed, whatever the budget.
    pub min_depth: u32,
    /// Deepest iteration.
    pub max_depth: u32,
    /// A wall-clock cap for slow machines; `None`: none (the node budget alone decides).
    pub max_millis: Option<u64>,
    /// Transposition table entries, a power of two.
    pub table: usize,
    /// `None`: `nodes` is a fixed budget. `Some(ceiling)`: `nodes` is what a move of a search
    /// that is neither settled nor in doubt spends; a search whose best move holds from one
    /// iteration to the next spends less, one whose best move changes or whose score falls spends
    /// more, up to `ceiling` positions (see [`Pace`]).
    pub ceiling: Option<u64>,
}

/// How a search with a ceiling spreads its budget, read after each complete iteration: how
/// often the best move changed of late, and how far the best score fell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pace {
    /// Changes of the best move, each halved at every later iteration (so at most 2).
    changes: f64,
    /// How far the best score fell against the iteration two before (scores swing between odd
    /// and even depths), in hundredths of a piece (0 if it rose).
    fall: i32,
}

impl Pace {
    /// A settled search spends this share of the base budget.
    const SETTLED: f64 = 0.6;
    /// Each recent change of the best move adds this share (halved at each later iteration).
    const PER_CHANGE: f64 = 1.2;
    /// A score that fell by at least this much (half a piece) is in doubt...
    pub const FALL: i32 = 50;
    /// ...and gets this much more.
    const FALL_FACTOR: f64 = 1.5;

    /// The pace after an iteration whose best move did or did not change, and whose best score is
    /// `after`, against `before` two iterations back.
    pub fn after(self, changed: bool, before: i32, after: i32) -> Pace {
        Pace {
            changes: self.changes / 2.0 + if changed { 1.0 } else { 0.0 },
            fall: before.saturating_sub(after).max(0),
        }
    }

    /// The positions a search at this pace may spend, of a base of `base` and at most `ceiling`.
    pub fn target(self, base: u64, ceiling: u64) -> u64 {
        let mut share = Self::SETTLED + Self::PER_CHANGE * self.changes;
        if self.fall >= Self::FALL {
            share *= Self::FALL_FACTOR;
        }
        ((base as f64 * share) as u64).min(ceiling)
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    step: Step,
    depth: i8,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// Each root move with its score from the last complete iteration, best first.
    pub root: Vec<(Step, i32)>,
    pub depth: u32,
    pub nodes: u64,
}

pub struct Searcher<'g> {
    geo: &'g Geometry,
    weights: Weights,
    table: Vec<Entry>,
    mask: usize,
    killers: [[Step; 2]; MAX_PLY],
    history: Vec<u32>,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl<'g> Searcher<'g> {
    pub fn new(geo: &'g Geometry, budget: &Budget) -> Searcher<'g> {
        let size = budget.table.next_power_of_two().max(1024);
        Searcher {
            geo,
            weights: Weights::new(geo),
            table: vec![Entry::default(); size],
            mask: size - 1,
            killers: [[Step::default(); 2]; MAX_PLY],
            history: vec![0; 2 * 128 * 128],
            nodes: 0,
            limit: u64::MAX,
            deadline: None,
            stopped: false,
        }
    }

    /// Scores every root move by iterative deepening within `budget`. With `exact_root`, each
    /// root move gets its own full-window score (for levels that choose among near-equal moves);
    /// otherwise only the best move's score is exact.
    pub fn search(&mut self, root: &Board, budget: &Budget, exact_root: bool) -> Found {
        let started = Instant::now();
        let mut steps = Steps::new();
        root.moves(self.geo, &mut steps);
        let mut scored: Vec<(Step, i32)> = steps.iter().map(|&s| (s, 0)).collect();
        let mut found = Found {
            root: scored.clone(),
            depth: 0,
            nodes: 0,
        };
        if scored.is_empty() {
            return found;
        }
        // A win on the spot needs no search.
        if let Some(&(s, _)) = scored.iter().find(|(s, _)| root.wins(self.geo, *s)) {
            found.root = vec![(s, WIN - 1)];
            return found;
        }
        self.order_root(root, &mut scored);
        let mut pace = Pace::default();
        // The best score of each complete iteration. Scores swing between odd and even depths
        // (the side that moved last looks better), so a fall is measured two iterations back.
        let mut bests: Vec<i32> = Vec::new();
        for depth in 1..=budget.max_depth.max(1) {
            if depth > budget.min_depth {
                // A fixed budget starts no iteration once spent. A flexible one starts none past
                // half its target: an iteration costs more than all those before it together.
                let limit = match budget.ceiling {
                    None => budget.nodes,
                    Some(ceiling) => pace.target(budget.nodes, ceiling),
                };
                let spent = if budget.ceiling.is_some() {
                    self.nodes.saturating_mul(2)
                } else {
                    self.nodes
                };
                if spent >= limit {
                    break;
                }
                self.limit = limit;
                self.deadline = budget
                    .max_millis
                    .and_then(|ms| started.checked_add(std::time::Duration::from_millis(ms)));
            }
            let previous = found
                .root
                .first()
                .map(|&(step, _)| step)
                .filter(|_| found.depth > 0);
            let same_parity = bests.len().checked_sub(2).map(|i| bests[i]);
            let mut alpha = -INF;
            let mut done = Vec::with_capacity(scored.len());
            for (i, &(step, _)) in scored.iter().enumerate() {
                let child = root.play(step);
                let score = if exact_root {
                    -self.negamax(&child, depth as i32 - 1, 1, -INF, INF)
                } else if i == 0 {
                    -self.negamax(&child, depth as i32 - 1, 1, -INF, -alpha)
                } else {
                    let s = -self.negamax(&child, depth as i32 - 1, 1, -alpha - 1, -alpha);
                    if s > alpha && !self.stopped {
                        -self.negamax(&child, depth as i32 - 1, 1, -INF, -alpha)
                    } else {
                        s
                    }
                };
                if self.stopped {
                    break;
                }
                if let (Some(ceiling), Some(before)) = (budget.ceiling, same_parity) {
                    // The move that was best now looks worse: an answer is worth the ceiling.
                    if i == 0 && depth > budget.min_depth && before - score >= Pace::FALL {
                        self.limit = ceiling;
                    }
                }
                alpha = alpha.max(score);
                done.push((step, score));
            }
            // Stable sort: among equal scores the earlier (better ordered) move stays first.
            done.sort_by_key(|e| std::cmp::Reverse(e.1));
            if self.stopped {
                // A flexible search keeps what its last iteration finished: the move that was
                // best is searched first, so any move here beat it one ply deeper.
                if budget.ceiling.is_some() && !exact_root && !done.is_empty() {
                    found.root = done;
                }
                break;
            }
            scored = done;
            bests.push(scored[0].1);
            found.root = scored.clone();
            found.depth = depth;
            // A forced result is final.
            if scored[0].1.abs() > DECISIVE {
                break;
            }
            if budget.ceiling.is_some() {
                // Nothing to choose when at most one move does not lose by force.
                if scored.iter().filter(|(_, s)| *s > -DECISIVE).count() <= 1 {
                    break;
                }
                if let Some(step) = previous {
                    let before = same_parity.unwrap_or(scored[0].1);
                    pace = pace.after(step != scored[0].0, before, scored[0].1);
                }
            }
        }
        found.nodes = self.nodes;
        found
    }

    fn order_root(&self, root: &Board, scored: &mut [(Step, i32)]) {
        for (s, score) in scored.iter_mut() {
            *score = self.order_score(root, *s, 0);
        }
        scored.sort_by_key(|e| std::cmp::Reverse(e.1));
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn negamax(&mut self, b: &Board, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let geo = self.geo;
        let (me, them) = (b.stm, b.stm ^ 1);
        // A piece one step from the goal wins next move.
        if b.own() & geo.pre_goal(me) != 0 {
            return WIN - ply as i32 - 1;
        }
        let mut steps = Steps::new();
        let threats = b.opp() & geo.pre_goal(them);
        let forced = threats != 0;
        if forced {
            // Only taking the piece saves the game; two such pieces cannot both be taken.
            if threats.count_ones() > 1 || geo.attacks(me, b.own()) & threats == 0 {
                return -(WIN - ply as i32 - 2);
            }
            b.captures_of(geo, threats, &mut steps);
        } else if depth <= 0 || ply >= MAX_PLY - 1 {
            return evaluate(b, geo, &self.weights);
        }

        let slot = (b.hash as usize) & self.mask;
        let entry = self.table[slot];
        let mut best_step = Step::default();
        if entry.key == b.hash && entry.bound != 0 {
            best_step = entry.step;
            if i32::from(entry.depth) >= depth {
                let s = from_table(entry.score, ply);
                match entry.bound {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        if !forced {
            b.moves(geo, &mut steps);
        }
        let mut order: ArrayScores = [0; crate::rules::MAX_MOVES];
        for (i, &s) in steps.iter().enumerate() {
            if b.wins(geo, s) {
                return WIN - ply as i32 - 1;
            }
            order[i] = if s == best_step {
                i32::MAX
            } else {
                self.order_score(b, s, ply)
            };
        }
        // Forced captures cost no depth.
        let next_depth = if forced { depth } else { depth - 1 };
        let original_alpha = alpha;
        let mut best = -INF;
        for i in 0..steps.len() {
            // Selection sort: the best remaining move next; cut-offs come early.
            let mut pick = i;
            for j in i + 1..steps.len() {
                if order[j] > order[pick] {
                    pick = j;
                }
            }
            steps.swap(i, pick);
            order.swap(i, pick);
            let s = steps[i];
            let child = b.play(s);
            let score = if i == 0 {
                -self.negamax(&child, next_depth, ply + 1, -beta, -alpha)
            } else {
                // Late quiet moves are first searched one ply shallower.
                let reduce = if !forced && i >= 4 && depth >= 3 && !b.is_capture(s) {
                    1
                } else {
                    0
                };
                let mut v = -self.negamax(&child, next_depth - reduce, ply + 1, -alpha - 1, -alpha);
                if v > alpha && reduce > 0 && !self.stopped {
                    v = -self.negamax(&child, next_depth, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.stopped {
                    v = -self.negamax(&child, next_depth, ply + 1, -beta, -alpha);
                }
                v
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_step = s;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !b.is_capture(s) {
                    let k = &mut self.killers[ply];
                    if k[0] != s {
                        k[1] = k[0];
                        k[0] = s;
                    }
                    let h = &mut self.history[history_index(me, s)];
                    *h = h.saturating_add((depth * depth) as u32);
                }
                break;
            }
        }
        let bound = if best <= original_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.table[slot] = Entry {
            key: b.hash,
            score: to_table(best, ply),
            step: best_step,
            depth: depth.clamp(-1, 100) as i8,
            bound,
        };
        best
    }

    fn order_score(&self, b: &Board, s: Step, ply: usize) -> i32 {
        let geo = self.geo;
        let me = b.stm;
        let advance = geo.advance(me, s.to) as i32;
        if b.is_capture(s) {
            // Taking a piece deep in our half first.
            let depth_of_victim = geo.advance(me ^ 1, s.to) as i32;
            return 1_000_000 + depth_of_victim * 1_000 - advance;
        }
        if ply < MAX_PLY && self.killers[ply][0] == s {
            return 900_000;
        }
        if ply < MAX_PLY && self.killers[ply][1] == s {
            return 800_000;
        }
        (self.history[history_index(me, s)].min(700_000)) as i32 + advance
    }
}

type ArrayScores = [i32; crate::rules::MAX_MOVES];

fn history_index(side: usize, s: Step) -> usize {
    (side * 128 + s.from as usize) * 128 + s.to as usize
}

/// Wins are stored relative to the node, so they read right at any ply.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > DECISIVE {
        score + ply as i32
    } else if score < -DECISIVE {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > DECISIVE {
        score - ply as i32
    } else if score < -DECISIVE {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::Pace;

    const BASE: u64 = 2_000_000;
    const CEILING: u64 = 5_000_000;

    #[test]
    fn a_settled_search_spends_less_than_its_base_and_one_in_doubt_more() {
        let settled = Pace::default().after(false, 40, 45).after(false, 45, 42);
        assert!(settled.target(BASE, CEILING) < BASE);

        // The best move changed in the last iteration.
        let changed = settled.after(true, 42, 30);
        assert!(changed.target(BASE, CEILING) > BASE);
        // Two iterations later, unchanged since, it is settled again.
        let calmer = changed.after(false, 30, 31).after(false, 31, 33);
        assert!(calmer.target(BASE, CEILING) < changed.target(BASE, CEILING));
        assert!(calmer.target(BASE, CEILING) > settled.target(BASE, CEILING));

        // The same best move whose score fell by half a piece.
        let fell = settled.after(false, 40, 40 - Pace::FALL);
        assert!(fell.target(BASE, CEILING) > settled.target(BASE, CEILING));
        let rose = settled.after(false, 40, 140);
        assert_eq!(rose.target(BASE, CEILING), settled.target(BASE, CEILING));
    }

    #[test]
    fn no_pace_spends_past_the_ceiling() {
        let mut wild = Pace::default();
        for _ in 0..10 {
            wild = wild.after(true, 500, -500);
        }
        assert_eq!(wild.target(BASE, CEILING), CEILING);
    }
}
