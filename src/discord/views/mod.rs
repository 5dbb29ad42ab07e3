//! What the bot's messages look like: embeds, buttons and mentions, built from `game` values.

use poise::serenity_prelude as serenity;
use serenity::{CreateActionRow, CreateAllowedMentions, CreateEmbed, UserId};

use crate::game::{ChannelId, MemberId, Name, Timestamp};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::text::Markup;

mod game;
pub(super) mod menu;
pub(super) mod puzzle;
mod tournament;

pub use game::*;
pub use tournament::{embedded, signup};

/// Puts a view's parts into one of the message builders, its files with `$attach`. poise's and
/// serenity's builders share these method names but no trait, so one macro serves them all.
macro_rules! fill {
    ($builder:expr, $view:expr, $attach:ident) => {{
        let view: View = $view;
        let mut b = $builder
            .allowed_mentions(view.allowed_mentions())
            .components(view.components);
        if let Some(c) = view.content {
            b = b.content(c);
        }
        if let Some(e) = view.embed {
            b = b.embed(e);
        }
        for file in view.files {
            b = b.$attach(file.attachment());
        }
        b
    }};
}

/// A file a message carries: a board's picture or a game's replay, with its alt text.
#[derive(Clone, Debug)]
pub struct Attached {
    pub name: &'static str,
    pub bytes: Vec<u8>,
    /// What it shows, for those who cannot see it (Discord's description of an attachment).
    pub alt: String,
}

impl Attached {
    pub fn attachment(self) -> serenity::CreateAttachment {
        serenity::CreateAttachment::bytes(self.bytes, self.name).description(self.alt)
    }

    /// How an embed shows this file as its image.
    pub fn url(&self) -> String {
        format!("attachment://{}", self.name)
    }
}

/// A message's parts, for any way of sending it (reply, follow-up, channel message, update).
#[derive(Clone, Debug, Default)]
pub struct View {
    pub content: Option<String>,
    pub embed: Option<CreateEmbed>,
    pub components: Vec<CreateActionRow>,
    /// The members the message may ping; no one else.
    pub mentions: Vec<MemberId>,
    /// The files it carries.
    pub files: Vec<Attached>,
}

impl View {
    pub fn text(content: impl Into<String>) -> View {
        View {
            content: Some(content.into()),
            ..View::default()
        }
    }

    pub fn allowed_mentions(&self) -> CreateAllowedMentions {
        let users: Vec<UserId> = self.mentions.iter().map(|m| UserId::new(m.get())).collect();
        CreateAllowedMentions::new().users(users)
    }

    /// The bytes of the files it carries, for a check against what Discord takes.
    pub fn file_bytes(&self) -> usize {
        self.files.iter().map(|f| f.bytes.len()).sum()
    }

    /// With `said` on a line of its own above its content.
    pub fn said_above(mut self, said: String) -> View {
        self.content = Some(match self.content {
            Some(c) => format!("{said}\n{c}"),
            None => said,
        });
        self
    }

    /// With `said` on a line of its own below its content.
    pub fn said_below(mut self, said: String) -> View {
        self.content = Some(match self.content {
            Some(c) => format!("{c}\n{said}"),
            None => said,
        });
        self
    }

    pub fn reply(self, to: Audience) -> poise::CreateReply {
        fill!(
            poise::CreateReply::default().ephemeral(to == Audience::Caller),
            self,
            attachment
        )
    }

    pub fn message(self) -> serenity::CreateMessage {
        fill!(serenity::CreateMessage::new(), self, add_file)
    }

    pub fn interaction_message(self, to: Audience) -> serenity::CreateInteractionResponseMessage {
        fill!(
            serenity::CreateInteractionResponseMessage::new().ephemeral(to == Audience::Caller),
            self,
            add_file
        )
    }

    pub fn followup(self) -> serenity::CreateInteractionResponseFollowup {
        fill!(
            serenity::CreateInteractionResponseFollowup::new(),
            self,
            add_file
        )
    }

    /// Replaces a message posted before.
    pub fn edit_message(self) -> serenity::EditMessage {
        fill!(serenity::EditMessage::new(), self, new_attachment)
    }

    /// Completes a deferred response.
    pub fn edit(self) -> serenity::EditInteractionResponse {
        fill!(
            serenity::EditInteractionResponse::new(),
            self,
            new_attachment
        )
    }
}

/// Who sees a reply: everyone in the channel, or only the member it answers (ephemeral).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Channel,
    Caller,
}

/// Text as Discord shows it literally: every ASCII punctuation mark escaped with a backslash.
/// That covers all of Discord's markdown (emphasis, code, spoilers, quotes, headings, lists,
/// masked links and bare `https:` ones, mentions such as `<@1>` and `@everyone`); an escaped
/// mark shows as itself, so nothing else changes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A Discord timestamp that counts: `in 9 hours`, `2 days ago`.
fn relative(at: Timestamp) -> String {
    format!("<t:{}:R>", at.unix_seconds())
}

/// Discord's markup for the game's words: a name escaped (see [`escape`]), so it shows as the
/// member typed it and never as markdown, a mention or a link; a channel as its link, `<#123>`.
/// Names are escaped on their way out, never stored so.
#[derive(Clone, Copy, Debug)]
pub struct Markdown;

impl Markup for Markdown {
    fn name(&self, name: &Name) -> String {
        escape(name.as_str())
    }

    fn channel(&self, _lang: Lang, channel: ChannelId) -> String {
        format!("<#{channel}>")
    }

    fn team(&self, channel: ChannelId, _name: &Name) -> String {
        format!("<#{channel}>")
    }

    fn strong(&self, text: &str) -> String {
        format!("**{text}**")
    }

    /// A Discord timestamp: each reader's client shows it in their own zone and language.
    fn moment(&self, at: Timestamp) -> String {
        format!("<t:{}:f>", at.unix_seconds())
    }

    /// When the time runs out, as a Discord timestamp each reader's client keeps counting down:
    /// `time runs out in 9 hours`.
    fn time_left(&self, lang: Lang, _now: Timestamp, deadline: Timestamp) -> String {
        tr!(lang, "time-runs-out", at = relative(deadline))
    }

    fn time_left_sentence(&self, lang: Lang, _now: Timestamp, deadline: Timestamp) -> String {
        tr!(lang, "time-runs-out-sentence", at = relative(deadline))
    }

    fn within(&self, _lang: Lang, _now: Timestamp, at: Timestamp) -> String {
        relative(at)
    }

    /// A boolean option's value as Discord's client offers it: `True` or `False`.
    fn yes_or_no(&self, _lang: Lang, value: bool) -> String {
        if value { "True" } else { "False" }.to_string()
    }

    fn has_buttons(&self) -> bool {
        true
    }
}

pub(in crate::discord) fn mention(id: MemberId) -> String {
    format!("<@{id}>")
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markdown_mentions_and_links_are_escaped_and_words_are_not() {
        assert_eq!(
            escape("[free nitro](https://example.com) **x**"),
            r"\[free nitro\]\(https\:\/\/example\.com\) \*\*x\*\*"
        );
        assert_eq!(escape("@everyone <@123>"), r"\@everyone \<\@123\>");
        assert_eq!(
            escape("`a` _b_ ~~c~~ ||d||"),
            r"\`a\` \_b\_ \~\~c\~\~ \|\|d\|\|"
        );
        assert_eq!(escape("> quote"), r"\> quote");
        assert_eq!(escape("# heading"), r"\# heading");
        assert_eq!(escape(r"back\slash"), r"back\\slash");
        assert_eq!(escape("alice Ünïcode 42"), "alice Ünïcode 42");
    }
}
