//! Board pictures and replays, decoded as a viewer would: every size from either side, each
//! square's centre against the position, the checkering, the last move's marking, the flip, the
//! coordinates, and the replay's frames against the pictures of the same positions.

use std::io::Cursor;

use breakthrough_bot::render::{board_png, long_game, replay_gif, PictureError};
use breakthrough_bot::rules::{BoardSize, Color, Move, Position, Square};

/// The layout `board_png` documents: squares of 48 pixels in a 28-pixel frame.
const SQUARE: usize = 48;
const MARGIN: usize = 28;

type Rgb = [u8; 3];

/// A decoded picture, three bytes (RGB) per pixel, row by row.
struct Picture {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Picture {
    fn at(&self, x: usize, y: usize) -> Rgb {
        let i = 3 * (y * self.width + x);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// The pixels of a rectangle, row by row.
    fn block(&self, x: usize, y: usize, w: usize, h: usize) -> Vec<Rgb> {
        (y..y + h)
            .flat_map(|line| (x..x + w).map(move |col| (col, line)))
            .map(|(col, line)| self.at(col, line))
            .collect()
    }
}

fn decode_png(bytes: &[u8]) -> Picture {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    assert_eq!(
        info.color_type,
        png::ColorType::Rgb,
        "a palette picture, no alpha"
    );
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buffer.truncate(info.buffer_size());
    Picture {
        width: info.width as usize,
        height: info.height as usize,
        rgb: buffer,
    }
}

fn luma([r, g, b]: Rgb) -> u32 {
    (299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b)) / 1000
}

/// The top-left pixel of `square`'s place in a picture of `size` with `bottom` at the bottom,
/// worked out here independently of the renderer.
fn origin(size: BoardSize, bottom: Color, square: Square) -> (usize, usize) {
    let (x, y) = match bottom {
        Color::White => (square.col(), size.rows() - 1 - square.row()),
        Color::Black => (size.cols() - 1 - square.col(), square.row()),
    };
    (
        MARGIN + usize::from(x) * SQUARE,
        MARGIN + usize::from(y) * SQUARE,
    )
}

/// What a viewer sees on a square: its colour (sampled in a corner, away from the disc) and
/// what stands on it.
#[derive(Debug, PartialEq)]
struct Seen {
    background: Rgb,
    piece: Option<Color>,
}

fn look(picture: &Picture, size: BoardSize, bottom: Color, square: Square) -> Seen {
    let (x, y) = origin(size, bottom, square);
    let background = picture.at(x + 3, y + 3);
    let centre = picture.at(x + SQUARE / 2, y + SQUARE / 2);
    // On a disc's rim, 17 pixels right of the centre: dark for both pieces.
    let rim = picture.at(x + SQUARE / 2 + 17, y + SQUARE / 2);
    let piece = if centre == background && rim == background {
        None
    } else if luma(centre) < 60 && luma(rim) < 60 {
        Some(Color::Black)
    } else if luma(centre) > 235 && luma(rim) < 60 {
        Some(Color::White)
    } else {
        panic!("{size} {square}: centre {centre:?} rim {rim:?} on {background:?} is no piece");
    };
    Seen { background, piece }
}

fn is_dark(square: Square) -> bool {
    (square.col() + square.row()).is_multiple_of(2)
}

/// Checks one picture of `position` against the position, square by square.
fn check_picture(position: &Position, last: Option<Move>, bottom: Color) -> Picture {
    let size = position.size();
    let bytes = board_png(position, last, bottom).unwrap();
    let picture = decode_png(&bytes);
    assert_eq!(
        (picture.width, picture.height),
        (
            2 * MARGIN + SQUARE * usize::from(size.cols()),
            2 * MARGIN + SQUARE * usize::from(size.rows())
        ),
        "{size}"
    );
    let marked = |square: Square| last.is_some_and(|mv| mv.from() == square || mv.to() == square);
    // The plain colours of dark and light squares, and the marked ones, as first seen.
    let mut colours: [[Option<Rgb>; 2]; 2] = [[None; 2]; 2];
    for square in size.squares_iter() {
        let seen = look(&picture, size, bottom, square);
        assert_eq!(
            seen.piece,
            position.piece_at(square),
            "{size} from {bottom}'s side: {square}"
        );
        let slot = &mut colours[usize::from(marked(square))][usize::from(is_dark(square))];
        match slot {
            None => *slot = Some(seen.background),
            Some(colour) => assert_eq!(
                *colour, seen.background,
                "{size} from {bottom}'s side: {square} is coloured unlike its kind"
            ),
        }
    }
    let [[Some(light), Some(dark)], marks] = colours else {
        panic!("{size}: both kinds of plain square are on every board");
    };
    assert!(luma(dark) + 40 < luma(light), "{size}: checkered");
    for mark in marks.into_iter().flatten() {
        assert!(
            mark != light && mark != dark,
            "{size}: the last move is marked"
        );
    }
    if let [Some(light_mark), Some(dark_mark)] = marks {
        assert_ne!(
            light_mark, dark_mark,
            "{size}: marked squares stay checkered"
        );
    }
    let marked_squares = size.squares_iter().filter(|&s| marked(s)).count();
    assert_eq!(marked_squares, if last.is_some() { 2 } else { 0 });
    picture
}

/// The last position of a short game on `size`, and the move that led to it.
fn midgame(size: BoardSize, plies: usize) -> (Position, Option<Move>) {
    let moves = long_game(size, plies);
    let mut position = Position::new(size);
    for &mv in &moves {
        position = position.play(mv).unwrap();
    }
    (position, moves.last().copied())
}

#[test]
fn every_size_from_either_side_shows_the_position() {
    for size in BoardSize::all() {
        for bottom in Color::ALL {
            check_picture(&Position::new(size), None, bottom);
            // Far enough for straight moves, diagonal ones and captures on most sizes.
            let (position, last) = midgame(size, 2 * usize::from(size.rows()));
            check_picture(&position, last, bottom);
        }
    }
}

#[test]
fn a_capture_and_a_diagonal_move_are_marked() {
    let size = BoardSize::DEFAULT;
    let moves = long_game(size, 100);
    let mut position = Position::new(size);
    let (mut captures, mut diagonals) = (0, 0);
    for &mv in &moves {
        position = position.play(mv).unwrap();
        let diagonal = mv.from().col() != mv.to().col();
        if mv.is_capture() && captures < 2 || diagonal && diagonals < 2 {
            check_picture(&position, Some(mv), Color::White);
            captures += usize::from(mv.is_capture());
            diagonals += usize::from(diagonal);
        }
    }
    assert!(captures > 0 && diagonals > 0, "the game has both");
}

#[test]
fn blacks_view_puts_a1_top_right() {
    for size in [
        BoardSize::DEFAULT,
        BoardSize::new(3, 5).unwrap(),
        BoardSize::new(10, 7).unwrap(),
    ] {
        let start = Position::new(size);
        let top_right = |bottom| {
            let picture = decode_png(&board_png(&start, None, bottom).unwrap());
            let (x, y) = (picture.width - MARGIN - SQUARE / 2, MARGIN + SQUARE / 2);
            luma(picture.at(x, y))
        };
        // White stands on a1; Black on the last column of the top row.
        assert!(top_right(Color::Black) > 235, "{size}: a1's white piece");
        assert!(top_right(Color::White) < 60, "{size}: a black piece");
    }
}

#[test]
fn coordinates_are_drawn_and_turn_with_the_board() {
    for size in [
        BoardSize::new(10, 10).unwrap(),
        BoardSize::new(3, 5).unwrap(),
    ] {
        let start = Position::new(size);
        let white = decode_png(&board_png(&start, None, Color::White).unwrap());
        let black = decode_png(&board_png(&start, None, Color::Black).unwrap());
        let (cols, rows) = (usize::from(size.cols()), usize::from(size.rows()));
        let frame = white.at(1, 1);
        // The label below the square at column `x` from the left, and beside row `y` from the top.
        let letter =
            |p: &Picture, x| p.block(MARGIN + x * SQUARE, p.height - MARGIN, SQUARE, MARGIN);
        let number = |p: &Picture, y| p.block(0, MARGIN + y * SQUARE, MARGIN, SQUARE);
        let letters: Vec<_> = (0..cols).map(|x| letter(&white, x)).collect();
        let numbers: Vec<_> = (0..rows).map(|y| number(&white, y)).collect();
        for (i, label) in letters.iter().chain(&numbers).enumerate() {
            assert!(
                label.iter().any(|&p| p != frame),
                "{size}: label {i} is drawn"
            );
        }
        for x in 0..cols {
            assert_eq!(
                letters[x],
                letter(&black, cols - 1 - x),
                "{size}: column {x} turned"
            );
            assert!(
                letters[..x].iter().all(|l| *l != letters[x]),
                "{size}: letters differ"
            );
            // The same letter above the squares as below.
            let above = white.block(MARGIN + x * SQUARE, 0, SQUARE, MARGIN);
            assert_eq!(above, letters[x], "{size}: column {x} above");
        }
        for y in 0..rows {
            assert_eq!(
                numbers[y],
                number(&black, rows - 1 - y),
                "{size}: row {y} turned"
            );
            assert!(
                numbers[..y].iter().all(|n| *n != numbers[y]),
                "{size}: numbers differ"
            );
        }
    }
}

#[test]
fn an_8x8_picture_is_wide_and_small() {
    let (position, last) = midgame(BoardSize::DEFAULT, 30);
    for (position, last) in [(Position::new(BoardSize::DEFAULT), None), (position, last)] {
        let bytes = board_png(&position, last, Color::White).unwrap();
        let picture = decode_png(&bytes);
        assert!(picture.width >= 400, "{} pixels wide", picture.width);
        assert!(bytes.len() <= 40 * 1024, "{} bytes", bytes.len());
    }
}

/// A decoded replay: the composed picture after each frame, and each frame's delay, area and
/// number of drawn (not transparent) pixels.
struct Replay {
    shown: Vec<Picture>,
    delays: Vec<u16>,
    areas: Vec<usize>,
    drawn: Vec<usize>,
}

fn decode_gif(bytes: &[u8]) -> Replay {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(Cursor::new(bytes)).unwrap();
    assert_eq!(decoder.repeat(), gif::Repeat::Infinite, "the replay loops");
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let mut canvas = vec![0u8; 3 * width * height];
    let mut replay = Replay {
        shown: Vec::new(),
        delays: Vec::new(),
        areas: Vec::new(),
        drawn: Vec::new(),
    };
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        let (left, top) = (usize::from(frame.left), usize::from(frame.top));
        let w = usize::from(frame.width);
        let mut drawn = 0;
        for (i, rgba) in frame.buffer.chunks_exact(4).enumerate() {
            if rgba[3] != 0 {
                let at = 3 * ((top + i / w) * width + left + i % w);
                canvas[at..at + 3].copy_from_slice(&rgba[..3]);
                drawn += 1;
            }
        }
        replay.delays.push(frame.delay);
        replay.areas.push(w * usize::from(frame.height));
        replay.drawn.push(drawn);
        replay.shown.push(Picture {
            width,
            height,
            rgb: canvas.clone(),
        });
    }
    replay
}

