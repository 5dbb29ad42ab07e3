//! Counting a vote game's window: the moves voted for, the leader, and how a tie is broken.
//! Pure: values in, values out.

use std::collections::HashMap;

use crate::rules::{Move, MoveText, Position};
use crate::store::VoteRow;

use super::Timestamp;

/// The votes of one window: each move voted for with its count, the leading first (a tie: the
/// move that reached its count first), and how many members voted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub moves: Vec<(Move, u32)>,
    pub voters: u32,
}

impl Tally {
    /// The move with the most votes, if any was cast.
    pub fn leader(&self) -> Option<(Move, u32)> {
        self.moves.first().copied()
    }
}

/// Counts `votes` (each legal at the position voted on): by count, then by the moment each move
/// reached its count (the latest of its votes' moments), then by notation.
pub fn tally(votes: &[(Move, Timestamp)]) -> Tally {
    let mut by_move: HashMap<Move, (u32, Timestamp)> = HashMap::new();
    // Oldest first: a move's count reaches its total at its last vote.
    let mut sorted: Vec<&(Move, Timestamp)> = votes.iter().collect();
    sorted.sort_by_key(|(_, at)| *at);
    for (mv, at) in sorted {
        let entry = by_move.entry(*mv).or_insert((0, *at));
        entry.0 += 1;
        entry.1 = *at;
    }
    let mut moves: Vec<(Move, u32, Timestamp)> = by_move
        .into_iter()
        .map(|(mv, (count, reached))| (mv, count, reached))
        .collect();
    moves.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(a.2.cmp(&b.2))
            .then(a.0.to_string().cmp(&b.0.to_string()))
    });
    Tally {
        moves: moves.into_iter().map(|(mv, n, _)| (mv, n)).collect(),
        voters: u32::try_from(votes.len()).unwrap_or(u32::MAX),
    }
}

/// The moves of `rows` as they read in `position` (a vote that does not read is left out: none
/// is written that way).
pub(super) fn read_votes(position: &Position, rows: &[VoteRow]) -> Vec<(Move, Timestamp)> {
    rows.iter()
        .filter_map(|v| {
            let text: MoveText = v.notation.parse().ok()?;
            let mv = text.resolve(position).ok()?;
            Some((mv, v.voted_at))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardSize;

    fn mv(s: &str) -> Move {
        let position = Position::new(BoardSize::DEFAULT);
        s.parse::<MoveText>().unwrap().resolve(&position).unwrap()
    }

    fn at(ms: i64) -> Timestamp {
        Timestamp::from_unix_millis(ms)
    }

    #[test]
    fn the_most_voted_move_leads_and_a_tie_goes_to_the_move_that_reached_its_count_first() {
        let (a, b, c) = (mv("a7-a6"), mv("b7-b6"), mv("c7-c6"));
        let t = tally(&[(a, at(1)), (b, at(2)), (a, at(3)), (c, at(4)), (b, at(5))]);
        // a and b have two each; a reached two at 3, b at 5.
        assert_eq!(t.moves, vec![(a, 2), (b, 2), (c, 1)]);
        assert_eq!(t.leader(), Some((a, 2)));
        assert_eq!(t.voters, 5);
        let t = tally(&[(b, at(1)), (a, at(2))]);
        assert_eq!(t.leader(), Some((b, 1)));
        assert_eq!(tally(&[]).leader(), None);
    }
}
