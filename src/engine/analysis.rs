//! A look back at a game: the engine judges every position it went through, and from that each
//! move's evaluation before and after, the moves that threw the most away, and the move after
//! which the game was decided.
//!
//! Pure and synchronous, like the rest of the engine. Each position gets the same search
//! ([`ANALYSIS_BUDGET`]) and the same proof ([`ANALYSIS_PROOF_PLIES`], [`ANALYSIS_PROOF_NODES`]),
//! counted in positions and never in time, so an analysis is the same on every machine, busy or
//! not. Where the prover settles a position, its exact distance stands in for the search's: the
//! evaluations, the marks of proven wins and the wins a player let go all come from it.

use super::board::Board;
use super::prove::{prove, Proof};
use super::search::{Budget, Searcher, DECISIVE, WIN};
use crate::rules::{Color, IllegalMove, Move, Position};

/// The search each position gets: 250,000 positions (at least 3 plies deep), no wall clock. A
/// whole 8x8 game of 60 plies takes a few seconds on the 2-core development machine (measured by
/// `breakthrough-bot bench --analyze`); level 4 of the AI searches as much for each move it
/// plays.
pub const ANALYSIS_BUDGET: Budget = Budget {
    nodes: 250_000,
    min_depth: 3,
    max_depth: 64,
    max_millis: None,
    table: 1 << 18,
    ceiling: None,
};

/// How far the prover looks from each position of a game: wins and losses up to 9 plies (5 moves
/// of the winner).
pub const ANALYSIS_PROOF_PLIES: u32 = 9;

/// The positions the prover may look at for each position of a game: a count, not a time, so
/// that the proofs are the same on every machine.
pub const ANALYSIS_PROOF_NODES: u64 = 20_000;

/// The score (hundredths of a piece) at which a side's winning chance is 1 / (1 + e⁻¹), about
/// 73%: three ordinary pieces ahead. Win chances are `1 / (1 + e^(−score / WIN_CHANCE_SCALE))`.
pub const WIN_CHANCE_SCALE: f64 = 300.0;

/// What the engine thinks of a position for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Nothing proven: the search's score for this side, in hundredths of a piece.
    Score(i32),
    /// A forced win in this many of the side's own moves (1: with its next move; 0: it has won).
    Wins(u32),
    /// A forced loss: the other side wins in this many of its moves (0: it has won).
    Loses(u32),
}

impl Eval {
    /// A search score (from the side to move; beyond ±999,000 a forced result, `WIN` less the
    /// plies to the end) as an evaluation for the side to move.
    pub fn from_score(score: i32) -> Eval {
        // Plies to the end of the game, the winner's move included: odd for a win of the side to
        // move, even for a win of the other; each side's moves are every other ply.
        let moves = |plies: i32| u32::try_from(plies.max(0) + 1).unwrap_or(0) / 2;
        if score > DECISIVE {
            Eval::Wins(moves(WIN - score))
        } else if score < -DECISIVE {
            Eval::Loses(moves(WIN + score))
        } else {
            Eval::Score(score)
        }
    }

    /// A proof's result as an evaluation for the side to move; `None` when nothing is proven.
    pub fn from_proof(proof: Proof) -> Option<Eval> {
        match proof {
            // Plies to the end, the winner's move included: the winner moves every other ply.
            Proof::Win { plies, .. } => Some(Eval::Wins(plies.div_ceil(2))),
            Proof::Loss { plies } => Some(Eval::Loses(plies.div_ceil(2))),
            Proof::Unknown => None,
        }
    }

    /// The same position for the other side.
    pub fn flip(self) -> Eval {
        match self {
            Eval::Score(s) => Eval::Score(-s),
            Eval::Wins(n) => Eval::Loses(n),
            Eval::Loses(n) => Eval::Wins(n),
        }
    }

    /// The side's chance to win, from 0 to 1: certain either way when proven, else a logistic of
    /// the score (see [`WIN_CHANCE_SCALE`]).
    pub fn win_chance(self) -> f64 {
        match self {
            Eval::Score(s) => 1.0 / (1.0 + (-f64::from(s) / WIN_CHANCE_SCALE).exp()),
            Eval::Wins(_) => 1.0,
            Eval::Loses(_) => 0.0,
        }
    }
}

/// One position as the engine judged it: for the side to move, and the move it would play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// For the side to move.
    pub eval: Eval,
    /// `None` once the game is over.
    pub best: Option<Move>,
    /// What the prover established, for the side to move.
    pub proof: Proof,
    /// Positions searched and proved.
    pub nodes: u64,
}

