//! How a front end writes what is more than words: [`Markup`], and [`Plain`] text.

use crate::game::{ChannelId, Name, Timestamp};
use crate::i18n::tr;
use crate::i18n::Lang;

use super::{duration, utc_time};

/// How a front end writes what is more than words: a member's name, which must show exactly as
/// they chose it whatever it holds, a channel to point a member to, and moments (plain text
/// unless the front end shows them better).
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
    /// The channel playing a side of a vote game, named `name`: by its name unless the front
    /// end points to channels better.
    fn team(&self, _channel: ChannelId, name: &Name) -> String {
        self.name(name)
    }
    /// A moment, as its reader is to see it; in plain text, in UTC: `2026-12-01 18:00 UTC`.
    fn moment(&self, at: Timestamp) -> String {
        utc_time(at)
    }

    /// The time left at `now` before `deadline`, as a phrase: `9h 59m left`.
    fn time_left(&self, lang: Lang, now: Timestamp, deadline: Timestamp) -> String {
        tr!(lang, "time-left", span = duration(lang, deadline - now))
    }

    /// [`Markup::time_left`] as a sentence of its own: `9h 59m left.`
    fn time_left_sentence(&self, lang: Lang, now: Timestamp, deadline: Timestamp) -> String {
        tr!(
            lang,
            "time-left-sentence",
            span = duration(lang, deadline - now)
        )
    }

    /// When `at` comes, seen from `now`: `in 1d 0h`.
    fn within(&self, lang: Lang, now: Timestamp, at: Timestamp) -> String {
        tr!(lang, "time-in", span = duration(lang, at - now))
    }
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
