//! Swiss rounds: the state of a Swiss tournament and the pairing of its next round.

use std::collections::{BTreeMap, BTreeSet};

use super::matching::Graph;
use super::{Bye, Entrant, Pairing, PairingError, PlayedGame, Round};
use crate::rules::Color;

/// What a Swiss round is paired from: the entrants in their seeding order (their initial rank,
/// which breaks every tie), who has withdrawn, the games played with their colours and results,
/// and the byes given.
///
/// Only the seeding order matters: games, byes and withdrawals may be recorded in any order and
/// pair the same round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SwissState {
    entrants: Vec<Entrant>,
    index: BTreeMap<Entrant, usize>,
    withdrawn: BTreeSet<Entrant>,
    games: Vec<PlayedGame>,
    byes: Vec<Bye>,
}

impl SwissState {
    /// A tournament with `entrants`, best seed first, and nothing played yet.
    ///
    /// # Errors
    ///
    /// [`PairingError::DuplicateEntrant`] when an entrant is listed twice.
    pub fn new(entrants: impl IntoIterator<Item = Entrant>) -> Result<SwissState, PairingError> {
        let mut state = SwissState::default();
        for e in entrants {
            if state.index.insert(e, state.entrants.len()).is_some() {
                return Err(PairingError::DuplicateEntrant(e));
            }
            state.entrants.push(e);
        }
        Ok(state)
    }

    fn check(&self, entrant: Entrant) -> Result<usize, PairingError> {
        self.index
            .get(&entrant)
            .copied()
            .ok_or(PairingError::UnknownEntrant(entrant))
    }

    /// Takes `entrant` out of the rounds still to pair; their games played stand.
    ///
    /// # Errors
    ///
    /// [`PairingError::UnknownEntrant`] when they are not in the tournament.
    pub fn withdraw(&mut self, entrant: Entrant) -> Result<(), PairingError> {
        self.check(entrant)?;
        self.withdrawn.insert(entrant);
        Ok(())
    }

    /// Records a game that has ended.
    ///
    /// # Errors
    ///
    /// [`PairingError::UnknownEntrant`] when a player is not in the tournament,
    /// [`PairingError::SamePlayer`] when both sides are the same entrant.
    pub fn record(&mut self, game: PlayedGame) -> Result<(), PairingError> {
        self.check(game.white)?;
        self.check(game.black)?;
        if game.white == game.black {
            return Err(PairingError::SamePlayer(game.white));
        }
        self.games.push(game);
        Ok(())
    }

    /// Records a bye.
    ///
    /// # Errors
    ///
    /// [`PairingError::UnknownEntrant`] when the entrant is not in the tournament.
    pub fn record_bye(&mut self, bye: Bye) -> Result<(), PairingError> {
        self.check(bye.entrant)?;
        self.byes.push(bye);
        Ok(())
    }

    /// The entrants, best seed first.
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    pub fn is_withdrawn(&self, entrant: Entrant) -> bool {
        self.withdrawn.contains(&entrant)
    }

    pub fn games(&self) -> &[PlayedGame] {
        &self.games
    }

    pub fn byes(&self) -> &[Bye] {
        &self.byes
    }

    /// The number of the round to pair next: one after the last round with a game or a bye.
    pub fn next_round(&self) -> u32 {
        let games = self.games.iter().map(|g| g.round);
        let byes = self.byes.iter().map(|b| b.round);
        games.chain(byes).max().map_or(1, |r| r.saturating_add(1))
    }

    /// `entrant`'s points: 1 a win, 1 a bye.
    pub fn points(&self, entrant: Entrant) -> u32 {
        let wins = self.games.iter().filter(|g| g.winner() == entrant).count();
        let byes = self.byes.iter().filter(|b| b.entrant == entrant).count();
        u32::try_from(wins + byes).unwrap_or(u32::MAX)
    }
}

/// The colour a player should get next, from the colours of their games so far, oldest first.
#[derive(Clone, Copy, Debug, Default)]
struct Due {
    /// The opposite of their last colour: colours alternate.
    want: Option<Color>,
    /// 2 when their last two games had the same colour (a third would be three in a row), else 1.
    strength: u8,
    /// How many games they played with the colour they want.
    had_wanted: usize,
}

impl Due {
    fn of(colours: &[Color]) -> Due {
        let Some(&last) = colours.last() else {
            return Due::default();
        };
        let want = last.opposite();
        let twice = colours.len() >= 2 && colours[colours.len() - 2] == last;
        Due {
            want: Some(want),
            strength: if twice { 2 } else { 1 },
            had_wanted: colours.iter().filter(|&&c| c == want).count(),
        }
    }

    /// Whether these two players must both get the same colour to avoid three in a row.
    fn clash_hard(self, other: Due) -> bool {
        self.strength == 2 && other.strength == 2 && self.want == other.want
    }
}

