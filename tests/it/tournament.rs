//! The pairing and scoring of tournaments: round robins checked for every size, Swiss rounds
//! simulated with random results and checked against an exhaustive search, and tie-breaks worked
//! by hand.

use std::collections::BTreeSet;

use breakthrough_bot::pairing::{
    default_rounds, round_robin, standings, swiss_round, Bye, Entrant, Format, PairingError,
    PlayedGame, Round, Standing, SwissState, TieBreak,
};
use breakthrough_bot::rules::Color;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// A small deterministic generator (64-bit LCG), so each proptest seed replays the same events.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound.max(1)
    }
}

fn won(round: u32, winner: u64, loser: u64) -> PlayedGame {
    PlayedGame {
        round,
        white: Entrant(winner),
        black: Entrant(loser),
        winner: Color::White,
        on_time: false,
    }
}

fn check_round_robin(players: &[Entrant]) -> Result<(), TestCaseError> {
    let games = round_robin(players);
    let n = players.len();
    prop_assert_eq!(games.len(), n * (n - 1) / 2);
    let mut seen = BTreeSet::new();
    for g in &games {
        prop_assert!(g.white != g.black);
        prop_assert!(players.contains(&g.white) && players.contains(&g.black));
        let key = (g.white.min(g.black), g.white.max(g.black));
        prop_assert!(seen.insert(key), "{:?} pairs twice", key);
    }
    for &p in players {
        let white = games.iter().filter(|g| g.white == p).count();
        let black = games.iter().filter(|g| g.black == p).count();
        prop_assert_eq!(white + black, n - 1);
        prop_assert!(
            white.abs_diff(black) <= 1,
            "{p}: {white} white, {black} black"
        );
    }
    Ok(())
}

