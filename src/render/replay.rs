//! Games as animated GIF replays. Pure.
//!
//! Each frame is drawn with the PNG picture's palette and pixels. After the first, a frame holds
//! only the rectangle around the squares that changed, its unchanged pixels transparent (so the
//! previous frame shows through and the LZW codes of long transparent runs cost little).

use std::borrow::Cow;

use super::picture::{palette, Canvas, Cell, Index, PictureError, TRANSPARENT};
use crate::rules::{Color, Move, Position};

/// How long each position is shown, in hundredths of a second; the last one stays longest.
const FRAME_DELAY: u16 = 80;
const LAST_FRAME_DELAY: u16 = 300;

/// The game from `start` through `moves` as a looping GIF animation, `bottom`'s side at the
/// bottom: one frame for the start and one per move, each the same picture as
/// [`board_png`](super::board_png) draws of that position with that last move. Frames stay 0.8 s,
/// the last 3 s.
///
/// # Errors
///
/// [`PictureError::Illegal`] if a move is not legal where it is played;
/// [`PictureError::Gif`] if the GIF encoder reports an error, which writing into memory does not
/// cause in practice.
pub fn replay_gif(
    start: &Position,
    moves: &[Move],
    bottom: Color,
) -> Result<Vec<u8>, PictureError> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut position = *start;
    positions.push((position, None));
    for (ply, &mv) in moves.iter().enumerate() {
        position = position
            .play(mv)
            .map_err(|source| PictureError::Illegal { ply, source })?;
        positions.push((position, Some(mv)));
    }

    let size = start.size();
    let mut canvas = Canvas::new(size, bottom);
    canvas.draw_position(start, None);
    let (width, height) = (canvas.width as u16, canvas.height as u16);
    let mut out = Vec::with_capacity(16 * 1024);
    let mut encoder = gif::Encoder::new(&mut out, width, height, &palette())?;
    encoder.set_repeat(gif::Repeat::Infinite)?;
    let delay = |i: usize| {
        if i + 1 == positions.len() {
            LAST_FRAME_DELAY
        } else {
            FRAME_DELAY
        }
    };
    encoder.write_frame(&gif::Frame {
        delay: delay(0),
        width,
        height,
        buffer: Cow::Borrowed(&canvas.pixels),
        ..gif::Frame::default()
    })?;

    let mut shown = canvas.pixels.clone();
    for (i, pair) in positions.windows(2).enumerate() {
        let [(before, before_last), (after, last)] = pair else {
            continue;
        };
        // The rectangle around the squares that changed, as (left, top, right, bottom).
        let mut changed: Option<(usize, usize, usize, usize)> = None;
        for square in size.squares_iter() {
            let cell = Cell::of(after, *last, square);
            if cell == Cell::of(before, *before_last, square) {
                continue;
            }
            canvas.draw(square, cell);
            let (across, down) = canvas.square_area(square);
            changed = Some(match changed {
                None => (across.start, down.start, across.end, down.end),
                Some((l, t, r, b)) => (
                    l.min(across.start),
                    t.min(down.start),
                    r.max(across.end),
                    b.max(down.end),
                ),
            });
        }
        // A move always changes its two squares; an empty rectangle would still need a pixel.
        let (left, top, right, bottom) = changed.unwrap_or((0, 0, 1, 1));
        let mut buffer: Vec<Index> = Vec::with_capacity((right - left) * (bottom - top));
        for line in top..bottom {
            let range = line * canvas.width + left..line * canvas.width + right;
            for (new, old) in canvas.pixels[range.clone()].iter().zip(&mut shown[range]) {
                buffer.push(if new == old { TRANSPARENT } else { *new });
                *old = *new;
            }
        }
        encoder.write_frame(&gif::Frame {
            delay: delay(i + 1),
            transparent: Some(TRANSPARENT),
            left: left as u16,
            top: top as u16,
            width: (right - left) as u16,
            height: (bottom - top) as u16,
            buffer: Cow::Owned(buffer),
            ..gif::Frame::default()
        })?;
    }
    encoder.into_inner()?;
    Ok(out)
}

/// A long game for the tests and the benchmark: up to `plies` moves from the start of `size`,
/// each side playing the quiet move that keeps the game going longest by a simple measure (no
/// move that ends the game or lets the opponent end it, no capture if it can help it, the piece
/// nearest its own side first). Deterministic.
#[cfg(feature = "test-support")]
pub fn long_game(size: crate::rules::BoardSize, plies: usize) -> Vec<Move> {
    let mut position = Position::new(size);
    let mut moves = Vec::with_capacity(plies);
    while moves.len() < plies && position.outcome().is_none() {
        let home = |mv: Move| match position.turn() {
            Color::White => mv.from().row(),
            Color::Black => size.rows() - 1 - mv.from().row(),
        };
        let cost = |mv: Move| -> (bool, bool, bool, u8) {
            let Ok(next) = position.play(mv) else {
                return (true, true, true, u8::MAX);
            };
            let ends = next.outcome().is_some();
            let loses = next
                .legal_moves()
                .iter()
                .any(|&reply| next.play(reply).is_ok_and(|p| p.outcome().is_some()));
            (ends, loses, mv.is_capture(), home(mv))
        };
        let Some(&mv) = position.legal_moves().iter().min_by_key(|&&mv| cost(mv)) else {
            break;
        };
        let Ok(next) = position.play(mv) else { break };
        position = next;
        moves.push(mv);
    }
    moves
}
