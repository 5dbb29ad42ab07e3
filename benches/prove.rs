//! The prover on 8x8: positions of games the AI played against itself, each proved to 5, 7 and 9
//! plies with the prover's own budget (`PROOF_NODES`).
//!
//! `cargo bench --bench prove` runs it. The positions are fixed: the AI (level 3, as on a fast
//! machine: `think_unhurried`) plays seeded games, and from each the bench takes two positions of
//! the middle game and three of the ending. Before criterion times the proofs, the setup proves
//! every position once per bound and prints, on stderr, the share decided within 1 s (proved a
//! win or a loss, in at most 1 s of wall-clock time) and the median and slowest proof. The
//! target: every proof within 1 s, and as many decided as the bound allows.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};

use breakthrough_bot::engine::{prove, think_unhurried, Level, Proof, PROOF_NODES};
use breakthrough_bot::rules::Position;

/// Games the AI plays for the positions.
const GAMES: u64 = 8;

/// The bounds proved, in plies.
const BOUNDS: [u32; 3] = [5, 7, 9];

/// The wall-clock cap a proof must keep to, to count as decided.
const CAP: Duration = Duration::from_secs(1);

/// Each game's positions at plies 20 and 30 (the middle game) and 6, 4 and 2 plies before its end
/// (the ending).
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let Some(level) = Level::new(3) else {
        return out;
    };
    for game in 0..GAMES {
        let mut seen = vec![Position::default()];
        let mut at = Position::default();
        while let Some(t) = think_unhurried(&at, level, game * 1_000 + seen.len() as u64) {
            let Ok(next) = at.play(t.best) else { break };
            at = next;
            seen.push(at);
        }
        // The last position is the finished game: the ending is counted back from it.
        let end = seen.len() - 1;
        for ply in [
            Some(20),
            Some(30),
            end.checked_sub(6),
            end.checked_sub(4),
            end.checked_sub(2),
        ]
        .into_iter()
        .flatten()
        {
            if let Some(&p) = seen.get(ply) {
                out.push(p);
            }
        }
    }
    out
}

/// Proves every position to `bound` once and prints the share decided within the cap and the
/// median and slowest proof.
fn report(positions: &[Position], bound: u32) {
    let mut times = Vec::with_capacity(positions.len());
    let mut decided = 0;
    for p in positions {
        let began = Instant::now();
        let proof = prove(p, bound, PROOF_NODES);
        let took = began.elapsed();
        if proof != Proof::Unknown && took <= CAP {
            decided += 1;
        }
        times.push(took);
    }
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let slowest = times.last().copied().unwrap_or_default();
    eprintln!(
        "prove to {bound} plies: {decided} of {} decided within {} s ({:.0}%), median {:.1} ms, slowest {:.1} ms",
        positions.len(),
        CAP.as_secs(),
        100.0 * decided as f64 / positions.len().max(1) as f64,
        median.as_secs_f64() * 1000.0,
        slowest.as_secs_f64() * 1000.0
    );
}

fn prover(c: &mut Criterion) {
    let positions = positions();
    for bound in BOUNDS {
        report(&positions, bound);
    }
    let mut group = c.benchmark_group("prove 8x8 self-play positions");
    group.sample_size(10);
    for bound in BOUNDS {
        group.bench_function(
            format!("{} positions to {bound} plies", positions.len()),
            |b| {
                b.iter(|| {
                    for p in &positions {
                        black_box(prove(black_box(p), bound, PROOF_NODES));
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, prover);
criterion_main!(benches);
