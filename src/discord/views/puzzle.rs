//! How a puzzle's board looks: the attacker (the side solving) at the bottom, as a picture or
//! in emoji.

use poise::serenity_prelude as serenity;
use serenity::{CreateEmbed, CreateEmbedFooter};

use crate::game::BoardStyle;
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::render;
use crate::rules::{Color, Move, Position};
use crate::text;

use super::{Attached, View};

const COLOUR: u32 = 0x5b_8a_3c;
/// The longest description of an attachment Discord takes, in characters.
const ALT_MAX: usize = 1024;

/// A puzzle's board as it is shown: the attacker (the side solving) at the bottom, the last move
/// marked.
#[derive(Clone, Copy)]
pub struct Board<'a> {
    pub position: &'a Position,
    pub last: Option<Move>,
    pub attacker: Color,
}

/// `words` with the board in an embed, drawn in `style`: a picture, or emoji when it is chosen
/// or the picture cannot be drawn.
pub fn board(lang: Lang, b: Board<'_>, style: BoardStyle, words: String) -> View {
    let picture = match style {
        BoardStyle::Image => picture(lang, b, &words),
        BoardStyle::Emoji => None,
    };
    let embed = CreateEmbed::new().colour(COLOUR);
    let embed = match &picture {
        Some(p) => embed.image(p.url()),
        None => embed
            .description(render::emoji_board_facing(b.position, b.last, b.attacker))
            .footer(CreateEmbedFooter::new(text::board_legend(lang))),
    };
    View {
        content: Some(words),
        embed: Some(embed),
        files: picture.into_iter().collect(),
        ..View::default()
    }
}

/// The board as a PNG picture, its alt text the first line of `words` and the board in text;
/// `None` (logged) when it cannot be drawn.
fn picture(lang: Lang, b: Board<'_>, words: &str) -> Option<Attached> {
    match render::board_png(b.position, b.last, b.attacker) {
        Ok(bytes) => {
            let mut alt = words.lines().next().unwrap_or_default().to_string();
            alt.push('\n');
            alt.push_str(&render::text_board_facing(b.position, b.last, b.attacker));
            alt.push('\n');
            alt.push_str(&tr!(lang, "alt-key"));
            Some(Attached {
                name: "board.png",
                bytes,
                alt: alt.chars().take(ALT_MAX).collect(),
            })
        }
        Err(e) => {
            tracing::error!(error = %e, "could not draw a puzzle's board; showing emoji");
            None
        }
    }
}
