//! `console --images DIR`: every board shown is written as a PNG picture and every `/history` as a
//! GIF replay, their paths printed under them, and the files decode to the positions shown; a
//! directory that cannot be written is said once, and the console plays on without pictures.

use std::io::Cursor;
use std::path::Path;

use super::{bin, output_of};

/// The layout `render::board_png` documents: squares of 48 pixels in a 28-pixel frame.
const SQUARE: usize = 48;
const MARGIN: usize = 28;
/// The game's board: 3 columns, 5 rows.
const COLS: usize = 3;
const ROWS: usize = 5;

/// The console's output for `script`, run with `--images images` (and `--lang lang`).
fn run_with_images(db: &Path, images: &Path, lang: &str, script: &str) -> String {
    let mut cmd = bin();
    cmd.args(["console", "--plain", "--lang", lang, "--db"])
        .arg(format!("sqlite://{}", db.display()))
        .arg("--images")
        .arg(images);
    output_of(&mut cmd, script)
}

/// The paths printed after `label` (`picture: `, `replay: `), in order.
fn printed<'a>(out: &'a str, label: &str) -> Vec<&'a str> {
    out.lines().filter_map(|l| l.strip_prefix(label)).collect()
}

fn file_name(path: &str) -> &str {
    Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

/// What a PNG shows, square by square: rows from the top, `.` for an empty square, `b` for a
/// Black piece (a dark disc) and `w` for a White one (a light disc), read at each square's centre
/// against its corner.
fn squares_seen(path: &str) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut rgb).unwrap();
    let (width, height) = (info.width as usize, info.height as usize);
    assert_eq!(
        (width, height),
        (2 * MARGIN + SQUARE * COLS, 2 * MARGIN + SQUARE * ROWS),
        "{path}"
    );
    let at = |x: usize, y: usize| {
        let i = 3 * (y * width + x);
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    (0..ROWS)
        .map(|row| {
            (0..COLS)
                .map(|col| {
                    let (x, y) = (MARGIN + col * SQUARE, MARGIN + row * SQUARE);
                    let centre = at(x + SQUARE / 2, y + SQUARE / 2);
                    if centre == at(x + 3, y + 3) {
                        '.'
                    } else if centre.iter().map(|&c| u32::from(c)).sum::<u32>() < 3 * 100 {
                        'b'
                    } else {
                        'w'
                    }
                })
                .collect()
        })
        .collect()
}

/// The frames of a GIF, checked to be the size of the game's pictures.
fn frames(path: &str) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let mut decoder = gif::DecodeOptions::new()
        .read_info(Cursor::new(bytes))
        .unwrap();
    assert_eq!(
        (usize::from(decoder.width()), usize::from(decoder.height())),
        (2 * MARGIN + SQUARE * COLS, 2 * MARGIN + SQUARE * ROWS),
        "{path}"
    );
    let mut n = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    n
}

#[test]
fn each_board_shown_and_each_replay_is_written_as_a_picture_of_what_was_shown() {
    let dir = tempfile::tempdir().unwrap();
    // Not there yet: the console makes it.
    let images = dir.path().join("pictures").join("today");
    let out = run_with_images(
        &dir.path().join("i.db"),
        &images,
        "en",
        "@alice /challenge @bob 3x5 black 1h no\n@bob /accept\n\
         @alice /move a4-a3\n@bob /move c2-c3\n@bob /board flip:yes\n@alice /history 1\n",
    );
    let pictures = printed(&out, "picture: ");
    assert_eq!(
        pictures.iter().map(|p| file_name(p)).collect::<Vec<_>>(),
        [
            "game-1-ply-0.png",
            "game-1-ply-1.png",
            "game-1-ply-2.png",
            "game-1-ply-2-black.png"
        ],
        "{out}"
    );
    for p in &pictures {
        assert!(Path::new(p).starts_with(&images), "{p}");
    }
    // Each path sits right under the board's last line, the status.
    assert!(
        out.contains("(@alice)\npicture: ") && out.contains("(@bob)\npicture: "),
        "{out}"
    );
    // The positions shown, White at the bottom, then bob's board turned round by flip:yes.
    let shown = [
        ["bbb", "bbb", "...", "www", "www"],
        ["bbb", ".bb", "b..", "www", "www"],
        ["bbb", ".bb", "b.w", "ww.", "www"],
        ["www", ".ww", "w.b", "bb.", "bbb"],
    ];
    for (p, want) in pictures.iter().zip(shown) {
        assert_eq!(squares_seen(p), want, "{p}");
    }

    let replays = printed(&out, "replay: ");
    assert_eq!(replays.len(), 1, "{out}");
    assert_eq!(file_name(replays[0]), "game-1.gif");
    assert_eq!(frames(replays[0]), 2 + 1, "two plies and the start");
}

#[test]
fn a_directory_that_cannot_be_written_is_said_once_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let images = file.join("pictures");
    for (lang, said) in [
        ("en", "pictures cannot be written in"),
        ("es", "no se pueden escribir imágenes en"),
    ] {
        let out = run_with_images(
            &dir.path().join(format!("{lang}.db")),
            &images,
            lang,
            "@alice /challenge @bob 3x5 black 1h no\n@bob /accept\n\
             @alice /move a4-a3\n@bob /move c2-c3\n@alice /history 1\n",
        );
        let told = format!("{said} {}", images.display());
        assert_eq!(out.matches(&told).count(), 1, "{out}");
        assert!(
            !out.contains("picture: ") && !out.contains("imagen: "),
            "{out}"
        );
        assert!(!out.contains("replay: ") && !out.contains("repetición: "));
        // The game went on: both moves were played and the history lists them.
        assert!(out.contains("1. a4-a3 c2-c3"), "{out}");
        assert!(!images.exists());
    }
}
