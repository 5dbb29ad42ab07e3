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
        for depth in 1..=budget.max_depth.max(1) {
            if depth > budget.min_depth {
                if self.nodes >= budget.nodes {
                    break;
                }
                self.limit = budget.nodes;
                self.deadline = budget
                    .max_millis
                    .and_then(|ms| started.checked_add(std::time::Duration::from_millis(ms)));
            }
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
                alpha = alpha.max(score);
                done.push((step, score));
            }
            if self.stopped {
                break;
            }
            // Stable sort: among equal scores the earlier (better ordered) move stays first.
            done.sort_by_key(|e| std::cmp::Reverse(e.1));
            scored = done;
            found.root = scored.clone();
            found.depth = depth;
            // A forced result is final.
            if scored[0].1.abs() > DECISIVE {
                break;
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
