//! The prover: whether the side to move wins or loses by force within a bound, and in exactly how
//! many plies.
//!
//! Two questions answered by a depth-first AND/OR search: "can the side to move win within `d`
//! plies?" and "must it lose within `d`?", asked for `d = 1, 2, 3, …` up to the bound, so the first
//! yes is the shortest win (or the longest defence). Both share a transposition table that keeps,
//! for each position, the smallest bound at which each was proven and the largest at which each
//! was refuted. A refutation always looks at every move, so the answer is exact; only proofs take
//! shortcuts:
//! - a piece one step from its goal wins next move, and a side facing one must take it at once;
//! - a side cannot win sooner than its most advanced piece can walk home, nor by capture sooner
//!   than it can take every enemy piece;
//! - a runner that no enemy piece can catch or block, on a path clear of its own side's pieces,
//!   wins its race when the other side cannot get home first (see [`Prover::runner`]).

use super::board::{Board, Step, Steps};
use crate::rules::{Geometry, Move, Position};

/// What the prover established about a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The side to move wins by force with its move at ply `plies` (odd: 1 means this move wins)
    /// and not sooner; `best` wins in exactly that many.
    Win { plies: u32, best: Move },
    /// The other side wins by force at ply `plies` (even; 0 when the game is already over)
    /// however the side to move defends.
    Loss { plies: u32 },
    /// Neither within the bound, or the node budget ran out first.
    Unknown,
}

/// A node budget that proves or gives up within a second on 8x8 (under a third of a second on
/// the 2-core development machine, measured by `cargo bench --bench prove`).
pub const PROOF_NODES: u64 = 1_500_000;

/// The deepest bound the prover takes; deeper ones are cut to it.
pub const MAX_PROOF_PLIES: u32 = 63;

/// Proves `position` to a bound of `max_plies`, looking at no more than `max_nodes` positions.
/// The same answer for the same arguments on every machine.
///
/// ```
/// use breakthrough_bot::engine::{prove, Proof};
/// use breakthrough_bot::rules::Position;
///
/// // White's a2 walks home unopposed: a3, a4, a5.
/// let p: Position = "4b/5/5/w4/5 w".parse().unwrap();
/// let Proof::Win { plies, best } = prove(&p, 9, 100_000) else { panic!() };
/// assert_eq!((plies, best.to_string().as_str()), (5, "a2-a3"));
/// ```
pub fn prove(position: &Position, max_plies: u32, max_nodes: u64) -> Proof {
    if position.outcome().is_some() {
        return Proof::Loss { plies: 0 };
    }
    let geo = position.size().geometry();
    let root = Board::from_position(position);
    let mut prover = Prover::new(geo, max_nodes);
    for d in 1..=max_plies.min(MAX_PROOF_PLIES) {
        let d = d as u8;
        if d % 2 == 1 {
            if let Some(step) = prover.winning_move(&root, d) {
                return Proof::Win {
                    plies: u32::from(d),
                    best: root.move_of(geo, step),
                };
            }
        } else if prover.loses(&root, d) {
            return Proof::Loss {
                plies: u32::from(d),
            };
        }
        if prover.stopped {
            break;
        }
    }
    Proof::Unknown
}

/// What the table knows of a position: bounds on the plies within which its side to move wins or
/// loses. `NONE` for no proof yet; 0 for no refutation yet.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    win_within: u8,
    no_win_within: u8,
    loss_within: u8,
    no_loss_within: u8,
    best: Step,
}

const NONE: u8 = u8::MAX;

struct Prover<'g> {
    geo: &'g Geometry,
    table: Vec<Entry>,
    mask: usize,
    nodes: u64,
    limit: u64,
    stopped: bool,
}

impl<'g> Prover<'g> {
    fn new(geo: &'g Geometry, limit: u64) -> Prover<'g> {
        // About one entry for every two positions the budget allows, within 1,024 and 2^20.
        let size = (limit / 2).clamp(1 << 10, 1 << 20).next_power_of_two() as usize;
        Prover {
            geo,
            table: vec![Entry::default(); size],
            mask: size - 1,
            nodes: 0,
            limit,
            stopped: false,
        }
    }

    fn entry(&self, b: &Board) -> Option<Entry> {
        let e = self.table[(b.hash as usize) & self.mask];
        (e.key == b.hash).then_some(e)
    }

    fn store(&mut self, b: &Board, update: impl FnOnce(&mut Entry)) {
        let slot = &mut self.table[(b.hash as usize) & self.mask];
        if slot.key != b.hash {
            *slot = Entry {
                key: b.hash,
                win_within: NONE,
                no_win_within: 0,
                loss_within: NONE,
                no_loss_within: 0,
                best: Step::default(),
            };
        }
        update(slot);
    }

    fn spend(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.stopped = true;
        }
        self.stopped
    }

