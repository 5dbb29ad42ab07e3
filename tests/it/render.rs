//! Boards as text, checked against golden files in `tests/it/golden/`.
//! Set `UPDATE_GOLDEN=1` to rewrite them after a deliberate change, then read the diff.

use breakthrough_bot::i18n::Lang;
use breakthrough_bot::render::{emoji_board, emoji_board_facing, text_board, text_board_facing};
use breakthrough_bot::rules::{self, BoardSize, Color, Position};
use breakthrough_bot::text::board_legend;

fn golden(name: &str, actual: &str) {
    let path = format!("{}/tests/it/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (UPDATE_GOLDEN=1 writes it)"));
    assert_eq!(actual, expected, "{name} differs from its golden file");
}

fn after(size: &str, moves: &[&str]) -> (Position, Option<rules::Move>) {
    let size: BoardSize = size.parse().expect("size");
    let (p, played) = rules::replay(size, moves.iter().copied()).expect("legal moves");
    (p, played.last().copied())
}

#[test]
fn eight_by_eight_start_and_after_a_capture() {
    let (p, _) = after("8x8", &[]);
    golden("8x8-start.emoji.txt", &emoji_board(&p, None));
    golden("8x8-start.text.txt", &text_board(&p, None));
    let (p, last) = after("8x8", &["e7-e6", "d2-d3", "e6-e5", "d3-d4", "e5xd4"]);
    golden("8x8-capture.emoji.txt", &emoji_board(&p, last));
    golden("8x8-capture.text.txt", &text_board(&p, last));
}

#[test]
fn largest_and_smallest_boards() {
    let (p, last) = after("10x10", &["j9-j8", "a2-b3"]);
    golden("10x10.emoji.txt", &emoji_board(&p, last));
    golden("10x10.text.txt", &text_board(&p, last));
    let (p, last) = after("3x5", &["b4-c3"]);
    golden("3x5.emoji.txt", &emoji_board(&p, last));
    golden("3x5.text.txt", &text_board(&p, last));
}

/// A player's own view, Black at the bottom: the board turned round, rows and columns labelled in
/// the order Black sees them, the last move's arrow pointing where the piece went as drawn.
#[test]
fn boards_from_blacks_side_square_and_not() {
    let (p, last) = after("8x8", &["e7-e6", "d2-d3", "e6-e5", "d3-d4", "e5xd4"]);
    golden(
        "8x8-capture.black.emoji.txt",
        &emoji_board_facing(&p, last, Color::Black),
    );
    golden(
        "8x8-capture.black.text.txt",
        &text_board_facing(&p, last, Color::Black),
    );
    let (p, last) = after("3x5", &["b4-c3"]);
    golden(
        "3x5.black.emoji.txt",
        &emoji_board_facing(&p, last, Color::Black),
    );
    golden(
        "3x5.black.text.txt",
        &text_board_facing(&p, last, Color::Black),
    );
    // White's side is the board everyone sees.
    assert_eq!(
        emoji_board_facing(&p, last, Color::White),
        emoji_board(&p, last)
    );
    assert_eq!(
        text_board_facing(&p, last, Color::White),
        text_board(&p, last)
    );
    // Turned round: row 1 on top, column c on the left; b4-c3 went down and right for White's
    // view, so up and left for Black's.
    let text = text_board_facing(&p, last, Color::Black);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with(" 1 "), "{text}");
    assert_eq!(lines.last().unwrap().trim(), "c b a");
    assert!(emoji_board_facing(&p, last, Color::Black).contains("↖️"));
    assert!(emoji_board(&p, last).contains("↘️"));
}

#[test]
fn the_last_move_is_marked_by_arrow_and_heart() {
    let (p, last) = after("8x8", &["e7-e6"]);
    let board = emoji_board(&p, last);
    let lines: Vec<&str> = board.lines().collect();
    // Row 7 is the second line: the from-square e7 carries the down arrow.
    assert!(lines[1].contains("⬇️"), "{}", lines[1]);
    // Row 6 holds the black piece that moved, drawn as a black heart.
    assert!(lines[2].contains("🖤"), "{}", lines[2]);
    assert_eq!(board.matches("🖤").count(), 1);
}

/// Discord counts a message's length in UTF-16 code units; 2,000 at most.
#[test]
fn every_size_fits_a_discord_message_with_room_for_a_caption() {
    let legend = Lang::all()
        .map(|lang| board_legend(lang).encode_utf16().count())
        .max()
        .unwrap();
    for size in BoardSize::all() {
        let p = Position::new(size);
        let board = emoji_board(&p, None);
        let units = board.encode_utf16().count() + legend;
        assert!(units <= 1_500, "{size}: {units} UTF-16 units");
        assert_eq!(board.lines().count(), size.rows() as usize + 1);
        let text = text_board(&p, None);
        assert!(text.len() <= 1_500, "{size}: {} bytes", text.len());
    }
}
