//! The shipped puzzle pools: every line reads, and a fixed sample of each size is proven again:
//! the win at exactly its distance with the stored first move, and no other first move winning.

use breakthrough_bot::engine::puzzles::as_puzzle;
use breakthrough_bot::game::Pool;

/// Every `STRIDE`-th puzzle of each pool is proven again (the proofs run unoptimised in tests).
const STRIDE: usize = 40;

#[test]
fn a_sample_of_every_shipped_pool_is_proven_again() {
    let pools = Pool::shipped().expect("the shipped pools read");
    let mut sizes = Vec::new();
    for (pool, _) in &pools {
        sizes.push((pool.size.to_string(), pool.puzzles.len()));
        for (i, puzzle) in pool.puzzles.iter().enumerate().step_by(STRIDE) {
            let again = as_puzzle(&puzzle.setup).unwrap_or_else(|| {
                panic!(
                    "{} puzzle {} ({}) is no longer a puzzle",
                    pool.size,
                    i + 1,
                    puzzle.setup
                )
            });
            assert_eq!(
                (again.solution, again.plies),
                (puzzle.solution, puzzle.plies),
                "{} puzzle {}",
                pool.size,
                i + 1
            );
        }
    }
    sizes.sort();
    let count = |s: &str| sizes.iter().find(|(n, _)| n == s).map_or(0, |(_, c)| *c);
    assert!(
        count("6x6") >= 200 && count("7x7") >= 200 && count("8x8") >= 500,
        "{sizes:?}"
    );
}