/// The colour the higher-ranked player `a` gets against `b` on board `board` (from 0): each gets
/// the colour they want (the opposite of their last); when both want the same, the one who would
/// otherwise have it three times in a row, then the one who had it less often, then the
/// higher-ranked player gets it. With no colours yet, the higher-ranked player has White on the
/// first board, Black on the second, and so on.
fn colour_for_higher(a: Due, b: Due, board: usize) -> Color {
    match (a.want, b.want) {
        (None, None) if board.is_multiple_of(2) => Color::White,
        (None, None) => Color::Black,
        (Some(c), None) => c,
        (None, Some(c)) => c.opposite(),
        (Some(ca), Some(cb)) if ca != cb => ca,
        (Some(c), Some(_)) => {
            let a_first = (a.strength, std::cmp::Reverse(a.had_wanted))
                >= (b.strength, std::cmp::Reverse(b.had_wanted));
            if a_first {
                c
            } else {
                c.opposite()
            }
        }
    }
}

/// Pairs the next round of a Swiss tournament (numbered [`SwissState::next_round`]).
///
/// The rules, in order of importance:
///
/// 1. Withdrawn players are not paired.
/// 2. With an odd number of players, the lowest-ranked player (fewest points, then lowest seed)
///    who has not had a bye gets one, worth 1 point; if everyone has had one, the lowest-ranked
///    of those with the fewest byes.
/// 3. Nobody meets an opponent a second time while the others can all be paired without a
///    rematch.
/// 4. Nobody gets the same colour three times in a row, unless only a rematch would avoid it.
/// 5. Score groups, from the top down: at each step down in points, the players above it who
///    are still unpaired pair among themselves whenever they can. When they are an odd number,
///    exactly one of them goes down whenever that is enough: the lowest-ranked who can, against
///    the highest-ranked below who can take them. When neither is possible (opponents already
///    met), they mix with the groups below, each preferring opponents with the closest points.
/// 6. Within a group, the top half meets the bottom half in order (first against the one
///    half-way down), preferring opponents who are due the other colour.
/// 7. Colours alternate: each player gets the opposite of their last colour; when both are due
///    the same one, it goes to the one who would otherwise have it three times in a row, then to
///    the one who had it less often, then to the higher-ranked.
///
/// The search is exact: a perfect matching (Edmonds' algorithm) decides whether everyone can
/// still be paired under rules 3 and 4 after each choice, so no greedy choice strands a player.
/// The same state always gives the same round: ties are broken by the seeding, never by chance.
///
/// # Errors
///
/// [`PairingError::TooFewPlayers`] when fewer than two players are still in the tournament.
pub fn swiss_round(state: &SwissState) -> Result<Round, PairingError> {
    let number = state.next_round();
    let n = state.entrants.len();
    let mut points = vec![0u32; n];
    let mut byes = vec![0u32; n];
    let mut met = vec![false; n * n];
    let mut colours: Vec<Vec<(u32, usize, Color)>> = vec![Vec::new(); n];
    for g in &state.games {
        let (Some(&w), Some(&b)) = (state.index.get(&g.white), state.index.get(&g.black)) else {
            continue;
        };
        met[w * n + b] = true;
        met[b * n + w] = true;
        colours[w].push((g.round, b, Color::White));
        colours[b].push((g.round, w, Color::Black));
        let winner = if g.winner == Color::White { w } else { b };
        points[winner] += 1;
    }
    for bye in &state.byes {
        if let Some(&i) = state.index.get(&bye.entrant) {
            points[i] += 1;
            byes[i] += 1;
        }
    }
    let dues: Vec<Due> = colours
        .iter_mut()
        .map(|c| {
            c.sort_unstable_by_key(|&(round, opponent, _)| (round, opponent));
            Due::of(&c.iter().map(|&(_, _, colour)| colour).collect::<Vec<_>>())
        })
        .collect();

    let mut ranked: Vec<usize> = (0..n)
        .filter(|&i| !state.withdrawn.contains(&state.entrants[i]))
        .collect();
    if ranked.len() < 2 {
        return Err(PairingError::TooFewPlayers(ranked.len()));
    }
    ranked.sort_by_key(|&i| (std::cmp::Reverse(points[i]), i));
    let mut bye = None;
    if ranked.len() % 2 == 1 {
        let fewest = ranked.iter().map(|&i| byes[i]).min().unwrap_or(0);
        if let Some(pos) = ranked.iter().rposition(|&i| byes[i] == fewest) {
            bye = Some(state.entrants[ranked.remove(pos)]);
        }
    }

    let players: Vec<Player> = ranked
        .iter()
        .map(|&i| Player {
            points: points[i],
            due: dues[i],
        })
        .collect();
    let met_local = |a: usize, b: usize| met[ranked[a] * n + ranked[b]];
    let pairs = pair(&players, met_local);
    let pairings = pairs
        .iter()
        .enumerate()
        .map(|(board, &(a, b))| {
            let (ea, eb) = (state.entrants[ranked[a]], state.entrants[ranked[b]]);
            match colour_for_higher(players[a].due, players[b].due, board) {
                Color::White => Pairing {
                    white: ea,
                    black: eb,
                },
                Color::Black => Pairing {
                    white: eb,
                    black: ea,
                },
            }
        })
        .collect();
    Ok(Round {
        number,
        pairings,
        bye,
    })
}

