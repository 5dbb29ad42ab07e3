//! The words a board's picture carries for those who cannot see it (its alt text).

use crate::game::{Game, Timestamp};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::render;
use crate::rules::Color;

use super::{status, Plain};

/// The most Discord takes as a file's description, in characters.
const ALT_MAX: usize = 1024;

/// A board picture's alt text: whose move it is (or the result) and the last move, then the
/// position as plain text drawn from `bottom`'s side, with its key. Names are plain, as alt
/// text shows no markdown.
pub fn board_alt(lang: Lang, game: &Game, bottom: Color, now: Timestamp) -> String {
    let mut alt = status(lang, &Plain, game, now);
    if let Some(mv) = game.last_move {
        alt.push_str(". ");
        alt.push_str(&tr!(lang, "alt-last-move", move = mv.to_string()));
    }
    alt.push('\n');
    alt.push_str(&render::text_board_facing(
        &game.position,
        game.last_move,
        bottom,
    ));
    alt.push('\n');
    alt.push_str(&tr!(lang, "alt-key"));
    if alt.chars().count() > ALT_MAX {
        alt = alt.chars().take(ALT_MAX).collect();
    }
    alt
}