/// Judges one position with [`ANALYSIS_BUDGET`] and proves it within [`ANALYSIS_PROOF_PLIES`]
/// and [`ANALYSIS_PROOF_NODES`]; a proven result, being exact, replaces the search's evaluation
/// and move. A finished game is lost for the side to move.
pub fn judge(position: &Position) -> Judged {
    if position.outcome().is_some() {
        return Judged {
            eval: Eval::Loses(0),
            best: None,
            proof: Proof::Loss { plies: 0 },
            nodes: 0,
        };
    }
    let proof = prove(position, ANALYSIS_PROOF_PLIES, ANALYSIS_PROOF_NODES);
    let searched = search(position);
    let best = match proof {
        Proof::Win { best, .. } => Some(best),
        _ => searched.best,
    };
    Judged {
        eval: Eval::from_proof(proof).unwrap_or(searched.eval),
        best,
        proof,
        // The prover's positions are not counted: it reports none.
        nodes: searched.nodes,
    }
}

/// The search's judgement of a position still being played.
fn search(position: &Position) -> Judged {
    let geo = position.size().geometry();
    let board = Board::from_position(position);
    let mut searcher = Searcher::new(geo, &ANALYSIS_BUDGET);
    let found = searcher.search(&board, &ANALYSIS_BUDGET, false);
    match found.root.first() {
        Some(&(step, score)) => Judged {
            eval: Eval::from_score(score),
            best: Some(board.move_of(geo, step)),
            proof: Proof::Unknown,
            nodes: found.nodes,
        },
        // No legal move: lost (the rules call it over first; kept for safety).
        None => Judged {
            eval: Eval::Loses(0),
            best: None,
            proof: Proof::Unknown,
            nodes: found.nodes,
        },
    }
}

/// Every position of a game: `start`, then the one after each move.
///
/// # Errors
///
/// The zero-based index of the first move that is not legal where it is played, and why.
pub fn positions(start: &Position, moves: &[Move]) -> Result<Vec<Position>, (usize, IllegalMove)> {
    let mut out = Vec::with_capacity(moves.len() + 1);
    out.push(*start);
    let mut at = *start;
    for (i, &mv) in moves.iter().enumerate() {
        at = at.play(mv).map_err(|e| (i, e))?;
        out.push(at);
    }
    Ok(out)
}

/// One move of a game, as the analysis sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlyReview {
    /// 1 for the first move of the game.
    pub ply: u32,
    pub side: Color,
    pub played: Move,
    /// For `side`, before the move, with the engine's best play.
    pub before: Eval,
    /// For `side`, after the move.
    pub after: Eval,
    /// The engine's move where this one was played.
    pub best: Option<Move>,
    /// The proven result after the move, when the prover settled it and the game goes on.
    pub proven: Option<Proven>,
    /// The win `side` had proven before the move and let go with it.
    pub missed: Option<Missed>,
}

/// A forced win the prover established: from this position on, `winner` wins in `moves` of its
/// own moves, however the other side defends, and no sooner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    pub winner: Color,
    pub moves: u32,
}

impl Proven {
    /// The winner of `position` by `proof` (for its side to move), if the proof settled it and the
    /// game is not over yet.
    pub fn of(position: &Position, proof: Proof) -> Option<Proven> {
        let (winner, plies) = match proof {
            Proof::Win { plies, .. } => (position.turn(), plies),
            Proof::Loss { plies } => (position.turn().opposite(), plies),
            Proof::Unknown => return None,
        };
        (plies > 0).then(|| Proven {
            winner,
            moves: plies.div_ceil(2),
        })
    }
}

/// A proven win a player let go: before its move it won by force in `moves` of its own moves,
/// starting with `win`, and after the move it played no win was proven for it any more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missed {
    pub moves: u32,
    pub win: Move,
}

impl PlyReview {
    /// How much of its winning chance the side gave away with this move (0 to 1); none when it
    /// played the engine's own move.
    pub fn loss(&self) -> f64 {
        if self.best == Some(self.played) {
            return 0.0;
        }
        (self.before.win_chance() - self.after.win_chance()).max(0.0)
    }
}

/// Where the game was decided: from this position on, one side's win stayed proven to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The move after which it was decided; 0 when it was from the start.
    pub ply: u32,
    pub winner: Color,
    /// The winner's moves from there to the win, with best play on both sides.
    pub moves: u32,
}

/// A whole game looked back at.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub plies: Vec<PlyReview>,
    pub decided: Option<Decided>,
    /// Positions searched, over the whole game.
    pub nodes: u64,
}

/// Moves that gave away less than this share of a side's winning chance are not mistakes.
pub const MISTAKE: f64 = 0.05;

