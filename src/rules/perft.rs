//! Perft: counting the move sequences of a given length, the move generator's yardstick.
//!
//! Boards of up to 64 squares (8x8 included) are counted on `u64` bitboards, the others on
//! `u128`; the last ply is counted in bulk.

use super::bits::Bits;
use super::color::Color;
use super::geometry::Geometry;
use super::position::{count_moves, BlackSide, Position, Side, WhiteSide};

impl Position {
    /// The number of move sequences of exactly `depth` plies from here. A sequence that ends the
    /// game early stops there and is not counted at a greater depth.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.outcome().is_some() {
            return 0;
        }
        let g = self.size().geometry();
        let (own, opp) = self.own_opp();
        if self.size().squares() <= 64 {
            perft_dispatch::<u64>(g, self.turn(), own, opp, depth)
        } else {
            perft_dispatch::<u128>(g, self.turn(), own, opp, depth)
        }
    }
}

/// Perft of a position that is not over, `depth >= 1`.
fn perft_from<S: Side, B: Bits>(m: &Geometry<B>, own: B, opp: B, depth: u32) -> u64 {
    if depth == 1 {
        return count_moves::<S, B>(m, own, opp) as u64;
    }
    let empty = m.board & !(own | opp);
    // A move onto the goal row ends the game: it is no sequence of a greater depth.
    let open = !S::goal(m);
    let mut total = 0;
    for (targets, back) in S::targets(m, own) {
        let mut t = targets & open & if back.diagonal { !own } else { empty };
        while t != B::ZERO {
            let to_index = t.lowest();
            t = t.without_lowest();
            let to = B::ONE << to_index;
            let from = B::ONE << back.apply(to_index, S::WHITE);
            let opp_after = opp & !to;
            if opp_after != B::ZERO {
                total += perft_from::<S::Other, B>(m, opp_after, own ^ from ^ to, depth - 1);
            }
        }
    }
    total
}

fn perft_dispatch<B: Bits>(g: &Geometry, turn: Color, own: u128, opp: u128, depth: u32) -> u64 {
    let m = g.narrow::<B>();
    let (own, opp) = (B::narrow(own), B::narrow(opp));
    match turn {
        Color::White => perft_from::<WhiteSide, B>(&m, own, opp, depth),
        Color::Black => perft_from::<BlackSide, B>(&m, own, opp, depth),
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{BoardSize, Position};

    #[test]
    fn perft_matches_the_reference_counts_at_low_depth() {
        let p = Position::new(BoardSize::DEFAULT);
        assert_eq!(
            (1..=4).map(|d| p.perft(d)).collect::<Vec<_>>(),
            [22, 484, 11132, 256036]
        );
        let p = Position::new(BoardSize::new(7, 7).unwrap());
        assert_eq!(
            (1..=4).map(|d| p.perft(d)).collect::<Vec<_>>(),
            [19, 361, 7220, 144251]
        );
    }
}
