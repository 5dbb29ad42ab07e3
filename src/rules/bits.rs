//! Bitboards: one bit per square (bit `row * cols + col`), in a `u64` for boards of up to 64
//! squares (8x8 included, faster) or a `u128` for every board.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

/// A bitboard word: `u64` serves boards of up to 64 squares faster; `u128` serves all.
pub(crate) trait Bits:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// Index of the lowest set bit (the word's width when none is set).
    fn lowest(self) -> u32;
    /// The word without its lowest set bit.
    fn without_lowest(self) -> Self;
    /// How many bits are set.
    fn ones(self) -> u32;
    /// The low bits of a `u128` mask; callers only narrow masks of boards that fit.
    fn narrow(wide: u128) -> Self;
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn narrow(wide: u128) -> Self {
                wide as $t
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

/// Iterates the set bits of a bitboard, lowest first.
pub(crate) struct BitIter(pub u128);

impl Iterator for BitIter {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_widths_agree_and_iteration_goes_lowest_first() {
        let wide: u128 = (1 << 3) | (1 << 40) | (1 << 63);
        let narrow = u64::narrow(wide);
        assert_eq!((narrow.lowest(), narrow.ones()), (3, 3));
        assert_eq!(u128::from(narrow.without_lowest()), wide.without_lowest());
        assert_eq!(BitIter(wide).collect::<Vec<_>>(), [3, 40, 63]);
        assert_eq!(BitIter(u128::ZERO).next(), None);
    }
}