#[test]
fn round_robins_of_every_size_pair_each_pair_once_with_balanced_colours() {
    for n in 3..=32u64 {
        let players: Vec<Entrant> = (1..=n).map(Entrant).collect();
        check_round_robin(&players).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any ids, in any order.
    #[test]
    fn round_robins_pair_any_entrants_once_with_balanced_colours(
        ids in prop::collection::btree_set(any::<u64>(), 3..=32),
        seed in any::<u64>(),
    ) {
        let mut players: Vec<Entrant> = ids.into_iter().map(Entrant).collect();
        let mut rng = Lcg(seed);
        for i in (1..players.len()).rev() {
            let j = rng.next(i as u64 + 1) as usize;
            players.swap(i, j);
        }
        check_round_robin(&players)?;
    }
}

/// Every way to pair `players` (an even number).
fn all_pairings(players: &[Entrant]) -> Vec<Vec<(Entrant, Entrant)>> {
    let Some((&first, rest)) = players.split_first() else {
        return vec![Vec::new()];
    };
    let mut all = Vec::new();
    for i in 0..rest.len() {
        let mut others = rest.to_vec();
        let partner = others.remove(i);
        for mut pairing in all_pairings(&others) {
            pairing.push((first, partner));
            all.push(pairing);
        }
    }
    all
}

fn met(state: &SwissState, a: Entrant, b: Entrant) -> bool {
    state.games().iter().any(|g| g.opponent_of(a) == Some(b))
}

/// A player's colours so far, oldest first.
fn colours(state: &SwissState, e: Entrant) -> Vec<Color> {
    let mut games: Vec<&PlayedGame> = state
        .games()
        .iter()
        .filter(|g| g.color_of(e).is_some())
        .collect();
    games.sort_by_key(|g| g.round);
    games.iter().filter_map(|g| g.color_of(e)).collect()
}

/// The colour both players must avoid, if both had it in their last two games.
fn must_avoid(state: &SwissState, e: Entrant) -> Option<Color> {
    match colours(state, e).as_slice() {
        [.., a, b] if a == b => Some(*a),
        _ => None,
    }
}

fn byes_of(state: &SwissState, e: Entrant) -> usize {
    state.byes().iter().filter(|b| b.entrant == e).count()
}

/// Checks a round against the rules, with an exhaustive search where the rules ask "if possible".
fn check_swiss_round(state: &SwissState, round: &Round) -> Result<(), TestCaseError> {
    let active: Vec<Entrant> = state
        .entrants()
        .iter()
        .copied()
        .filter(|&e| !state.is_withdrawn(e))
        .collect();
    let seed = |e: Entrant| state.entrants().iter().position(|&x| x == e);

    // Everyone still in plays once or has the bye; nobody withdrawn plays.
    let mut paired: Vec<Entrant> = round
        .pairings
        .iter()
        .flat_map(|p| [p.white, p.black])
        .collect();
    paired.extend(round.bye);
    paired.sort();
    let mut expected = active.clone();
    expected.sort();
    prop_assert_eq!(&paired, &expected);
    prop_assert_eq!(round.bye.is_some(), active.len() % 2 == 1);
    prop_assert_eq!(round.number, state.next_round());

    // The bye: the lowest-ranked of those with the fewest byes, never a second while someone has
    // none.
    if let Some(bye) = round.bye {
        let fewest = active.iter().map(|&e| byes_of(state, e)).min().unwrap();
        let lowest = active
            .iter()
            .copied()
            .filter(|&e| byes_of(state, e) == fewest)
            .max_by_key(|&e| (std::cmp::Reverse(state.points(e)), seed(e)));
        prop_assert_eq!(Some(bye), lowest);
    }

    let players: Vec<Entrant> = active
        .iter()
        .copied()
        .filter(|&e| Some(e) != round.bye)
        .collect();
    let candidates = all_pairings(&players);
    let rematch = |a: Entrant, b: Entrant| met(state, a, b);
    let triple = |a: Entrant, b: Entrant| {
        must_avoid(state, a).is_some() && must_avoid(state, a) == must_avoid(state, b)
    };
    let clean = |p: &[(Entrant, Entrant)]| p.iter().all(|&(a, b)| !rematch(a, b));
    let strict: Vec<&Vec<(Entrant, Entrant)>> = candidates
        .iter()
        .filter(|p| p.iter().all(|&(a, b)| !rematch(a, b) && !triple(a, b)))
        .collect();

    // No avoidable rematch.
    if candidates.iter().any(|p| clean(p)) {
        for p in &round.pairings {
            prop_assert!(!rematch(p.white, p.black), "avoidable rematch {:?}", p);
        }
    }

    // Colours: nobody three times in a row when it can be avoided without a rematch; a player
    // repeats their last colour only when their opponent had that colour last too.
    for p in &round.pairings {
        for (me, other, colour) in [
            (p.white, p.black, Color::White),
            (p.black, p.white, Color::Black),
        ] {
            if !strict.is_empty() {
                prop_assert!(
                    must_avoid(state, me) != Some(colour),
                    "{me} has {colour} three times"
                );
            }
            if colours(state, me).last() == Some(&colour) {
                prop_assert_eq!(
                    colours(state, other).last().copied(),
                    Some(colour),
                    "{} repeats {}",
                    me,
                    colour
                );
            }
        }
    }

    // Score groups: the top group pairs within itself (an odd one sends exactly one player
    // down) whenever that is possible without rematches or three colours in a row.
    if let Some(top) = players.iter().map(|&e| state.points(e)).max() {
        let in_top = |e: Entrant| state.points(e) == top;
        let crossing = |pairs: &mut dyn Iterator<Item = (Entrant, Entrant)>| {
            pairs.filter(|&(a, b)| in_top(a) != in_top(b)).count()
        };
        let least = players.iter().filter(|&&e| in_top(e)).count() % 2;
        let possible = strict
            .iter()
            .any(|p| crossing(&mut p.iter().copied()) == least);
        if possible {
            let got = crossing(&mut round.pairings.iter().map(|p| (p.white, p.black)));
            prop_assert_eq!(got, least, "the top group of {} points", top);
        }
    }

    // Determinism: again, and from the same state recorded in another order.
    prop_assert_eq!(&swiss_round(state).unwrap(), round);
    let mut reordered = SwissState::new(state.entrants().iter().copied()).unwrap();
    for &g in state.games().iter().rev() {
        reordered.record(g).unwrap();
    }
    for &b in state.byes().iter().rev() {
        reordered.record_bye(b).unwrap();
    }
    for &e in state.entrants().iter().rev() {
        if state.is_withdrawn(e) {
            reordered.withdraw(e).unwrap();
        }
    }
    prop_assert_eq!(&swiss_round(&reordered).unwrap(), round);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Swiss tournaments of up to 10 players with random results and withdrawals, each round
    /// checked against the rules.
    #[test]
    fn swiss_rounds_follow_the_rules_round_after_round(
        n in 3u64..=10,
        rounds in 1u32..=7,
        seed in any::<u64>(),
    ) {
        let mut rng = Lcg(seed);
        let mut state = SwissState::new((1..=n).map(|i| Entrant(i * 7))).unwrap();
        for _ in 0..rounds {
            let active: Vec<Entrant> = state
                .entrants()
                .iter()
                .copied()
                .filter(|&e| !state.is_withdrawn(e))
                .collect();
            if active.len() > 3 && rng.next(5) == 0 {
                state.withdraw(active[rng.next(active.len() as u64) as usize]).unwrap();
            }
            let round = swiss_round(&state).unwrap();
            check_swiss_round(&state, &round)?;
            for p in &round.pairings {
                let winner = if rng.next(2) == 0 { Color::White } else { Color::Black };
                state
                    .record(PlayedGame { round: round.number, white: p.white, black: p.black, winner, on_time: false })
                    .unwrap();
            }
            if let Some(entrant) = round.bye {
                state.record_bye(Bye { round: round.number, entrant }).unwrap();
            }
        }
    }
}

#[test]
fn a_score_group_pairs_within_itself_around_a_rematch() {
    let mut state = SwissState::new((1..=8).map(Entrant)).unwrap();
    let game = |round, white, black, white_wins: bool| PlayedGame {
        round,
        white: Entrant(white),
        black: Entrant(black),
        winner: if white_wins {
            Color::White
        } else {
            Color::Black
        },
        on_time: false,
    };
    for g in [
        game(1, 2, 4, true),
        game(1, 5, 1, false),
        game(1, 3, 6, true),
        game(1, 7, 8, true),
        game(2, 4, 7, true),
        game(2, 1, 6, true),
        game(2, 5, 2, false),
        game(2, 8, 3, false),
        game(3, 8, 4, false),
    ] {
        state.record(g).unwrap();
    }
    // 1, 2, 3 and 4 lead with 2 points. The usual 1-3 and 2-4 would repeat 2-4, and 1-3 with
    // 2 and 4 dropping to the next group would split the group: 1-4 and 2-3 keep it whole.
    let round = swiss_round(&state).unwrap();
    assert_eq!(round.number, 4);
    let top: Vec<(u64, u64)> = round
        .pairings
        .iter()
        .filter(|p| p.white.0 <= 4 || p.black.0 <= 4)
        .map(|p| (p.white.0, p.black.0))
        .collect();
    // Colours: 4 had Black last and 1 White; 2 and 3 both had Black last, and the
    // higher-ranked 2 gets White.
    assert_eq!(top, vec![(4, 1), (2, 3)]);
}

#[test]
fn five_players_each_get_a_bye_before_anyone_gets_a_second() {
    let mut state = SwissState::new((1..=5).map(Entrant)).unwrap();
    let mut byes = Vec::new();
    for _ in 0..6 {
        let round = swiss_round(&state).unwrap();
        for p in &round.pairings {
            // The better seed wins.
            let winner = if p.white < p.black {
                Color::White
            } else {
                Color::Black
            };
            let game = PlayedGame {
                round: round.number,
                white: p.white,
                black: p.black,
                winner,
                on_time: false,
            };
            state.record(game).unwrap();
        }
        let entrant = round.bye.unwrap();
        state
            .record_bye(Bye {
                round: round.number,
                entrant,
            })
            .unwrap();
        byes.push(entrant.0);
    }
    // Round 1: the lowest seed; then always the lowest-ranked of those without one.
    assert_eq!(byes[0], 5);
    let first_five: BTreeSet<u64> = byes[..5].iter().copied().collect();
    assert_eq!(first_five.len(), 5, "byes {byes:?}");
}

#[test]
fn withdrawn_players_are_not_paired_and_two_players_are_needed() {
    let mut state = SwissState::new((1..=4).map(Entrant)).unwrap();
    state.withdraw(Entrant(2)).unwrap();
    let round = swiss_round(&state).unwrap();
    assert_eq!(round.pairings.len(), 1);
    assert!(round.pairings.iter().all(|p| !p.has(Entrant(2))));
    assert_eq!(round.bye, Some(Entrant(4)));
    state.withdraw(Entrant(1)).unwrap();
    state.withdraw(Entrant(3)).unwrap();
    assert_eq!(swiss_round(&state), Err(PairingError::TooFewPlayers(1)));
}

#[test]
fn a_swiss_state_refuses_strangers_and_repeats() {
    assert_eq!(
        SwissState::new([Entrant(1), Entrant(2), Entrant(1)]),
        Err(PairingError::DuplicateEntrant(Entrant(1)))
    );
    let mut state = SwissState::new([Entrant(1), Entrant(2)]).unwrap();
    assert_eq!(
        state.withdraw(Entrant(3)),
        Err(PairingError::UnknownEntrant(Entrant(3)))
    );
    assert_eq!(
        state.record(won(1, 1, 9)),
        Err(PairingError::UnknownEntrant(Entrant(9)))
    );
    assert_eq!(
        state.record(won(1, 2, 2)),
        Err(PairingError::SamePlayer(Entrant(2)))
    );
    let bye = Bye {
        round: 1,
        entrant: Entrant(5),
    };
    assert_eq!(
        state.record_bye(bye),
        Err(PairingError::UnknownEntrant(Entrant(5)))
    );
    assert!(state.games().is_empty());
}

#[test]
fn round_one_pairs_the_top_half_against_the_bottom_half() {
    let state = SwissState::new((1..=6).map(Entrant)).unwrap();
    let round = swiss_round(&state).unwrap();
    assert_eq!(round.number, 1);
    let pairs: Vec<(u64, u64)> = round
        .pairings
        .iter()
        .map(|p| (p.white.0, p.black.0))
        .collect();
    // 1-4, 2-5, 3-6, the higher seed White on the first board, Black on the second, and so on.
    assert_eq!(pairs, vec![(1, 4), (5, 2), (3, 6)]);
}

#[test]
fn default_rounds_are_log2_rounded_up_plus_one() {
    let got: Vec<u32> = [0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 128]
        .map(default_rounds)
        .to_vec();
    assert_eq!(got, vec![1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 8]);
}

fn table(s: &[Standing]) -> Vec<(u64, u32, Vec<TieBreak>)> {
    s.iter()
        .map(|l| (l.entrant.0, l.points, l.tie_breaks.clone()))
        .collect()
}

#[test]
fn round_robin_ties_go_to_the_direct_encounter_before_sonneborn_berger() {
    let players: Vec<Entrant> = (1..=4).map(Entrant).collect();
    // 1 beats 2 and 3, 4 beats 1 and 2, 2 beats 3, 3 beats 4.
    let games = [
        won(1, 1, 2),
        won(1, 1, 3),
        won(1, 4, 1),
        won(1, 2, 3),
        won(1, 4, 2),
        won(1, 3, 4),
    ];
    let s = standings(Format::RoundRobin, &players, &games, &[]);
    use TieBreak::{DirectEncounter as D, LostOnTime as T, SonnebornBerger as SB};
    assert_eq!(
        table(&s),
        vec![
            (4, 2, vec![D(1), SB(3), T(0)]),
            (1, 2, vec![D(0), SB(2), T(0)]),
            // 3 has more Sonneborn-Berger, but 2 beat 3.
            (2, 1, vec![D(1), SB(1), T(0)]),
            (3, 1, vec![D(0), SB(2), T(0)]),
        ]
    );
    assert_eq!(
        s.iter().map(|l| l.rank).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(s.iter().all(|l| l.played == 3 && l.left == Some(0)));
}

#[test]
fn round_robin_ties_go_to_sonneborn_berger_then_fewer_losses_on_time() {
    let players: Vec<Entrant> = (1..=5).map(Entrant).collect();
    let mut games = vec![
        // 1, 2 and 3 beat each other in a circle.
        won(1, 1, 2),
        won(1, 2, 3),
        won(1, 3, 1),
        won(1, 1, 4),
        won(1, 5, 1),
        won(1, 4, 2),
        won(1, 2, 5),
        won(1, 4, 3),
        won(1, 3, 5),
        won(1, 4, 5),
    ];
    games[5].on_time = true; // 2 lost to 4 on time.
    let s = standings(Format::RoundRobin, &players, &games, &[]);
    use TieBreak::{DirectEncounter as D, LostOnTime as T, SonnebornBerger as SB};
    assert_eq!(
        table(&s),
        vec![
            (4, 3, vec![D(0), SB(5), T(0)]),
            (1, 2, vec![D(1), SB(5), T(0)]),
            (3, 2, vec![D(1), SB(3), T(0)]),
            (2, 2, vec![D(1), SB(3), T(1)]),
            (5, 1, vec![D(0), SB(2), T(0)]),
        ]
    );
}

#[test]
fn round_robin_games_left_count_down() {
    let players: Vec<Entrant> = (1..=3).map(Entrant).collect();
    let s = standings(Format::RoundRobin, &players, &[won(1, 1, 2)], &[]);
    let rows: Vec<(u64, u32, u32, Option<u32>)> = s
        .iter()
        .map(|l| (l.entrant.0, l.points, l.played, l.left))
        .collect();
    assert_eq!(
        rows,
        vec![(1, 1, 1, Some(1)), (2, 0, 1, Some(1)), (3, 0, 0, Some(2))]
    );
}

#[test]
fn swiss_ties_go_to_buchholz_cut_1_then_sonneborn_berger_then_the_direct_encounter() {
    // Eight players (seeded 10 to 17), four rounds, worked by hand.
    let players: Vec<Entrant> = (10..=17).map(Entrant).collect();
    let rounds: [[(u64, u64); 4]; 4] = [
        [(11, 10), (16, 12), (13, 14), (17, 15)],
        [(15, 10), (11, 16), (12, 13), (14, 17)],
        [(10, 14), (17, 11), (12, 15), (13, 16)],
        [(10, 13), (15, 11), (12, 14), (16, 17)],
    ];
    let games: Vec<PlayedGame> = rounds
        .iter()
        .zip(1..)
        .flat_map(|(games, r)| games.iter().map(move |&(w, l)| won(r, w, l)))
        .collect();
    let s = standings(Format::Swiss, &players, &games, &[]);
    use TieBreak::{BuchholzCut1 as BH, DirectEncounter as D, SonnebornBerger as SB};
    assert_eq!(
        table(&s),
        vec![
            (12, 3, vec![BH(6), SB(5), D(0)]),
            // On 2 points: Buchholz cut-1 7 (plain Buchholz 8 or 9) ...
            (16, 2, vec![BH(7), SB(5), D(0)]),
            (15, 2, vec![BH(7), SB(4), D(0)]),
            (13, 2, vec![BH(7), SB(3), D(0)]),
            // ... then 6 (plain 7 or 8): 17 and 11 are equal up to the game 17 won.
            (17, 2, vec![BH(6), SB(4), D(1)]),
            (11, 2, vec![BH(6), SB(4), D(0)]),
            (10, 2, vec![BH(6), SB(3), D(0)]),
            (14, 1, vec![BH(7), SB(2), D(0)]),
        ]
    );
    assert!(s.iter().all(|l| l.played == 4 && l.left.is_none()));
}

#[test]
fn a_swiss_bye_scores_a_point_and_is_no_opponent() {
    let players: Vec<Entrant> = (1..=3).map(Entrant).collect();
    let byes = [Bye {
        round: 1,
        entrant: Entrant(3),
    }];
    let s = standings(Format::Swiss, &players, &[won(1, 2, 1)], &byes);
    let rows: Vec<(u64, u32, u32, Vec<TieBreak>)> = s
        .iter()
        .map(|l| (l.entrant.0, l.points, l.played, l.tie_breaks.clone()))
        .collect();
    use TieBreak::{BuchholzCut1 as BH, DirectEncounter as D, SonnebornBerger as SB};
    // 2 and 3 tie on everything but the direct encounter (none): the seeding decides.
    assert_eq!(
        rows,
        vec![
            (2, 1, 1, vec![BH(0), SB(0), D(0)]),
            (3, 1, 0, vec![BH(0), SB(0), D(0)]),
            (1, 0, 1, vec![BH(0), SB(0), D(0)]),
        ]
    );
}