    /// At the root: a move that wins within `d` (odd), if there is one.
    fn winning_move(&mut self, b: &Board, d: u8) -> Option<Step> {
        let mut steps = Steps::new();
        b.moves(self.geo, &mut steps);
        if let Some(&s) = steps.iter().find(|&&s| b.wins(self.geo, s)) {
            return Some(s);
        }
        if d < 3 {
            return None;
        }
        self.order(b, &mut steps);
        for &s in &steps {
            if self.loses(&b.play(s), d - 1) {
                return Some(s);
            }
            if self.stopped {
                return None;
            }
        }
        None
    }

    /// Whether the side to move wins within `d` plies (`false` too when the budget ran out).
    fn wins(&mut self, b: &Board, d: u8) -> bool {
        if self.spend() {
            return false;
        }
        let geo = self.geo;
        let (me, them) = (b.stm, b.stm ^ 1);
        // A piece one step from home walks in; the last enemy piece, if attacked, is taken.
        if b.own() & geo.pre_goal(me) != 0
            || (b.opp().count_ones() == 1 && geo.attacks(me, b.own()) & b.opp() != 0)
        {
            return true;
        }
        if d < 3 || 2 * self.fastest(b, me) > u32::from(d) + 1 {
            return false;
        }
        let threats = b.opp() & geo.pre_goal(them);
        if threats != 0 && (threats.count_ones() > 1 || geo.attacks(me, b.own()) & threats == 0) {
            return false;
        }
        // An enemy runner home before any win of ours.
        if self
            .runner(b, them, false)
            .is_some_and(|k| k < self.fastest(b, me))
        {
            return false;
        }
        let entry = self.entry(b);
        if let Some(e) = entry {
            if e.win_within <= d {
                return true;
            }
            if e.no_win_within >= d {
                return false;
            }
        }
        if threats == 0 {
            if let Some(k) = self.runner(b, me, true) {
                if 2 * k - 1 <= u32::from(d) && k <= self.fastest(b, them) {
                    self.store(b, |e| e.win_within = e.win_within.min(d));
                    return true;
                }
            }
        }
        let mut steps = Steps::new();
        if threats != 0 {
            b.captures_of(geo, threats, &mut steps);
        } else {
            b.moves(geo, &mut steps);
        }
        self.order(b, &mut steps);
        if let Some(e) = entry {
            promote(&mut steps, e.best);
        }
        for &s in &steps {
            if self.loses(&b.play(s), d - 1) {
                self.store(b, |e| {
                    e.win_within = e.win_within.min(d);
                    e.best = s;
                });
                return true;
            }
            if self.stopped {
                return false;
            }
        }
        self.store(b, |e| e.no_win_within = e.no_win_within.max(d));
        false
    }

    /// Whether the side to move loses within `d` plies, however it defends (`false` too when the
    /// budget ran out).
    fn loses(&mut self, b: &Board, d: u8) -> bool {
        if self.spend() {
            return false;
        }
        let geo = self.geo;
        let (me, them) = (b.stm, b.stm ^ 1);
        // The side to move wins on the spot.
        if b.own() & geo.pre_goal(me) != 0
            || (b.opp().count_ones() == 1 && geo.attacks(me, b.own()) & b.opp() != 0)
        {
            return false;
        }
        if d < 2 || 2 * self.fastest(b, them) > u32::from(d) {
            return false;
        }
        let threats = b.opp() & geo.pre_goal(them);
        if threats != 0 && (threats.count_ones() > 1 || geo.attacks(me, b.own()) & threats == 0) {
            return true;
        }
        let entry = self.entry(b);
        if let Some(e) = entry {
            if e.loss_within <= d {
                return true;
            }
            if e.no_loss_within >= d {
                return false;
            }
        }
        // A runner of the side to move that gets home first: it does not lose at all.
        if threats == 0
            && self
                .runner(b, me, true)
                .is_some_and(|k| k <= self.fastest(b, them))
        {
            self.store(b, |e| e.no_loss_within = NONE - 1);
            return false;
        }
        let mut steps = Steps::new();
        if threats != 0 {
            b.captures_of(geo, threats, &mut steps);
        } else {
            b.moves(geo, &mut steps);
        }
        self.order(b, &mut steps);
        if let Some(e) = entry {
            promote(&mut steps, e.best);
        }
        for &s in &steps {
            if !self.wins(&b.play(s), d - 1) {
                if self.stopped {
                    return false;
                }
                self.store(b, |e| {
                    e.no_loss_within = e.no_loss_within.max(d);
                    e.best = s;
                });
                return false;
            }
        }
        self.store(b, |e| e.loss_within = e.loss_within.min(d));
        true
    }

