//! Pictures as files (`console --images DIR`): each board the console shows as a PNG, and each
//! replay `/history` shows as a GIF, written into one directory for a terminal user to open. The
//! pictures are drawn by `render`; writing them is the console's alone, here.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{Game, History};
use crate::i18n::tr;
use crate::render::{self, PictureError};
use crate::rules::Color;

use super::Console;

/// The directory pictures go to, and whether they still can.
#[derive(Debug)]
pub(super) struct Images {
    dir: PathBuf,
    /// Set when a picture could not be written: the console has said so, and goes on without.
    failed: AtomicBool,
}

impl Images {
    pub(super) fn new(dir: PathBuf) -> Images {
        Images {
            dir,
            failed: AtomicBool::new(false),
        }
    }

    /// Writes `bytes` as `name` in the directory, made first if it is missing.
    fn write(&self, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self.dir.join(name);
        std::fs::write(&path, bytes)?;
        Ok(path)
    }
}

/// A board's file name: its game and ply, and the side at the bottom when it is Black's, so a
/// flipped board does not take the place of the same position seen from White.
fn board_file(game: &Game, bottom: Color) -> String {
    let side = if bottom == Color::Black { "-black" } else { "" };
    format!("game-{}-ply-{}{side}.png", game.id, game.ply)
}

impl Console {
    /// With `--images`, the board of `game` with `bottom`'s side at the bottom written as a PNG,
    /// and the line that says where.
    pub(super) fn board_picture(&self, game: &Game, bottom: Color) -> Option<String> {
        self.save(
            &board_file(game, bottom),
            || render::board_png(&game.position, game.last_move, bottom),
            |path| tr!(self.lang, "console-picture", path = path),
        )
    }

    /// With `--images`, the game of `history` replayed as a GIF, White at the bottom as the
    /// channel sees it, and the line that says where.
    pub(super) fn replay_picture(&self, history: &History) -> Option<String> {
        self.images.as_ref()?;
        let (start, moves) = match history.start_and_moves() {
            Ok(played) => played,
            Err(e) => return Some(self.apology(e)),
        };
        self.save(
            &format!("game-{}.gif", history.game.id),
            || render::replay_gif(&start, &moves, Color::White),
            |path| tr!(self.lang, "console-replay", path = path),
        )
    }

    /// Draws a picture and writes it as `name`, unless there is no picture directory or writing
    /// has failed before. The line `said` makes of its path, or, the first time writing fails,
    /// the line that says so.
    fn save(
        &self,
        name: &str,
        draw: impl FnOnce() -> Result<Vec<u8>, PictureError>,
        said: impl FnOnce(String) -> String,
    ) -> Option<String> {
        let images = self.images.as_ref()?;
        if images.failed.load(Ordering::SeqCst) {
            return None;
        }
        let bytes = draw()
            .inspect_err(|e| tracing::error!(error = ?e, name, "could not draw a picture"))
            .ok()?;
        match images.write(name, &bytes) {
            Ok(path) => Some(said(path.display().to_string())),
            Err(e) if !images.failed.swap(true, Ordering::SeqCst) => Some(tr!(
                self.lang,
                "console-images-failed",
                dir = images.dir.display().to_string(),
                error = e.to_string()
            )),
            Err(_) => None,
        }
    }
}
