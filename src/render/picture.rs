//! Boards as PNG pictures, drawn pixel by pixel into a small fixed palette. Pure.
//!
//! Every picture has squares of [`SQUARE`] pixels inside a frame of [`MARGIN`] pixels that holds
//! the coordinates: column letters above and below, row numbers on both sides, drawn from the
//! bitmap glyphs in `glyphs`. Pieces are discs: Black's dark and filled, White's light with a dark
//! rim, so they differ in lightness and not only in hue. The last move's two squares are tinted
//! blue, which stands out from the brown and beige squares for colour-blind eyes too (blue against
//! yellow is the contrast red-green colour blindness keeps). The disc edges are smoothed with a
//! few fixed blend levels that have their own palette entries, so the PNG and every GIF frame use
//! the same indices and show the same pixels.

use std::ops::Range;

use thiserror::Error;

use super::glyphs::{glyph, GLYPH_HEIGHT, GLYPH_WIDTH};
use super::{drawing_order, is_dark};
use crate::rules::{BoardSize, Color, IllegalMove, Move, Position, Square, MAX_COLS, MAX_ROWS};

/// A square's side, in pixels.
pub(super) const SQUARE: usize = 48;
/// The frame around the squares that holds the coordinates, in pixels.
pub(super) const MARGIN: usize = 28;
/// Each glyph pixel is drawn as a block of this many pixels a side.
const GLYPH_SCALE: usize = 2;
/// A disc's radius, and the radius of the light inside of a White disc, in pixels.
const DISC_RADIUS: f32 = 18.5;
const WHITE_INSIDE_RADIUS: f32 = 16.0;
/// How many steps a disc's edge blends through between two colours.
const BLEND_STEPS: u8 = 4;

/// A palette index.
pub(super) type Index = u8;

const FRAME: Index = 0;
const LABEL: Index = 1;
/// The squares, in the order `square_kind` numbers them: light, dark, then both marked.
const SQUARES: [Index; 4] = [2, 3, 4, 5];
const INK: Index = 6;
const PAPER: Index = 7;
/// `BLEND_STEPS - 1` blends of [`INK`] over each square colour, square by square.
const INK_OVER_SQUARE: Index = 8;
/// `BLEND_STEPS - 1` blends of [`PAPER`] over [`INK`].
const PAPER_OVER_INK: Index = INK_OVER_SQUARE + 4 * (BLEND_STEPS - 1);
/// Never drawn: a GIF frame's "unchanged" pixel.
pub(super) const TRANSPARENT: Index = PAPER_OVER_INK + BLEND_STEPS - 1;

const FRAME_RGB: [u8; 3] = [0x30, 0x2e, 0x2b];
const LABEL_RGB: [u8; 3] = [0xe4, 0xdf, 0xd6];
const SQUARE_RGB: [[u8; 3]; 4] = [
    [0xf0, 0xd9, 0xb5],
    [0xb5, 0x88, 0x63],
    [0xa9, 0xcb, 0xee],
    [0x6e, 0x98, 0xcb],
];
const INK_RGB: [u8; 3] = [0x1e, 0x1e, 0x1e];
const PAPER_RGB: [u8; 3] = [0xfa, 0xfa, 0xfa];
const TRANSPARENT_RGB: [u8; 3] = [0xff, 0x00, 0xff];