impl Analysis {
    /// The review of a game from its positions (as [`positions`] gives them) and each judged (by
    /// [`judge`]), in the same order: one more position than moves.
    pub fn from_judged(positions: &[Position], judged: &[Judged], moves: &[Move]) -> Analysis {
        let plies = moves
            .iter()
            .enumerate()
            .filter_map(|(i, &played)| {
                let (before, after) = (judged.get(i)?, judged.get(i + 1)?);
                let after_eval = after.eval.flip();
                // The win was let go when, after the move, neither the prover nor the search
                // still finds one for the side that moved.
                let missed = match before.proof {
                    Proof::Win { plies, best }
                        if !matches!(after.proof, Proof::Loss { .. })
                            && !matches!(after_eval, Eval::Wins(_)) =>
                    {
                        Some(Missed {
                            moves: plies.div_ceil(2),
                            win: best,
                        })
                    }
                    _ => None,
                };
                Some(PlyReview {
                    ply: u32::try_from(i + 1).unwrap_or(u32::MAX),
                    side: positions.get(i)?.turn(),
                    played,
                    before: before.eval,
                    after: after_eval,
                    best: before.best,
                    proven: Proven::of(positions.get(i + 1)?, after.proof),
                    missed,
                })
            })
            .collect();
        Analysis {
            plies,
            decided: decided(positions, judged),
            nodes: judged.iter().map(|j| j.nodes).sum(),
        }
    }

    /// The moves that let a proven win go, in the order played.
    pub fn missed(&self) -> impl Iterator<Item = (&PlyReview, Missed)> + '_ {
        self.plies.iter().filter_map(|p| Some((p, p.missed?)))
    }

    /// Up to `n` of `side`'s moves that gave away the most (at least [`MISTAKE`] each), worst
    /// first; the earlier of two equal ones first.
    pub fn worst(&self, side: Color, n: usize) -> Vec<PlyReview> {
        let mut mistakes: Vec<PlyReview> = self
            .plies
            .iter()
            .filter(|p| p.side == side && p.loss() >= MISTAKE)
            .copied()
            .collect();
        mistakes.sort_by(|a, b| b.loss().total_cmp(&a.loss()).then(a.ply.cmp(&b.ply)));
        mistakes.truncate(n);
        mistakes
    }
}

/// The first position of the last unbroken run of proven wins for one side that lasts to the end
/// of the game: a win proven and then thrown away did not decide the game.
fn decided(positions: &[Position], judged: &[Judged]) -> Option<Decided> {
    let winner_at = |i: usize| {
        let turn = positions.get(i)?.turn();
        match judged.get(i)?.eval {
            Eval::Wins(n) => Some((turn, n)),
            Eval::Loses(n) => Some((turn.opposite(), n)),
            Eval::Score(_) => None,
        }
    };
    let last = judged.len().checked_sub(1)?;
    let (winner, _) = winner_at(last)?;
    let mut first = last;
    while first > 0 && winner_at(first - 1).is_some_and(|(w, _)| w == winner) {
        first -= 1;
    }
    let (_, moves) = winner_at(first)?;
    Some(Decided {
        ply: u32::try_from(first).unwrap_or(u32::MAX),
        winner,
        moves,
    })
}

/// Analyses a game from `start` through `moves`, every position judged in turn.
///
/// ```
/// use breakthrough_bot::engine::analysis::analyze;
/// use breakthrough_bot::rules::{replay, BoardSize};
///
/// let size: BoardSize = "3x5".parse().unwrap();
/// let (_, moves) = replay(size, ["a4-a3", "b2-b3"]).unwrap();
/// let review = analyze(&breakthrough_bot::rules::Position::new(size), &moves).unwrap();
/// assert_eq!(review.plies.len(), 2);
/// ```
///
/// # Errors
///
/// As [`positions`]: the first move that is not legal where it is played.
pub fn analyze(start: &Position, moves: &[Move]) -> Result<Analysis, (usize, IllegalMove)> {
    let positions = positions(start, moves)?;
    let judged: Vec<Judged> = positions.iter().map(judge).collect();
    Ok(Analysis::from_judged(&positions, &judged, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_scores_count_the_winners_moves() {
        assert_eq!(Eval::from_score(WIN - 1), Eval::Wins(1));
        assert_eq!(Eval::from_score(WIN - 3), Eval::Wins(2));
        assert_eq!(Eval::from_score(-(WIN - 2)), Eval::Loses(1));
        assert_eq!(Eval::from_score(-(WIN - 4)), Eval::Loses(2));
        assert_eq!(Eval::from_score(-WIN), Eval::Loses(0));
        assert_eq!(Eval::from_score(120), Eval::Score(120));
        assert_eq!(Eval::from_score(DECISIVE), Eval::Score(DECISIVE));
        assert_eq!(Eval::Wins(2).flip(), Eval::Loses(2));
    }

    #[test]
    fn win_chances_follow_the_scale() {
        assert!((Eval::Score(0).win_chance() - 0.5).abs() < 1e-9);
        let three_pieces = Eval::Score(300).win_chance();
        assert!((three_pieces - 0.731).abs() < 0.001, "{three_pieces}");
        assert!((Eval::Score(-300).win_chance() + three_pieces - 1.0).abs() < 1e-9);
        assert_eq!(Eval::Wins(4).win_chance(), 1.0);
        assert_eq!(Eval::Loses(4).win_chance(), 0.0);
    }
}