/// A player to pair, in rank order.
#[derive(Clone, Copy, Debug)]
struct Player {
    points: u32,
    due: Due,
}

/// Pairs `players` (an even number, best-ranked first) and returns the pairs as their indices,
/// the higher-ranked first, the pairs ordered by it.
fn pair(players: &[Player], met: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let m = players.len();
    let everyone = vec![true; m];
    // Rules 3 and 4, relaxed in this order until everyone can be paired; the last allows all.
    let mut chosen = None;
    for (rematches, triples) in [(false, false), (false, true), (true, false), (true, true)] {
        let mut graph = Graph::new(m);
        for a in 0..m {
            for b in a + 1..m {
                let ok = (rematches || !met(a, b))
                    && (triples || !players[a].due.clash_hard(players[b].due));
                graph.set(a, b, ok);
            }
        }
        if let Some(matching) = graph.perfect_matching(&everyone, &[]) {
            chosen = Some((graph, matching));
            break;
        }
    }
    let Some((mut graph, mut hint)) = chosen else {
        return Vec::new();
    };
    let mut alive = everyone;
    let mut pairs = Vec::with_capacity(m / 2);

    // Rule 5: at each boundary between score groups, from the top, as few crossings as can be.
    for b in 1..m {
        if players[b].points == players[b - 1].points {
            continue;
        }
        let above: Vec<usize> = (0..b).filter(|&i| alive[i]).collect();
        let below: Vec<usize> = (b..m).filter(|&i| alive[i]).collect();
        if above.is_empty() || below.is_empty() {
            continue;
        }
        let mut cut = graph.clone();
        for &t in &above {
            for &r in &below {
                cut.set(t, r, false);
            }
        }
        if above.len().is_multiple_of(2) {
            if let Some(matching) = cut.perfect_matching(&alive, &hint) {
                graph = cut;
                hint = matching;
            }
            continue;
        }
        // One player goes down: the lowest above who leaves the rest above pairable, against the
        // highest below who leaves the rest below pairable.
        let pairable_without = |side: &[usize], v: usize| {
            let mut mask = vec![false; m];
            for &i in side {
                mask[i] = i != v;
            }
            graph.perfect_matching(&mask, &hint).is_some()
        };
        let mut below_ok: BTreeMap<usize, bool> = BTreeMap::new();
        let mut floater = None;
        'down: for &t in above.iter().rev() {
            if !pairable_without(&above, t) {
                continue;
            }
            for &r in &below {
                if !graph.has(t, r) {
                    continue;
                }
                let ok = *below_ok
                    .entry(r)
                    .or_insert_with(|| pairable_without(&below, r));
                if ok {
                    floater = Some((t, r));
                    break 'down;
                }
            }
        }
        let Some((t, r)) = floater else { continue };
        alive[t] = false;
        alive[r] = false;
        if let Some(matching) = cut.perfect_matching(&alive, &hint) {
            graph = cut;
            hint = matching;
            pairs.push((t, r));
        } else {
            alive[t] = true;
            alive[r] = true;
        }
    }

    // Rule 6: the best-ranked player still unpaired takes their most suitable opponent that
    // leaves everyone else pairable.
    for p in 0..m {
        if !alive[p] {
            continue;
        }
        let group: Vec<usize> = (p..m)
            .filter(|&q| alive[q] && players[q].points == players[p].points)
            .collect();
        let half = group.len() / 2;
        let dutch = |q: usize| match group.iter().position(|&x| x == q) {
            Some(i) if i >= half => i - half,
            Some(i) => group.len() + (half - i),
            None => group.len() * 2 + q,
        };
        let mut candidates: Vec<usize> = (p + 1..m)
            .filter(|&q| alive[q] && graph.has(p, q))
            .collect();
        candidates.sort_by_key(|&q| {
            let (dp, dq) = (players[p].due, players[q].due);
            let clash = dp.want.is_some() && dp.want == dq.want;
            (
                players[p].points.abs_diff(players[q].points),
                clash,
                dutch(q),
            )
        });
        alive[p] = false;
        let mut partner = None;
        for q in candidates {
            if hint.get(p) == Some(&Some(q)) {
                partner = Some(q);
                alive[q] = false;
                break;
            }
            alive[q] = false;
            if let Some(matching) = graph.perfect_matching(&alive, &hint) {
                hint = matching;
                partner = Some(q);
                break;
            }
            alive[q] = true;
        }
        if let Some(q) = partner {
            pairs.push((p, q));
        }
    }
    pairs.sort_unstable();
    pairs
}
