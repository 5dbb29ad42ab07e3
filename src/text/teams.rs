//! Vote games in words: their start, each vote's answer, each window's close, their end with
//! the voters' credits, and what the vote service refuses.

use crate::game::{Credit, Game, TimeControl, Timestamp, Voted};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::rules::Color;

use super::Markup;

/// `#general plays Black against the AI (level 3), voting on each move: …`, or between two
/// channels, `#east (Black) plays #west (White), …`.
pub fn team_game_started(lang: Lang, m: &dyn Markup, game: &Game) -> String {
    let window = match game.time {
        TimeControl::TenMinutes => "minutes",
        TimeControl::OneHour => "hour",
        _ => "day",
    };
    match game.ai {
        Some(ai) => {
            let side = ai.color.opposite();
            tr!(
                lang,
                "team-started",
                id = game.id.to_string(),
                team = team_name(m, game, side),
                side = side.name(),
                level = ai.level.to_string(),
                window = window
            )
        }
        None => tr!(
            lang,
            "team-started-channels",
            id = game.id.to_string(),
            black = team_name(m, game, Color::Black),
            white = team_name(m, game, Color::White),
            window = window
        ),
    }
}

/// The answer to a vote: counted (or changed), and the leading moves of the window so far.
pub fn voted(lang: Lang, m: &dyn Markup, v: &Voted, now: Timestamp) -> String {
    let counted = if v.changed {
        tr!(lang, "team-vote-changed", move = v.mv.to_string(), id = v.game.id.to_string())
    } else {
        tr!(lang, "team-vote-counted", move = v.mv.to_string(), id = v.game.id.to_string())
    };
    let leading = v
        .tally
        .moves
        .iter()
        .take(3)
        .map(|(mv, n)| tr!(lang, "team-vote-count", move = mv.to_string(), count = *n))
        .collect::<Vec<_>>()
        .join(", ");
    let standing = tr!(
        lang,
        "team-vote-standing",
        leading = leading,
        voters = v.tally.voters
    );
    let closes = v.game.status.deadline().map_or_else(String::new, |d| {
        format!(
            " {}",
            tr!(lang, "team-window-closes", at = m.within(lang, now, d))
        )
    });
    format!("{counted} {standing}{closes}")
}

/// `#general plays e7-e6, with 5 of 8 votes.`, and when the AI has answered (the game is past
/// `ply`, the channel's move), `The AI (level 3) played d2-d3.`
pub fn team_moved(
    lang: Lang,
    m: &dyn Markup,
    game: &Game,
    ply: u32,
    mv: &str,
    votes: u32,
    voters: u32,
) -> String {
    let said = tr!(
        lang,
        "team-moved",
        team = team_name(m, game, mover(ply)),
        move = mv,
        votes = votes,
        voters = voters
    );
    match (game.ai, game.last_move) {
        (Some(ai), Some(answer)) if game.ply == ply + 1 => format!(
            "{said} {}",
            tr!(lang, "ai-played", level = ai.level.to_string(), move = answer.to_string())
        ),
        _ => said,
    }
}

/// A window that closed with no vote, extended once.
pub fn window_extended(lang: Lang, m: &dyn Markup, game: &Game, until: Timestamp) -> String {
    tr!(
        lang,
        "team-window-extended",
        id = game.id.to_string(),
        team = team_name(m, game, game.position.turn()),
        until = m.moment(until)
    )
}

/// The end of a vote game: its voters, each with how many of their votes were played.
pub fn team_credits(lang: Lang, m: &dyn Markup, game: &Game, credits: &[Credit]) -> String {
    if credits.is_empty() {
        return tr!(lang, "team-credits-none", id = game.id.to_string());
    }
    let each = credits
        .iter()
        .map(|c| {
            tr!(
                lang,
                "team-credit",
                name = m.name(&c.member.name),
                played = c.played,
                votes = c.votes
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    tr!(
        lang,
        "team-credits",
        id = game.id.to_string(),
        credits = each
    )
}

/// The side that made the move reaching ply `ply`: Black moves at even plies.
fn mover(ply: u32) -> Color {
    if ply.saturating_sub(1).is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// The channel playing `color` in a vote game, as `m` points to it.
fn team_name(m: &dyn Markup, game: &Game, color: Color) -> String {
    match game.team(color) {
        Some(channel) => m.team(channel, &game.players[color].name),
        None => m.name(&game.players[color].name),
    }
}
