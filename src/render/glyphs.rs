//! The coordinates' glyphs: digits and the column letters `a` to `j` as 5x7 bitmaps, so the
//! pictures need no font file.

pub(super) const GLYPH_WIDTH: usize = 5;
pub(super) const GLYPH_HEIGHT: usize = 7;

/// One glyph: a row of bits per line, top first, the leftmost pixel in bit 4.
type Glyph = [u8; GLYPH_HEIGHT];

const DIGITS: [Glyph; 10] = [
    [
        0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110,
    ],
    [
        0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110,
    ],
    [
        0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111,
    ],
    [
        0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110,
    ],
    [
        0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010,
    ],
    [
        0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110,
    ],
    [
        0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110,
    ],
    [
        0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000,
    ],
    [
        0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110,
    ],
    [
        0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100,
    ],
];

const LETTERS: [Glyph; 10] = [
    [
        0b00000, 0b00000, 0b01110, 0b00001, 0b01111, 0b10001, 0b01111,
    ],
    [
        0b10000, 0b10000, 0b10110, 0b11001, 0b10001, 0b10001, 0b11110,
    ],
    [
        0b00000, 0b00000, 0b01110, 0b10000, 0b10000, 0b10001, 0b01110,
    ],
    [
        0b00001, 0b00001, 0b01101, 0b10011, 0b10001, 0b10001, 0b01111,
    ],
    [
        0b00000, 0b00000, 0b01110, 0b10001, 0b11111, 0b10000, 0b01110,
    ],
    [
        0b00110, 0b01001, 0b01000, 0b11100, 0b01000, 0b01000, 0b01000,
    ],
    [
        0b00000, 0b01111, 0b10001, 0b10001, 0b01111, 0b00001, 0b01110,
    ],
    [
        0b10000, 0b10000, 0b10110, 0b11001, 0b10001, 0b10001, 0b10001,
    ],
    [
        0b00100, 0b00000, 0b01100, 0b00100, 0b00100, 0b00100, 0b01110,
    ],
    [
        0b00010, 0b00000, 0b00110, 0b00010, 0b00010, 0b10010, 0b01100,
    ],
];

/// The glyph of an ASCII digit or of a letter from `a` to `j`.
pub(super) fn glyph(c: u8) -> Option<&'static Glyph> {
    match c {
        b'0'..=b'9' => DIGITS.get(usize::from(c - b'0')),
        b'a'..=b'j' => LETTERS.get(usize::from(c - b'a')),
        _ => None,
    }
}
