//! How a tournament's posts look: the sign-up message with its Join and Leave buttons, a
//! round's news, and the final standings.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateButton, CreateEmbed};

use crate::game::{Member, MemberId, RoundGames, Table, Tournament, TournamentState};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::text;

use super::super::button::Button;
use super::{mention, Markdown, View};

/// The longest embed description Discord takes, in characters.
const EMBED_DESCRIPTION: usize = 4096;
/// The longest message content Discord takes, in characters.
const CONTENT: usize = 2000;
const COLOUR: u32 = 0xc9_a2_27;

/// The sign-up message: the terms and the entrants, with Join and Leave while it is open.
pub fn signup(lang: Lang, t: &Tournament, organizer: &Member) -> View {
    let mut v = embedded(text::signup(lang, &Markdown, t, organizer));
    if t.state == TournamentState::Open {
        v.components = vec![CreateActionRow::Buttons(vec![
            CreateButton::new(Button::Join(t.id).to_string())
                .label(tr!(lang, "button-join"))
                .style(ButtonStyle::Success),
            CreateButton::new(Button::Leave(t.id).to_string())
                .label(tr!(lang, "button-leave"))
                .style(ButtonStyle::Secondary),
        ])];
    }
    v
}

/// The news of a round: its players mentioned (as many as fit in a message), its games below.
pub fn round_news(lang: Lang, round: &RoundGames, now: crate::game::Timestamp) -> View {
    let mut players: Vec<MemberId> = Vec::new();
    let everyone = round
        .games
        .iter()
        .flat_map(|g| [g.players.black.id, g.players.white.id])
        .chain(round.bye.as_ref().map(|b| b.id));
    for id in everyone {
        if !players.contains(&id) {
            players.push(id);
        }
    }
    let mut v = embedded(text::round_news(lang, &Markdown, round, now));
    let (content, pinged) = mentions_within(&players, CONTENT);
    v.content = (!content.is_empty()).then_some(content);
    v.mentions = pinged;
    v
}

/// The final standings, the winner mentioned.
pub fn final_standings(lang: Lang, table: &Table) -> View {
    let mut v = embedded(text::final_standings(lang, &Markdown, table));
    if let Some(winner) = table.winner() {
        v.content = Some(tr!(lang, "tournament-winner", mention = mention(winner.id)));
        v.mentions = vec![winner.id];
    }
    v
}

/// The mentions of `members`, as many as fit in `max` characters, and the members mentioned.
fn mentions_within(members: &[MemberId], max: usize) -> (String, Vec<MemberId>) {
    let mut content = String::new();
    let mut pinged = Vec::new();
    for &id in members {
        let m = mention(id);
        let sep = usize::from(!content.is_empty());
        if content.chars().count() + sep + m.chars().count() > max {
            break;
        }
        if sep == 1 {
            content.push(' ');
        }
        content.push_str(&m);
        pinged.push(id);
    }
    (content, pinged)
}

/// Text in an embed, cut to what Discord takes.
pub fn embedded(said: String) -> View {
    let embed = CreateEmbed::new()
        .description(fit(&said, EMBED_DESCRIPTION))
        .colour(COLOUR);
    View {
        embed: Some(embed),
        ..View::default()
    }
}

/// `text` in at most `max` characters: whole lines, then `…` on a line of its own where some
/// were left out.
fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    // Room for the line that says the rest was cut.
    let room = max.saturating_sub(2);
    for line in text.lines() {
        let len = line.chars().count() + usize::from(!out.is_empty());
        if used + len > room {
            break;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
        used += len;
    }
    if out.is_empty() {
        // One line longer than it all: cut inside it.
        out = text.chars().take(room).collect();
    }
    out.push_str("\n…");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_at_a_line_with_a_mark() {
        let text = (0..1000).map(|i| format!("line {i}")).collect::<Vec<_>>();
        let cut = fit(&text.join("\n"), 100);
        assert!(cut.chars().count() <= 100, "{cut}");
        assert!(
            cut.starts_with("line 0\nline 1\n") && cut.ends_with("\n…"),
            "{cut}"
        );
        assert_eq!(fit("short\ntext", 100), "short\ntext");
        let one = "x".repeat(500);
        assert_eq!(fit(&one, 10).chars().count(), 10);
    }

    #[test]
    fn mentions_stop_before_the_limit() {
        let members: Vec<MemberId> = (0..200u64)
            .map(|i| MemberId::new(300_000_000_000_000_000 + i))
            .collect();
        let (content, pinged) = mentions_within(&members, CONTENT);
        assert!(content.chars().count() <= CONTENT);
        assert!(pinged.len() > 50 && pinged.len() < 200, "{}", pinged.len());
        assert_eq!(content.matches("<@").count(), pinged.len());
    }
}
