//! The engine's view of a position: two bitboards, the side to move and a Zobrist hash. The masks
//! of each board size are the rules' own [`Geometry`] table.

use std::sync::OnceLock;

use arrayvec::ArrayVec;

use crate::rules::{Color, Geometry, Move, Position, MAX_MOVES};

/// Index of a side in `[Black, White]` arrays, as the geometry's rows are indexed too.
pub const BLACK: usize = Color::Black.index();
pub const WHITE: usize = Color::White.index();

/// A move as the engine makes it: bit indexes of its squares.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

pub type Steps = ArrayVec<Step, MAX_MOVES>;

fn zobrist() -> &'static [[u64; 128]; 2] {
    static KEYS: OnceLock<[[u64; 128]; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut keys = [[0u64; 128]; 2];
        for side in &mut keys {
            for key in side.iter_mut() {
                *key = splitmix(&mut state);
            }
        }
        keys
    })
}

const SIDE_KEY: u64 = 0xd1b5_4a32_d192_ed03;

/// SplitMix64: a small, good generator for keys and seeds.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A position in the engine.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    pub pieces: [u128; 2],
    pub stm: usize,
    pub hash: u64,
}

impl Board {
    pub fn from_position(p: &Position) -> Board {
        let (black, white) = p.raw();
        let stm = p.turn().index();
        let keys = zobrist();
        let mut hash = if stm == WHITE { SIDE_KEY } else { 0 };
        for (side, bits) in [(BLACK, black), (WHITE, white)] {
            let mut b = bits;
            while b != 0 {
                hash ^= keys[side][b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        Board {
            pieces: [black, white],
            stm,
            hash,
        }
    }

    #[inline(always)]
    pub fn own(&self) -> u128 {
        self.pieces[self.stm]
    }

    #[inline(always)]
    pub fn opp(&self) -> u128 {
        self.pieces[self.stm ^ 1]
    }

    /// Every move of the side to move (the game must not be over).
    pub fn moves(&self, geo: &Geometry, out: &mut Steps) {
        out.clear();
        let (own, opp) = (self.own(), self.opp());
        let empty = geo.board & !(own | opp);
        let c = geo.cols;
        let white = self.stm == WHITE;
        let sets = if white {
            [
                ((own << c) & empty, c),
                (
                    ((own & geo.not_first_col) << (c - 1)) & geo.board & !own,
                    c - 1,
                ),
                (
                    ((own & geo.not_last_col) << (c + 1)) & geo.board & !own,
                    c + 1,
                ),
            ]
        } else {
            [
                ((own >> c) & empty, c),
                (((own & geo.not_first_col) >> (c + 1)) & !own, c + 1),
                (((own & geo.not_last_col) >> (c - 1)) & !own, c - 1),
            ]
        };
        for (mut targets, delta) in sets {
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let from = if white { to - delta } else { to + delta };
                // The list is sized to the proven maximum of moves.
                let _ = out.try_push(Step {
                    from: from as u8,
                    to: to as u8,
                });
            }
        }
    }

    /// Whether `step` takes a piece.
    #[inline(always)]
    pub fn is_capture(&self, step: Step) -> bool {
        self.opp() & (1u128 << step.to) != 0
    }

    /// The position after `step`.
    #[inline(always)]
    pub fn play(&self, step: Step) -> Board {
        let keys = zobrist();
        let (from, to) = (1u128 << step.from, 1u128 << step.to);
        let (me, them) = (self.stm, self.stm ^ 1);
        let mut next = *self;
        next.pieces[me] ^= from | to;
        next.hash ^= keys[me][step.from as usize] ^ keys[me][step.to as usize] ^ SIDE_KEY;
        if self.pieces[them] & to != 0 {
            next.pieces[them] &= !to;
            next.hash ^= keys[them][step.to as usize];
        }
        next.stm = them;
        next
    }

    /// Whether `step` wins on the spot: it reaches the goal or takes the last enemy piece.
    #[inline(always)]
    pub fn wins(&self, geo: &Geometry, step: Step) -> bool {
        let to = 1u128 << step.to;
        to & geo.goal(self.stm) != 0 || self.opp() == to
    }

    /// The rules' move for a step of this board.
    pub fn move_of(&self, geo: &Geometry, step: Step) -> Move {
        Move::new(
            geo.size.square_at(u32::from(step.from)),
            geo.size.square_at(u32::from(step.to)),
            self.is_capture(step),
        )
    }

    /// Steps the side to move has towards `target` squares from pieces attacking them.
    pub fn captures_of(&self, geo: &Geometry, target: u128, out: &mut Steps) {
        self.moves(geo, out);
        out.retain(|s| target & (1u128 << s.to) != 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardSize;

    #[test]
    fn moves_and_play_agree_with_the_rules_everywhere() {
        let mut seed = 7u64;
        for size in BoardSize::all() {
            let geo = size.geometry();
            let mut pos = Position::new(size);
            let mut steps = Steps::new();
            while pos.outcome().is_none() {
                let board = Board::from_position(&pos);
                board.moves(geo, &mut steps);
                let mut ours: Vec<String> = steps
                    .iter()
                    .map(|&s| board.move_of(geo, s).to_string())
                    .collect();
                let mut theirs: Vec<String> =
                    pos.legal_moves().iter().map(|m| m.to_string()).collect();
                ours.sort();
                theirs.sort();
                assert_eq!(ours, theirs, "{size} {pos}");
                let step = steps[(splitmix(&mut seed) % steps.len() as u64) as usize];
                let next = board.play(step);
                let mv = board.move_of(geo, step);
                let after = pos.play(mv).expect("legal");
                assert_eq!((next.pieces[BLACK], next.pieces[WHITE]), after.raw());
                assert_eq!(next.stm == WHITE, after.turn() == Color::White);
                assert_eq!(
                    next.hash,
                    Board::from_position(&after).hash,
                    "incremental hash"
                );
                assert_eq!(board.wins(geo, step), after.outcome().is_some());
                pos = after;
            }
        }
    }
}