    /// The fewest moves in which `side` could possibly win: its most advanced piece's walk home,
    /// or taking every enemy piece one by one.
    fn fastest(&self, b: &Board, side: usize) -> u32 {
        let geo = self.geo;
        let own = b.pieces[side];
        let mut walk = geo.rows - 1;
        for r in (0..geo.rows as usize).rev() {
            if own & geo.rows_of[side][r] != 0 {
                walk = geo.rows - 1 - r as u32;
                break;
            }
        }
        walk.min(b.pieces[side ^ 1].count_ones())
    }

    /// The moves `side`'s fastest sure runner needs to get home, when `side` has one and moves
    /// first when `first`: a piece whose straight path is clear of its own side's pieces and that
    /// no enemy piece can reach in time to stand in its way or take it, whatever the enemy does.
    /// The enemy's pieces only ever move towards the runner's start, one row a move, and sideways
    /// by at most a column a move; each is checked against every square of the walk at the moment
    /// the runner gets there. `None` when there is no such piece.
    fn runner(&self, b: &Board, side: usize, first: bool) -> Option<u32> {
        let geo = self.geo;
        let cols = geo.cols as i32;
        let own = b.pieces[side];
        let enemy = b.pieces[side ^ 1];
        // The enemy's extra move when the runner's side moves second.
        let extra = i32::from(!first);
        let mut best: Option<u32> = None;
        let mut pieces = own;
        while pieces != 0 {
            let index = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let advance = geo.advance(side, index) as i32;
            let k = geo.rows as i32 - 1 - advance;
            if best.is_some_and(|b| b as i32 <= k) {
                continue;
            }
            let col = i32::from(index) % cols;
            // Rows ahead of the runner's square, counted towards its goal.
            let path_clear = (1..=k).all(|i| {
                let sq = square(geo, side, advance + i, col);
                own & (1u128 << sq) == 0
            });
            if !path_clear {
                continue;
            }
            let mut safe = true;
            let mut foes = enemy;
            while foes != 0 && safe {
                let f = foes.trailing_zeros() as u8;
                foes &= foes - 1;
                let dr = geo.advance(side, f) as i32 - advance;
                if dr < 1 {
                    continue;
                }
                let dc = (i32::from(f) % cols - col).abs();
                // Blocking the runner's step j+1 (onto row advance+j+1): the foe must be there
                // after its j + extra moves, each a row down. The last step, from the row before
                // the goal, cannot be blocked: a diagonal one is always open.
                for j in 0..k - 1 {
                    let m = dr - (j + 1);
                    if m >= 0 && m <= j + extra && dc <= m {
                        safe = false;
                        break;
                    }
                }
                // Taking the runner on row advance+j, from a square diagonally ahead of it,
                // reached after j + extra - 1 moves.
                for j in (1 - extra)..k {
                    let m = dr - (j + 1);
                    if m >= 0 && m < j + extra && (dc - 1).abs() <= m {
                        safe = false;
                        break;
                    }
                }
            }
            if safe {
                best = Some(k as u32);
            }
        }
        best
    }

    /// Most forcing first: moves onto the row before the goal, then captures of the most advanced
    /// enemy pieces, then the furthest advances.
    fn order(&self, b: &Board, steps: &mut Steps) {
        let geo = self.geo;
        let me = b.stm;
        let pre = geo.pre_goal(me);
        steps.sort_unstable_by_key(|&s| {
            let to = 1u128 << s.to;
            let advance = geo.advance(me, s.to) as i32;
            let mut key = advance;
            if to & pre != 0 {
                key += 10_000;
            }
            if b.is_capture(s) {
                key += 1_000 + 50 * geo.advance(me ^ 1, s.to) as i32;
            }
            std::cmp::Reverse(key)
        });
    }
}

/// Moves `best` to the front, when it is among `steps`.
fn promote(steps: &mut Steps, best: Step) {
    if let Some(i) = steps.iter().position(|&s| s == best) {
        steps[..=i].rotate_right(1);
    }
}

/// The bit index of the square `advance` rows ahead of `side`'s home row, in column `col`.
fn square(geo: &Geometry, side: usize, advance: i32, col: i32) -> u32 {
    let row = if side == super::board::WHITE {
        advance
    } else {
        geo.rows as i32 - 1 - advance
    };
    (row * geo.cols as i32 + col) as u32
}
