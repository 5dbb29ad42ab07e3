//! Picture speed and size: an 8x8 board as a PNG, and a 100-ply 8x8 game as a GIF replay.
//!
//! `cargo bench --bench pictures` runs it and first prints the size in bytes of the start
//! position's PNG for every board size, and of the replay. The targets: an 8x8 PNG in at most
//! 5 ms and 40 KB, the replay in at most 100 ms and 300 KB.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use breakthrough_bot::render::{board_png, long_game, replay_gif};
use breakthrough_bot::rules::{BoardSize, Color, Position};

fn pictures(c: &mut Criterion) {
    for rows in 5..=10 {
        let line: Vec<String> = (3..=10)
            .map(|cols| {
                let size = BoardSize::new(cols, rows).unwrap_or_default();
                let bytes = board_png(&Position::new(size), None, Color::White);
                format!("{size}: {:>5}", bytes.map_or(0, |b| b.len()))
            })
            .collect();
        println!("PNG bytes  {}", line.join("  "));
    }

    let size = BoardSize::DEFAULT;
    let moves = long_game(size, 100);
    assert_eq!(moves.len(), 100, "the game lasts 100 plies");
    let mut position = Position::new(size);
    for &mv in &moves[..40] {
        position = position.play(mv).unwrap_or(position);
    }
    let last = moves.get(39).copied();
    let start = Position::new(size);
    let png = board_png(&position, last, Color::White).map_or(0, |b| b.len());
    let gif = replay_gif(&start, &moves, Color::White).map_or(0, |b| b.len());
    println!("8x8 PNG after 40 plies: {png} bytes; 100-ply 8x8 GIF: {gif} bytes");

    c.bench_function("board_png 8x8", |b| {
        b.iter(|| board_png(black_box(&position), black_box(last), Color::White))
    });
    c.bench_function("replay_gif 8x8 100 plies", |b| {
        b.iter(|| replay_gif(black_box(&start), black_box(&moves), Color::White))
    });
}

criterion_group!(benches, pictures);
criterion_main!(benches);
