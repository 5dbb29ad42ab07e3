//! Perft counts: the fast generator against the data file and against the simple one in
//! `common/naive.rs`, from start positions, positions reached in random games, and random setups.

use crate::common::naive::{Naive, NaiveMove};
use breakthrough_bot::rules::{BoardSize, Color, Position, Setup};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Rows of `tests/it/data/perft.txt`: (size, depth, count).
fn table() -> Vec<(BoardSize, u32, u64)> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 3, "bad row {l:?}");
            (
                f[0].parse().expect("size"),
                f[1].parse().expect("depth"),
                f[2].parse().expect("count"),
            )
        })
        .collect()
}

#[test]
fn fast_generator_matches_every_row_of_the_data_file() {
    let rows = table();
    assert!(rows.len() >= 30, "the data file lost rows");
    for (size, depth, count) in rows {
        assert_eq!(
            Position::new(size).perft(depth),
            count,
            "{size} depth {depth}"
        );
    }
}

#[test]
fn simple_generator_agrees_with_the_data_file_where_it_is_quick() {
    let mut checked = 0;
    for (size, depth, count) in table() {
        if count <= 400_000 {
            assert_eq!(
                Naive::start(size).perft(depth),
                count,
                "{size} depth {depth}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} rows cross-checked");
}

fn fast_moves(p: &Position) -> Vec<NaiveMove> {
    let mut v: Vec<NaiveMove> = p
        .legal_moves()
        .iter()
        .map(|m| {
            (
                m.from().col() as usize,
                m.from().row() as usize,
                m.to().col() as usize,
                m.to().row() as usize,
            )
        })
        .collect();
    v.sort();
    v
}

fn compare(p: &Position, depth: u32) {
    let naive = Naive::from_position(p);
    let mut expected = naive.moves();
    expected.sort();
    assert_eq!(fast_moves(p), expected, "moves of {p}");
    assert_eq!(
        p.outcome().is_some(),
        naive.is_over() || expected.is_empty(),
        "{p}"
    );
    for d in 1..=depth {
        assert_eq!(p.perft(d), naive.perft(d), "perft({d}) of {p}");
    }
}

#[test]
fn generators_agree_along_random_games_on_every_size() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut positions = 0;
    for size in BoardSize::all() {
        for _game in 0..4 {
            let mut p = Position::new(size);
            while p.outcome().is_none() {
                compare(&p, 2);
                positions += 1;
                let moves = p.legal_moves();
                let mv = moves[rng.random_range(0..moves.len())];
                p = p.play(mv).expect("a generated move is legal");
            }
            compare(&p, 2);
        }
    }
    assert!(positions > 2_000, "{positions}");
}

#[test]
fn generators_agree_on_random_setups() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut tried = 0;
    let sizes: Vec<BoardSize> = BoardSize::all().collect();
    while tried < 3_000 {
        let size = sizes[rng.random_range(0..sizes.len())];
        let mut setup = Setup {
            size,
            black: Vec::new(),
            white: Vec::new(),
            turn: if rng.random_bool(0.5) {
                Color::Black
            } else {
                Color::White
            },
        };
        let density = rng.random_range(0.05..0.5);
        for sq in size.squares_iter() {
            if rng.random_bool(density) {
                if rng.random_bool(0.5) {
                    setup.black.push(sq);
                } else {
                    setup.white.push(sq);
                }
            }
        }
        // Impossible setups are refused by the library; only the possible ones are compared.
        if let Ok(p) = Position::try_from(&setup) {
            compare(&p, 3);
            tried += 1;
        }
    }
}
