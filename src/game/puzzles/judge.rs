//! What the prover says about a move in a puzzle: whether it is right, the defender's most
//! stubborn reply, and the winning line shown when a move is wrong. Pure and synchronous: the
//! service runs it off the async threads.

use crate::engine::{prove, Proof, PROOF_NODES};
use crate::rules::{Move, Position};

/// What became of the attacker's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// The move won the game.
    Won { after: Position },
    /// The move keeps a win within the plies left: the defender's most stubborn `reply`, and
    /// the position after it.
    Right { reply: Move, after: Position },
    /// The move lets the win go (or is not the one first move): the winning line from the
    /// position before it, and where that line ends.
    Wrong { line: Vec<Move>, end: Position },
}

/// Whether the attacker won in `position` (the game over, the defender to move).
fn attacker_won(position: &Position) -> bool {
    position
        .outcome()
        .is_some_and(|o| o.winner != position.turn())
}

/// Judges `mv`, played in `position` (the attacker to move) with `remaining` plies of the puzzle
/// left. On the puzzle's first move only `first`, its stored solution, is right; later, any move
/// after which the defender is proven lost within the plies left.
pub(super) fn answer(position: &Position, mv: Move, remaining: u32, first: Option<Move>) -> Answer {
    let Ok(after) = position.play(mv) else {
        return wrong(position, remaining, first);
    };
    if first.is_some_and(|f| f != mv) {
        return wrong(position, remaining, first);
    }
    if attacker_won(&after) {
        return Answer::Won { after };
    }
    let left = remaining.saturating_sub(1);
    // How long the defender holds out at most. The stored first move is right whatever a
    // bounded proof finds; a later move, when the prover shows the defender lost in time.
    let holds = if first.is_some() {
        left
    } else {
        match prove(&after, left, PROOF_NODES) {
            Proof::Loss { plies } if plies <= left => plies,
            _ => return wrong(position, remaining, first),
        }
    };
    let reply = stubborn(&after, holds.saturating_sub(1));
    match reply.and_then(|reply| Some((reply, after.play(reply).ok()?))) {
        Some((reply, after)) => Answer::Right { reply, after },
        None => wrong(position, remaining, first),
    }
}

fn wrong(position: &Position, remaining: u32, first: Option<Move>) -> Answer {
    let (line, end) = solution(position, remaining, first);
    Answer::Wrong { line, end }
}

/// The defender's most stubborn reply in `after` (the defender to move), the attacker having
/// `left` plies after it: the reply after which the attacker's proven win is longest (a reply
/// the prover cannot settle counts as longest of all); of equals, the first in the order the
/// rules list moves, so the bot always answers the same. `None` when the defender has no move.
pub(super) fn stubborn(after: &Position, left: u32) -> Option<Move> {
    let mut best: Option<(u32, Move)> = None;
    for reply in after.legal_moves() {
        let Ok(next) = after.play(reply) else {
            continue;
        };
        let length = if next.outcome().is_some() {
            0
        } else {
            match prove(&next, left, PROOF_NODES) {
                Proof::Win { plies, .. } => plies,
                _ => u32::MAX,
            }
        };
        if best.is_none_or(|(longest, _)| length > longest) {
            best = Some((length, reply));
        }
    }
    best.map(|(_, reply)| reply)
}

/// The winning line from `position` (the attacker to move, `remaining` plies left): the stored
/// first move when given (else the prover's), each stubborn reply, and the prover's winning
/// move after it, to the end; with the position it ends in.
pub(super) fn solution(
    position: &Position,
    remaining: u32,
    first: Option<Move>,
) -> (Vec<Move>, Position) {
    let mut line = Vec::new();
    let mut at = *position;
    let mut left = remaining;
    let mut next = first;
    loop {
        let mv = match next.take() {
            Some(mv) => mv,
            None => match prove(&at, left, PROOF_NODES) {
                Proof::Win { best, .. } => best,
                _ => break,
            },
        };
        let Ok(after) = at.play(mv) else {
            break;
        };
        line.push(mv);
        at = after;
        if at.outcome().is_some() || left < 3 {
            break;
        }
        let Some(reply) = stubborn(&at, left - 2) else {
            break;
        };
        let Ok(after) = at.play(reply) else {
            break;
        };
        line.push(reply);
        at = after;
        left -= 2;
    }
    (line, at)
}
