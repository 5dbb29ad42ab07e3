//! The prover against an exhaustive search written here, independently of the engine: on random
//! positions of 5x5, 6x5 and 5x6 (reached by random play, and with a few pieces each so that many
//! are decided), every claim and every distance must be the true one, and every winning move must
//! win in exactly the plies claimed.

use std::collections::HashMap;

use breakthrough_bot::engine::{prove, Proof};
use breakthrough_bot::rules::{BoardSize, Color, Position, Setup};

/// Positions of each size reached by random play, and with few pieces.
const PLAYED: usize = 12;
const SPARSE: usize = 40;

/// A node budget the prover never reaches on these small boards, so that "unknown" can only mean
/// "not decided within the bound".
const NODES: u64 = 1 << 40;

/// The true result of a position, from the side to move, as far as the oracle looked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Truth {
    /// Wins in exactly this many plies (odd) with best play on both sides.
    Win(u32),
    /// Loses in exactly this many plies (even; 0: the game is over).
    Loss(u32),
    /// Neither within the plies asked for.
    Beyond,
}

/// What the oracle knows of a position: its exact distance, or that there is none within `depth`.
#[derive(Clone, Copy)]
enum Known {
    Exact(Truth),
    NotWithin(u32),
}

/// Minimax distances by plain recursion over the rules, remembering each position it has solved.
/// Breakthrough never repeats a position (every move goes forward), so the recursion ends.
#[derive(Default)]
struct Oracle {
    memo: HashMap<Position, Known>,
}

impl Oracle {
    /// The true result of `p` if it is decided within `depth` plies, else `Beyond`.
    fn solve(&mut self, p: &Position, depth: u32) -> Truth {
        if p.outcome().is_some() {
            return Truth::Loss(0);
        }
        match self.memo.get(p) {
            Some(&Known::Exact(t)) => {
                let plies = match t {
                    Truth::Win(n) | Truth::Loss(n) => n,
                    Truth::Beyond => unreachable!("only decided results are exact"),
                };
                return if plies <= depth { t } else { Truth::Beyond };
            }
            Some(&Known::NotWithin(d)) if d >= depth => return Truth::Beyond,
            _ => {}
        }
        if depth == 0 {
            return Truth::Beyond;
        }
        let children: Vec<Position> = p
            .legal_moves()
            .iter()
            .map(|&mv| p.play(mv).unwrap())
            .collect();
        // A win on the spot is the shortest there is.
        let truth = if children.iter().any(|c| c.outcome().is_some()) {
            Truth::Win(1)
        } else {
            // Once a win in n is found, only shorter ones matter: the other moves are searched to
            // a depth of n - 2.
            let mut limit = depth - 1;
            let mut fastest_win: Option<u32> = None;
            let mut slowest_loss = 0;
            let mut all_lose = true;
            for child in &children {
                match self.solve(child, limit) {
                    Truth::Loss(k) => {
                        fastest_win = Some(k + 1);
                        limit = k.saturating_sub(1);
                        all_lose = false;
                    }
                    Truth::Win(k) => slowest_loss = slowest_loss.max(k + 1),
                    Truth::Beyond => all_lose = false,
                }
            }
            match fastest_win {
                Some(n) => Truth::Win(n),
                None if all_lose => Truth::Loss(slowest_loss),
                None => Truth::Beyond,
            }
        };
        let known = match truth {
            Truth::Beyond => Known::NotWithin(depth),
            t => Known::Exact(t),
        };
        self.memo.insert(*p, known);
        truth
    }
}

/// A small deterministic generator (splitmix64), so that the positions are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A position reached by random play from the start, if the game is still going after it.
fn played(size: BoardSize, rng: &mut Rng) -> Option<Position> {
    let plies = 4 + rng.below(3 * usize::from(size.rows()));
    let mut p = Position::new(size);
    for _ in 0..plies {
        let moves = p.legal_moves();
        p = p.play(*moves.get(rng.below(moves.len().max(1)))?).unwrap();
    }
    p.outcome().is_none().then_some(p)
}

/// A position with one to five pieces a side on random squares, if that is a position at all
/// and the side to move cannot win on the spot.
fn sparse(size: BoardSize, rng: &mut Rng) -> Option<Position> {
    let mut squares: Vec<_> = size.squares_iter().collect();
    let mut take = |n: usize, rng: &mut Rng| -> Vec<_> {
        (0..n)
            .map(|_| squares.swap_remove(rng.below(squares.len())))
            .collect()
    };
    let black = take(1 + rng.below(5), rng);
    let white = take(1 + rng.below(5), rng);
    let turn = if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    let setup = Setup {
        size,
        black,
        white,
        turn,
    };
    // A win on the spot is too easy to be worth many checks: such positions are left out.
    Position::try_from(&setup).ok().filter(|p| {
        p.outcome().is_none()
            && !p
                .legal_moves()
                .iter()
                .any(|&mv| p.play(mv).unwrap().outcome().is_some())
    })
}