/// Why a picture could not be made. Encoding into memory does not fail in practice; the encoders
/// still report errors, and they are passed on rather than hidden.
#[derive(Debug, Error)]
pub enum PictureError {
    /// A replay's move, counted from 0, cannot be played in the position before it.
    #[error("move {} of the replay cannot be played", .ply + 1)]
    Illegal {
        ply: usize,
        #[source]
        source: IllegalMove,
    },
    #[error("could not encode the board as a PNG picture")]
    Png(#[from] png::EncodingError),
    #[error("could not encode the game as a GIF animation")]
    Gif(#[from] gif::EncodingError),
}

/// The palette as RGB triples: every colour a picture uses, then the GIF's transparent entry.
pub(super) fn palette() -> Vec<u8> {
    let mix = |over: [u8; 3], under: [u8; 3], step: u8| -> [u8; 3] {
        let (step, steps) = (u16::from(step), u16::from(BLEND_STEPS));
        let mut rgb = [0; 3];
        for (c, (&o, &u)) in rgb.iter_mut().zip(over.iter().zip(&under)) {
            let mixed = (u16::from(o) * step + u16::from(u) * (steps - step) + steps / 2) / steps;
            *c = u8::try_from(mixed).unwrap_or(u8::MAX);
        }
        rgb
    };
    let mut colors = vec![FRAME_RGB, LABEL_RGB];
    colors.extend(SQUARE_RGB);
    colors.extend([INK_RGB, PAPER_RGB]);
    for square in SQUARE_RGB {
        colors.extend((1..BLEND_STEPS).map(|step| mix(INK_RGB, square, step)));
    }
    colors.extend((1..BLEND_STEPS).map(|step| mix(PAPER_RGB, INK_RGB, step)));
    colors.push(TRANSPARENT_RGB);
    colors.concat()
}

/// What one square shows: its piece, and whether the last move touched it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Cell {
    piece: Option<Color>,
    marked: bool,
}

impl Cell {
    pub(super) fn of(position: &Position, last: Option<Move>, square: Square) -> Cell {
        Cell {
            piece: position.piece_at(square),
            marked: last.is_some_and(|mv| mv.from() == square || mv.to() == square),
        }
    }
}

/// A disc drawn once as blend codes, one per pixel of a square: 0 is the square,
/// `1..BLEND_STEPS` ink over the square, `BLEND_STEPS` ink, then paper over ink up to
/// `2 * BLEND_STEPS`, paper.
struct Sprite([u8; SQUARE * SQUARE]);

impl Sprite {
    fn disc(color: Color) -> Sprite {
        let mut codes = [0; SQUARE * SQUARE];
        let centre = SQUARE as f32 / 2.0;
        let coverage = |radius: f32, distance: f32| -> u8 {
            let covered = (radius - distance + 0.5).clamp(0.0, 1.0);
            (covered * f32::from(BLEND_STEPS)).round() as u8
        };
        for (i, code) in codes.iter_mut().enumerate() {
            let dx = (i % SQUARE) as f32 + 0.5 - centre;
            let dy = (i / SQUARE) as f32 + 0.5 - centre;
            let distance = (dx * dx + dy * dy).sqrt();
            let ink = coverage(DISC_RADIUS, distance);
            *code = match color {
                Color::White if ink == BLEND_STEPS => {
                    BLEND_STEPS + coverage(WHITE_INSIDE_RADIUS, distance)
                }
                _ => ink,
            };
        }
        Sprite(codes)
    }
}

/// The palette index of blend `code` (see [`Sprite`]) over square colour number `kind`.
fn shade(code: u8, kind: usize) -> Index {
    match code {
        0 => SQUARES[kind],
        c if c < BLEND_STEPS => INK_OVER_SQUARE + kind as u8 * (BLEND_STEPS - 1) + c - 1,
        BLEND_STEPS => INK,
        c if c < 2 * BLEND_STEPS => PAPER_OVER_INK + c - BLEND_STEPS - 1,
        _ => PAPER,
    }
}

/// A board's picture as palette indices, row by row, with what it needs to redraw one square.
pub(super) struct Canvas {
    size: BoardSize,
    bottom: Color,
    /// Where each column and each row is drawn, counted in squares from the left and the top.
    place_of_col: [usize; MAX_COLS as usize],
    place_of_row: [usize; MAX_ROWS as usize],
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) pixels: Vec<Index>,
    /// The palette index of every blend code over each square colour.
    shades: [[Index; 2 * BLEND_STEPS as usize + 1]; 4],
    sprites: [Sprite; 2],
}

impl Canvas {
    /// The empty frame of a board of `size` seen with `bottom` at the bottom, coordinates drawn;
    /// the squares are drawn by [`Canvas::draw`].
    pub(super) fn new(size: BoardSize, bottom: Color) -> Canvas {
        let width = 2 * MARGIN + SQUARE * usize::from(size.cols());
        let height = 2 * MARGIN + SQUARE * usize::from(size.rows());
        let mut shades = [[0; 2 * BLEND_STEPS as usize + 1]; 4];
        for (kind, row) in shades.iter_mut().enumerate() {
            for (code, index) in row.iter_mut().enumerate() {
                *index = shade(code as u8, kind);
            }
        }
        let (rows, cols) = drawing_order(size.rows(), size.cols(), bottom);
        let mut place_of_col = [0; MAX_COLS as usize];
        for (place, &col) in cols.iter().enumerate() {
            place_of_col[usize::from(col)] = place;
        }
        let mut place_of_row = [0; MAX_ROWS as usize];
        for (place, &row) in rows.iter().enumerate() {
            place_of_row[usize::from(row)] = place;
        }
        let mut canvas = Canvas {
            size,
            bottom,
            place_of_col,
            place_of_row,
            width,
            height,
            pixels: vec![FRAME; width * height],
            shades,
            sprites: [Sprite::disc(Color::Black), Sprite::disc(Color::White)],
        };
        canvas.label_edges();
        canvas
    }

    /// The pixel ranges a square covers, across and down.
    pub(super) fn square_area(&self, square: Square) -> (Range<usize>, Range<usize>) {
        let x = self.place_of_col[usize::from(square.col())];
        let y = self.place_of_row[usize::from(square.row())];
        let (left, top) = (MARGIN + x * SQUARE, MARGIN + y * SQUARE);
        (left..left + SQUARE, top..top + SQUARE)
    }