fn check_replay(size: BoardSize, plies: usize, bottom: Color) -> usize {
    let moves = long_game(size, plies);
    let start = Position::new(size);
    let bytes = replay_gif(&start, &moves, bottom).unwrap();
    let replay = decode_gif(&bytes);
    assert_eq!(
        replay.shown.len(),
        moves.len() + 1,
        "{size}: a frame per ply and the start"
    );

    let (last_delay, others) = replay.delays.split_last().unwrap();
    assert!(
        others.iter().all(|d| d < last_delay),
        "{size}: the last frame stays longest"
    );
    let whole = replay.shown[0].width * replay.shown[0].height;
    assert_eq!(replay.areas[0], whole);
    for i in 1..replay.areas.len() {
        assert!(
            replay.areas[i] < whole,
            "{size}: frame {i} is a part of the picture"
        );
        // A move changes its two squares and unmarks the two of the move before.
        assert!(
            replay.drawn[i] <= 4 * SQUARE * SQUARE,
            "{size}: frame {i} draws only what changed ({} pixels)",
            replay.drawn[i]
        );
    }

    // The last frame and one in the middle are the pictures of their positions.
    let mut position = start;
    for (ply, &mv) in moves.iter().enumerate() {
        position = position.play(mv).unwrap();
        if ply + 1 == moves.len() || ply + 1 == moves.len() / 2 {
            let picture = decode_png(&board_png(&position, Some(mv), bottom).unwrap());
            let frame = &replay.shown[ply + 1];
            assert_eq!((frame.width, frame.height), (picture.width, picture.height));
            assert!(
                frame.rgb == picture.rgb,
                "{size}: frame {} against its picture",
                ply + 1
            );
        }
    }
    bytes.len()
}

#[test]
fn a_100_ply_replay_frames_every_position() {
    for bottom in Color::ALL {
        let bytes = check_replay(BoardSize::DEFAULT, 100, bottom);
        assert!(bytes <= 300 * 1024, "{bytes} bytes");
    }
}

#[test]
fn replays_of_other_sizes_and_of_no_move() {
    for (cols, rows) in [(3, 5), (10, 10), (4, 9), (9, 6)] {
        let size = BoardSize::new(cols, rows).unwrap();
        check_replay(size, 40, Color::Black);
        check_replay(size, 0, Color::White);
    }
}

#[test]
fn a_replay_with_an_illegal_move_says_which() {
    let start = Position::new(BoardSize::DEFAULT);
    let mut moves = long_game(BoardSize::DEFAULT, 3);
    moves.push(moves[0]);
    let err = replay_gif(&start, &moves, Color::White).unwrap_err();
    assert!(
        matches!(err, PictureError::Illegal { ply: 3, .. }),
        "{err:?}"
    );
    assert_eq!(err.to_string(), "move 4 of the replay cannot be played");
}