/// A maker of random positions, `None` when its attempt is no position it wants.
type Make = fn(BoardSize, &mut Rng) -> Option<Position>;

/// `n` positions of `size` made by `make`.
fn positions(size: BoardSize, n: usize, rng: &mut Rng, make: Make) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < n {
        out.extend(make(size, rng));
    }
    out
}

/// Checks the prover on `p` against the oracle; returns the truth for the tally.
fn check(oracle: &mut Oracle, p: &Position, bound: u32) -> Truth {
    let truth = oracle.solve(p, bound);
    let proof = prove(p, bound, NODES);
    match (proof, truth) {
        (Proof::Win { plies, best }, Truth::Win(n)) => {
            assert_eq!(plies, n, "{p}: the prover says win in {plies}, truly {n}");
            let after = p
                .play(best)
                .unwrap_or_else(|e| panic!("{p}: the winning move {best} is illegal: {e}"));
            assert_eq!(
                oracle.solve(&after, bound),
                Truth::Loss(n - 1),
                "{p}: {best} does not win in exactly {n}"
            );
        }
        (Proof::Loss { plies }, Truth::Loss(n)) => {
            assert_eq!(plies, n, "{p}: the prover says loss in {plies}, truly {n}");
        }
        (Proof::Unknown, Truth::Beyond) => {}
        (proof, truth) => panic!("{p}: the prover says {proof:?}, the truth is {truth:?}"),
    }
    // One ply short of the true distance, nothing is decided.
    if let Truth::Win(n) | Truth::Loss(n) = truth {
        if n > 0 {
            let short = prove(p, n - 1, NODES);
            assert_eq!(short, Proof::Unknown, "{p}: within {} plies", n - 1);
        }
    }
    truth
}

#[test]
fn the_prover_agrees_with_exhaustive_search_on_small_boards() {
    // Positions of the middle game are checked to 5 plies, those with few pieces to 9: the
    // exhaustive search must stay quick in an unoptimised test build.
    let kinds: [(usize, u32, Make); 2] = [(PLAYED, 5, played), (SPARSE, 9, sparse)];
    let mut tally: HashMap<&str, usize> = HashMap::new();
    let mut checked = 0;
    for (size, seed) in [("5x5", 1), ("6x5", 2), ("5x6", 3)] {
        let size: BoardSize = size.parse().unwrap();
        let mut rng = Rng(seed);
        // One oracle per size: its memo is shared by the positions of that size.
        let mut oracle = Oracle::default();
        for (n, bound, make) in kinds {
            for p in positions(size, n, &mut rng, make) {
                let kind = match check(&mut oracle, &p, bound) {
                    Truth::Win(_) => "win",
                    Truth::Loss(_) => "loss",
                    Truth::Beyond => "unknown",
                };
                *tally.entry(kind).or_default() += 1;
                checked += 1;
            }
        }
    }
    eprintln!("{tally:?}");
    assert_eq!(checked, 3 * (PLAYED + SPARSE));
    // The sample must exercise every answer, or the check proves little.
    for kind in ["win", "loss", "unknown"] {
        assert!(tally.get(kind).copied().unwrap_or(0) >= 10, "{tally:?}");
    }
}

#[test]
fn the_top_levels_convert_a_proven_win_by_the_shortest_route() {
    use breakthrough_bot::engine::{best_move, Level};
    // Positions of 6x6 reached by random play in which the side to move wins by force in 3 or 5
    // plies, not on the spot.
    let size: BoardSize = "6x6".parse().unwrap();
    let mut rng = Rng(29);
    let mut won = Vec::new();
    while won.len() < 8 {
        let Some(p) = played(size, &mut rng) else {
            continue;
        };
        if let Proof::Win { plies, .. } = prove(&p, 5, NODES) {
            if plies >= 3 {
                won.push((p, plies));
            }
        }
    }
    for (p, n) in won {
        for level in [Level::new(4).unwrap(), Level::MAX] {
            let mv = best_move(&p, level, 0).unwrap();
            let after = p.play(mv).unwrap();
            assert_eq!(
                prove(&after, 5, NODES),
                Proof::Loss { plies: n - 1 },
                "{p}: level {level} played {mv}, not a win in {n}"
            );
        }
    }
}