    /// Draws `square` as `cell` says.
    pub(super) fn draw(&mut self, square: Square, cell: Cell) {
        let kind = usize::from(is_dark(square)) | (usize::from(cell.marked) << 1);
        let (across, down) = self.square_area(square);
        let width = self.width;
        let background = SQUARES[kind];
        for (y, line) in down.enumerate() {
            let row = &mut self.pixels[line * width + across.start..line * width + across.end];
            match cell.piece {
                None => row.fill(background),
                Some(color) => {
                    let side = usize::from(color == Color::White);
                    let (sprite, shades) = (&self.sprites[side].0, &self.shades[kind]);
                    let codes = &sprite[y * SQUARE..(y + 1) * SQUARE];
                    for (pixel, &code) in row.iter_mut().zip(codes) {
                        *pixel = shades[usize::from(code)];
                    }
                }
            }
        }
    }

    /// Draws every square of `position`, the squares of `last` marked.
    pub(super) fn draw_position(&mut self, position: &Position, last: Option<Move>) {
        for square in self.size.squares_iter() {
            self.draw(square, Cell::of(position, last, square));
        }
    }

    /// Column letters above and below the squares, row numbers on both sides.
    fn label_edges(&mut self) {
        let (rows, cols) = drawing_order(self.size.rows(), self.size.cols(), self.bottom);
        let below = MARGIN + SQUARE * rows.len();
        let beside = MARGIN + SQUARE * cols.len();
        for (x, &col) in cols.iter().enumerate() {
            let text = [b'a' + col];
            let centre = MARGIN + x * SQUARE + SQUARE / 2;
            self.text(&text, centre, MARGIN / 2);
            self.text(&text, centre, below + MARGIN / 2);
        }
        for (y, &row) in rows.iter().enumerate() {
            let number = row + 1;
            let text: &[u8] = if number < 10 {
                &[b'0' + number]
            } else {
                &[b'0' + number / 10, b'0' + number % 10]
            };
            let centre = MARGIN + y * SQUARE + SQUARE / 2;
            self.text(text, MARGIN / 2, centre);
            self.text(text, beside + MARGIN / 2, centre);
        }
    }

    /// Draws `text` centred on pixel (`x`, `y`), one pixel of space between glyphs.
    fn text(&mut self, text: &[u8], x: usize, y: usize) {
        let advance = (GLYPH_WIDTH + 1) * GLYPH_SCALE;
        let width = text.len() * advance - GLYPH_SCALE;
        let (left, top) = (x - width / 2, y - GLYPH_HEIGHT * GLYPH_SCALE / 2);
        for (i, &c) in text.iter().enumerate() {
            let Some(rows) = glyph(c) else { continue };
            for (gy, bits) in rows.iter().enumerate() {
                for gx in 0..GLYPH_WIDTH {
                    if bits & (1 << (GLYPH_WIDTH - 1 - gx)) == 0 {
                        continue;
                    }
                    let px = left + i * advance + gx * GLYPH_SCALE;
                    let py = top + gy * GLYPH_SCALE;
                    for line in py..py + GLYPH_SCALE {
                        let start = line * self.width + px;
                        self.pixels[start..start + GLYPH_SCALE].fill(LABEL);
                    }
                }
            }
        }
    }
}

/// The board of `position` as a PNG picture, `bottom`'s side at the bottom, as
/// [`emoji_board_facing`](super::emoji_board_facing) orders the rows and columns: White's view
/// has row 1 at the bottom and `a` on the left, Black's the board turned round. `last`, the move
/// that led to `position`, has its two squares tinted.
///
/// The picture is `2 * 28 + 48 * columns` pixels wide and `2 * 28 + 48 * rows` high: squares of
/// 48 pixels in a 28-pixel frame of coordinates (440 pixels a side for 8x8). It uses a palette of
/// 23 colours.
///
/// # Errors
///
/// [`PictureError::Png`] if the PNG encoder reports an error, which writing into memory does not
/// cause in practice.
pub fn board_png(
    position: &Position,
    last: Option<Move>,
    bottom: Color,
) -> Result<Vec<u8>, PictureError> {
    let mut canvas = Canvas::new(position.size(), bottom);
    canvas.draw_position(position, last);
    let mut out = Vec::with_capacity(8 * 1024);
    let mut encoder = png::Encoder::new(&mut out, canvas.width as u32, canvas.height as u32);
    let mut colors = palette();
    colors.truncate(3 * usize::from(TRANSPARENT));
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(colors);
    encoder.set_filter(png::Filter::NoFilter);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&canvas.pixels)?;
    writer.finish()?;
    Ok(out)
}
