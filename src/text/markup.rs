//! How a front end writes what is more than words: [`Markup`], and [`Plain`] text.

use crate::game::{ChannelId, Name};
use crate::i18n::tr;
use crate::i18n::Lang;

/// How a front end writes what is more than words: a member's name, which must show exactly as
/// they chose it whatever it holds, and a channel to point a member to.
pub trait Markup {
    /// `name` as text that shows it literally.
    fn name(&self, name: &Name) -> String;
    /// A server's channel, as a member is pointed to it.
    fn channel(&self, lang: Lang, channel: ChannelId) -> String;
    /// A title set apart from the words around it.
    fn strong(&self, text: &str) -> String;
    /// A yes-or-no option's value as a member types it.
    fn yes_or_no(&self, lang: Lang, value: bool) -> String;
    /// Whether messages carry buttons (Accept, Rematch, Join) that the words may point to.
    fn has_buttons(&self) -> bool;
}

/// Plain text, where nothing is markup: names as they are, a channel by its number. For the
/// terminal, logs and files.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

impl Markup for Plain {
    fn name(&self, name: &Name) -> String {
        name.as_str().to_string()
    }

    fn channel(&self, lang: Lang, channel: ChannelId) -> String {
        tr!(lang, "place-channel", id = channel.to_string())
    }

    fn strong(&self, text: &str) -> String {
        text.to_string()
    }

    /// `yes` or `no`, as the console reads them, in `lang`.
    fn yes_or_no(&self, lang: Lang, value: bool) -> String {
        if value {
            tr!(lang, "console-value-yes")
        } else {
            tr!(lang, "console-value-no")
        }
    }

    fn has_buttons(&self) -> bool {
        false
    }
}
