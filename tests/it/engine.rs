//! The AI: wins on the spot and forced defences at every level above the first, the same move for
//! the same seed, and plain UCT as a working yardstick. Strength is measured by `selfplay`.

use breakthrough_bot::engine::{self, best_move, uct::uct_move, Level};
use breakthrough_bot::rules::{Color, Position};

fn position(setup: &str) -> Position {
    setup.parse().expect("a valid setup")
}

fn searching_levels() -> impl Iterator<Item = Level> {
    (2..=5).filter_map(Level::new)
}

/// The row a move lands on, counted from 1.
fn dest(p: &Position, level: Level, seed: u64) -> String {
    let mv = best_move(p, level, seed).expect("a move");
    assert!(p.is_legal(mv), "{mv} is illegal in {p}");
    mv.to_string()
}

#[test]
fn every_level_above_the_first_takes_a_win_on_the_spot() {
    // Black to move, b2 one step from row 1; White threatens nothing yet but could take elsewhere.
    let cases = [
        ("1b3/5/2b2/1b1w1/w3w b", 1, "reaches row 1"),
        // White to move: d4 one step from row 5, and a tempting capture on c3xb4.
        ("b1b2/bb1wb/1b3/2w2/ww3 w", 5, "reaches row 5"),
        // On 8x8, Black's e2 wins while White's own runner waits on d7.
        ("bbb5/bb1w1bbb/8/8/8/8/w3b3/wwwwwwww b", 1, "reaches row 1"),
    ];
    for (setup, goal_row, why) in cases {
        let p = position(setup);
        for level in searching_levels() {
            for seed in 0..3 {
                let mv = best_move(&p, level, seed).expect("a move");
                let after = p.play(mv).expect("legal");
                assert!(
                    after.outcome().is_some_and(|o| o.winner == p.turn()),
                    "level {level} seed {seed} played {mv} in {setup}: it {why} no more"
                );
                assert_eq!(mv.to().row() + 1, goal_row, "{setup}");
            }
        }
    }
}

#[test]
fn every_level_above_the_first_takes_the_piece_one_step_from_home() {
    // Black to move; White's c4 reaches row 5 next move unless b5 takes it. Black's a3 could run.
    let p = position("1b3/2w2/b4/5/w3w b");
    for level in searching_levels() {
        for seed in 0..3 {
            assert_eq!(dest(&p, level, seed), "b5xc4", "level {level} seed {seed}");
        }
    }
    // 8x8, White to move: Black's f2 threatens row 1; only g1 can take it (e1 moved away).
    let p = position("bbbbbbbb/bbbbbb2/8/8/8/3w4/ww3bww/wwww2ww w");
    for level in searching_levels() {
        for seed in 0..3 {
            assert_eq!(dest(&p, level, seed), "g1xf2", "level {level} seed {seed}");
        }
    }
}

#[test]
fn a_win_on_the_spot_comes_before_a_defence() {
    // White threatens b4-a5/c5; Black wins at once with d2-d1 (or a capture onto row 1).
    let p = position("3b1/1w3/5/3b1/w3w b");
    for level in searching_levels() {
        let mv = best_move(&p, level, 9).expect("a move");
        assert_eq!(mv.to().row(), 0, "level {level} played {mv}");
    }
}

