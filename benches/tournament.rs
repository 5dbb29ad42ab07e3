//! Swiss pairing speed: rounds 2, 4 and 7 of a 128-player Swiss (the largest the bot runs).
//!
//! `cargo bench --bench tournament` runs it. The history is fixed: each round is paired by the
//! module itself and its results drawn from a seeded generator, so every run times the same
//! states. The target: under 50 ms a round.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use breakthrough_bot::pairing::{swiss_round, Bye, Entrant, PlayedGame, SwissState};
use breakthrough_bot::rules::Color;

/// A 64-bit linear congruential generator: the same results on every run and machine.
struct Lcg(u64);

impl Lcg {
    fn coin(&mut self) -> bool {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 63) == 1
    }
}

/// The state of a 128-player Swiss before round `round`, with its earlier rounds played.
fn before_round(round: u32) -> SwissState {
    let Ok(mut state) = SwissState::new((1..=128).map(Entrant)) else {
        return SwissState::default();
    };
    let mut rng = Lcg(0x5EED);
    for _ in 1..round {
        let Ok(paired) = swiss_round(&state) else {
            break;
        };
        for p in &paired.pairings {
            let winner = if rng.coin() {
                Color::White
            } else {
                Color::Black
            };
            let game = PlayedGame {
                round: paired.number,
                white: p.white,
                black: p.black,
                winner,
                on_time: false,
            };
            if state.record(game).is_err() {
                break;
            }
        }
        if let Some(entrant) = paired.bye {
            let _ = state.record_bye(Bye {
                round: paired.number,
                entrant,
            });
        }
    }
    state
}

fn tournament(c: &mut Criterion) {
    for round in [2, 4, 7] {
        let state = before_round(round);
        assert_eq!(state.next_round(), round, "the history is played");
        c.bench_function(&format!("swiss_round 128 players, round {round}"), |b| {
            b.iter(|| swiss_round(black_box(&state)))
        });
    }
}

criterion_group!(benches, tournament);
criterion_main!(benches);
