//! The evaluation: what a position is worth to the side to move, in hundredths of a piece.
//!
//! It knows material, how far each piece has come, which pieces are attacked and not defended,
//! the home-row guard, and runners no enemy piece can stop. Wins on the board, the one-step
//! threats and forced captures are the search's job.

use super::board::Board;
use crate::rules::Geometry;

/// Piece values by how far a piece has come, for one board height.
pub struct Weights {
    /// `piece[r]`: a piece `r` rows ahead of home.
    piece: [i32; 10],
    /// `hanging[r]`: the cost of a piece there that is attacked and not defended.
    hanging: [i32; 10],
}

impl Weights {
    pub fn new(geo: &Geometry) -> Weights {
        let rows = geo.rows as i32;
        let mut piece = [0; 10];
        let mut hanging = [0; 10];
        for r in 0..rows {
            // Rises slowly, then sharply near the goal: an advanced piece is a threat.
            let t = r * 10 / (rows - 1);
            let advance = t * t * 3 / 2;
            piece[r as usize] = 100 + advance + if r == 0 { 25 } else { 0 };
            hanging[r as usize] = 30 + advance;
        }
        Weights { piece, hanging }
    }
}

/// The score of `board` for its side to move.
pub fn evaluate(board: &Board, geo: &Geometry, w: &Weights) -> i32 {
    let me = board.stm;
    let attacks = [
        geo.attacks(0, board.pieces[0]),
        geo.attacks(1, board.pieces[1]),
    ];
    side(board, geo, w, &attacks, me) - side(board, geo, w, &attacks, me ^ 1) + 10
}

/// What side `s` has, given each side's attacked squares.
fn side(board: &Board, geo: &Geometry, w: &Weights, attacks: &[u128; 2], s: usize) -> i32 {
    let own = board.pieces[s];
    let opp = board.pieces[s ^ 1];
    let their_attacks = attacks[s ^ 1];
    let our_attacks = attacks[s];
    let hanging = own & their_attacks & !our_attacks;
    let rows = geo.rows as usize;
    let mut score = 0;
    for r in 0..rows {
        let row = geo.rows_of[s][r];
        let here = own & row;
        if here == 0 {
            continue;
        }
        score += w.piece[r] * here.count_ones() as i32;
        score -= w.hanging[r] * (hanging & row).count_ones() as i32;
    }
    // A runner on the far half that nothing can meet: no enemy piece on the squares in front of
    // it that could take it or stand in its way (approximated by the attack span of the rows
    // ahead being free of enemies within one column).
    let far = own & !their_attacks;
    let mut b = far;
    while b != 0 {
        let i = b.trailing_zeros() as u8;
        b &= b - 1;
        let r = geo.advance(s, i);
        if r * 2 < rows {
            continue;
        }
        let col = u32::from(i) % geo.cols;
        let mut cone = 0u128;
        for ahead in r + 1..rows {
            let row = geo.rows_of[s][ahead];
            let dist = (ahead - r) as u32;
            let lo = col.saturating_sub(dist);
            let hi = (col + dist).min(geo.cols - 1);
            let row_start = row.trailing_zeros();
            let span = ((1u128 << (hi - lo + 1)) - 1) << (row_start + lo);
            cone |= span;
        }
        if cone & opp == 0 {
            score += 400 + 60 * r as i32;
        }
    }
    score
}