#[test]
fn the_same_seed_gives_the_same_move_and_levels_one_and_two_vary_with_it() {
    let p = position("bbbbbbbb/bbbb1bbb/4b3/8/8/3w4/www1wwww/wwwwwwww w");
    // Without the wall-clock cap, which on a busy machine stops levels 4 and 5 at a depth that
    // depends on the machine's load rather than on the seed.
    let unhurried = |level, seed| engine::think_unhurried(&p, level, seed).map(|t| t.best);
    for level in Level::all() {
        let first = unhurried(level, 42);
        assert_eq!(first, unhurried(level, 42), "level {level}");
        assert!(first.is_some_and(|m| p.is_legal(m)));
    }
    for n in [1, 2] {
        let level = Level::new(n).expect("level");
        let moves: std::collections::HashSet<_> = (0..40)
            .filter_map(|seed| best_move(&p, level, seed))
            .collect();
        assert!(moves.len() > 1, "level {n} always plays the same move");
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let p = position("5/5/5/1b3/b3w w");
    assert!(p.outcome().is_some());
    for level in Level::all() {
        assert_eq!(best_move(&p, level, 0), None);
    }
    assert_eq!(uct_move(&p, 100, 0), None);
}

#[test]
fn uct_plays_legal_moves_and_takes_a_win_it_can_see() {
    let p = position("1b3/5/2b2/1b1w1/w3w b");
    let mv = uct_move(&p, 2_000, 3).expect("a move");
    assert!(p.is_legal(mv));
    let start = Position::default();
    assert_eq!(start.turn(), Color::Black);
    assert!(uct_move(&start, 200, 1).is_some_and(|m| start.is_legal(m)));
}

#[test]
fn the_top_level_stops_once_its_move_is_forced() {
    // White to move: Black's f2 reaches row 1 next move unless g1 takes it, so every other move
    // loses. With its budget fixed, the top level would spend its 2,000,000 positions all the same.
    let p = position("bbbbbbbb/bbbbbb2/8/8/8/3w4/ww3bww/wwww2ww w");
    let t = engine::think_unhurried(&p, Level::MAX, 0).expect("a move");
    assert_eq!(t.best.to_string(), "g1xf2");
    assert!(t.nodes < 20_000, "nodes {}", t.nodes);
}

#[test]
fn the_top_level_reports_a_deep_search() {
    // The node budget, not the machine's speed: the bot's `think` stops sooner on a slow machine.
    let t = engine::think_unhurried(&Position::default(), Level::MAX, 0).expect("a move");
    assert!(t.depth >= 6, "depth {}", t.depth);
    assert!(t.nodes > 100_000, "nodes {}", t.nodes);
}

/// Black, to move, wins in two (d3 runs home and nothing can stop it) but plays e5-e4 instead;
/// White's b3 then runs home first, and nothing of Black's can take it on the way.
#[test]
fn the_analysis_finds_the_blunder_that_threw_a_win_away_and_the_move_that_decided() {
    use engine::analysis::{analyze, judge, Decided, Eval};

    let start = position("4b/5/1w1b1/5/w4 b");
    let moves: Vec<_> = ["e5-e4", "b3-b4", "d3-d2", "b4-b5"]
        .iter()
        .scan(start, |at, text| {
            let mv = at.parse_move(text).expect("a legal move");
            *at = at.play(mv).expect("legal");
            Some(mv)
        })
        .collect();
    let review = analyze(&start, &moves).expect("the moves are legal");
    assert_eq!(review.plies.len(), 4);

    let blunder = review.plies[0];
    assert_eq!(blunder.side, Color::Black);
    assert_eq!(blunder.before, Eval::Wins(2), "{review:?}");
    assert_eq!(blunder.after, Eval::Loses(2), "{review:?}");
    assert_eq!(blunder.loss(), 1.0);
    // Black's worst move is that one, and the engine's move there keeps the win.
    let worst = review.worst(Color::Black, 3);
    assert_eq!(worst.len(), 1, "{worst:?}");
    assert_eq!(worst[0].played.to_string(), "e5-e4");
    let better = worst[0].best.expect("a better move");
    assert_ne!(better, worst[0].played);
    let after_better = start.play(better).expect("the engine's move is legal");
    assert!(
        matches!(judge(&after_better).eval, Eval::Loses(_)),
        "{better} should leave White lost"
    );
    // White played the engine's moves: no mistake.
    assert!(review.worst(Color::White, 3).is_empty(), "{review:?}");
    // The game was decided by the blunder, not at the start where Black's win was thrown away.
    assert_eq!(
        review.decided,
        Some(Decided {
            ply: 1,
            winner: Color::White,
            moves: 2
        })
    );
    // The last move won on the board.
    assert_eq!(review.plies[3].after, Eval::Wins(0));
    assert_eq!(review.plies[3].before, Eval::Wins(1));
}

/// An unfinished game ends in a judged position, and analysing twice gives the same result.
#[test]
fn the_analysis_of_a_game_in_progress_is_the_same_every_time() {
    use engine::analysis::analyze;

    let size = "5x5".parse().unwrap();
    let (_, moves) =
        breakthrough_bot::rules::replay(size, ["a4-a3", "b2-b3", "e4-e3", "d2xe3"]).unwrap();
    let start = Position::new(size);
    let first = analyze(&start, &moves).unwrap();
    assert_eq!(first, analyze(&start, &moves).unwrap());
    assert_eq!(first.plies.len(), 4);
    for (i, p) in first.plies.iter().enumerate() {
        assert_eq!(p.ply as usize, i + 1);
        assert!(p.best.is_some());
    }
}
