//! Move generation speed: the library's perft against a plain 8x8 bitboard generator.
//!
//! `cargo bench --bench perft` runs it. The baseline below is the simplest fast generator there is:
//! one `u64` per side, shifts fixed at compile time for 8x8, the last ply counted in bulk with
//! popcounts. The library's generator serves every size from 3x5 to 10x10 on `u128` boards and
//! must stay within 1.5 times the baseline's time.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use breakthrough_bot::rules::{BoardSize, Position};

mod baseline {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const ROW_1: u64 = 0xff;
    const ROW_8: u64 = 0xff << 56;

    /// Moves of the side whose pieces advance towards row 8 (`up`) or row 1.
    #[inline(always)]
    fn targets(own: u64, up: bool) -> [(u64, u32, bool); 3] {
        if up {
            [
                (own << 8, 8, false),
                ((own & NOT_A) << 7, 7, true),
                ((own & NOT_H) << 9, 9, true),
            ]
        } else {
            [
                (own >> 8, 8, false),
                ((own & NOT_A) >> 9, 9, true),
                ((own & NOT_H) >> 7, 7, true),
            ]
        }
    }

    fn perft(own: u64, opp: u64, up: bool, depth: u32) -> u64 {
        let empty = !(own | opp);
        let t = targets(own, up);
        if depth == 1 {
            return ((t[0].0 & empty).count_ones()
                + (t[1].0 & !own).count_ones()
                + (t[2].0 & !own).count_ones()) as u64;
        }
        let goal = if up { ROW_8 } else { ROW_1 };
        let mut total = 0;
        for (targets, delta, diagonal) in t {
            let mut bits = targets & if diagonal { !own } else { empty } & !goal;
            while bits != 0 {
                let to_index = bits.trailing_zeros();
                bits &= bits - 1;
                let to = 1u64 << to_index;
                let from = if up { to >> delta } else { to << delta };
                let opp_after = opp & !to;
                if opp_after != 0 {
                    total += perft(opp_after, own ^ from ^ to, !up, depth - 1);
                }
            }
        }
        total
    }

    /// Perft of the 8x8 start position, Black (top, moving down) first.
    pub fn start(depth: u32) -> u64 {
        let white = 0xffff;
        let black = 0xffff << 48;
        perft(black, white, false, depth)
    }
}

fn perft(c: &mut Criterion) {
    let start = Position::new(BoardSize::DEFAULT);
    assert_eq!(baseline::start(5), 6_182_818);
    assert_eq!(start.perft(5), 6_182_818);

    let mut group = c.benchmark_group("perft 8x8 depth 5");
    group.bench_function("library", |b| {
        b.iter(|| black_box(&start).perft(black_box(5)))
    });
    group.bench_function("baseline u64", |b| b.iter(|| baseline::start(black_box(5))));
    group.finish();

    let mut group = c.benchmark_group("perft 8x8 depth 7");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(12));
    group.bench_function("library", |b| {
        b.iter(|| black_box(&start).perft(black_box(7)))
    });
    group.bench_function("baseline u64", |b| b.iter(|| baseline::start(black_box(7))));
    group.finish();

    let ten = Position::new(BoardSize::new(10, 10).unwrap_or_default());
    c.bench_function("perft 10x10 depth 4", |b| {
        b.iter(|| black_box(&ten).perft(black_box(4)))
    });
}

criterion_group!(benches, perft);
criterion_main!(benches);
