//! Round robins: every pair once, the colours balanced.

use super::{Entrant, Pairing};

/// Every game of a round robin among `entrants`: each pair of entrants exactly once, ordered by
/// the first player's place in `entrants`, then their opponent's.
///
/// Colours: with an odd number of players, each plays White against the next half of the list
/// (counted round from the end to the start) and Black against the other half, so everyone has as
/// many games with each colour. With an even number, the others are paired that way among
/// themselves and the last player alternates colours against them, so nobody has more than one
/// game more with one colour than with the other.
///
/// An entrant listed twice is counted once; fewer than two entrants have no games.
///
/// ```
/// use breakthrough_bot::pairing::{round_robin, Entrant};
///
/// let games = round_robin(&[Entrant(1), Entrant(2), Entrant(3)]);
/// assert_eq!(games.len(), 3);
/// ```
pub fn round_robin(entrants: &[Entrant]) -> Vec<Pairing> {
    let mut players: Vec<Entrant> = Vec::with_capacity(entrants.len());
    for &e in entrants {
        if !players.contains(&e) {
            players.push(e);
        }
    }
    let n = players.len();
    // The odd core: all players but the last when there is an even number of them.
    let core = if n.is_multiple_of(2) {
        n.saturating_sub(1)
    } else {
        n
    };
    let half = core / 2;
    let mut games = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for (i, &a) in players.iter().enumerate() {
        for (j, &b) in players.iter().enumerate().skip(i + 1) {
            let a_white = if j < core {
                // b is within the next `half` players after a, counted round the core.
                j - i <= half
            } else {
                // b is the last of an even number: a plays White on every other game.
                i % 2 == 0
            };
            games.push(if a_white {
                Pairing { white: a, black: b }
            } else {
                Pairing { white: b, black: a }
            });
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_players_have_six_games_and_balanced_colours() {
        let players: Vec<Entrant> = (1..=4).map(Entrant).collect();
        let games = round_robin(&players);
        assert_eq!(games.len(), 6);
        for &p in &players {
            let white = games.iter().filter(|g| g.white == p).count();
            let black = games.iter().filter(|g| g.black == p).count();
            assert_eq!(white + black, 3);
            assert!(
                white.abs_diff(black) <= 1,
                "{p}: {white} white, {black} black"
            );
        }
    }
}
