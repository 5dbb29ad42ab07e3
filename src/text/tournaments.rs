//! Words for tournaments: the sign-up, the standings, a round's games, the news of a round and of
//! the end, and every refusal.

use crate::game::{
    Game, GameStatus, Member, RoundGames, Table, Timestamp, Tournament, TournamentFormat,
    TournamentRefusal, TournamentState, TournamentTag,
};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::pairing::TieBreak;

use super::{time_control, Markup};

/// `round-robin` or `swiss`, in words: `Round robin`, `Swiss`.
pub fn tournament_format(lang: Lang, format: TournamentFormat) -> String {
    tr!(lang, "tournament-format", format = format.as_str())
}

fn state(lang: Lang, state: TournamentState) -> String {
    tr!(lang, "tournament-state", state = state.as_str())
}

/// `Spring Cup (#3)`.
pub fn tournament_name(t: &Tournament) -> String {
    format!("{} (#{})", t.name, t.id)
}

/// What a tournament game's title adds: `Spring Cup · round 2`.
pub fn tournament_tag(lang: Lang, tag: &TournamentTag) -> String {
    tr!(
        lang,
        "tournament-tag",
        name = tag.name.as_str(),
        round = tag.round.get()
    )
}

/// The terms of a tournament, one line: `Swiss · 5 rounds · 8x8 · 1 day per move · rated`.
pub fn tournament_terms(lang: Lang, t: &Tournament) -> String {
    let mut parts = vec![tournament_format(lang, t.format)];
    if t.format == TournamentFormat::Swiss {
        parts.push(match t.rounds {
            Some(rounds) => tr!(lang, "tournament-rounds", rounds = rounds),
            None => tr!(lang, "tournament-rounds-default"),
        });
    }
    parts.push(t.size.to_string());
    parts.push(time_control(lang, t.time));
    parts.push(tr!(
        lang,
        "game-rating",
        rating = if t.rated { "rated" } else { "casual" }
    ));
    parts.join(" · ")
}

/// The sign-up message: the terms, the organizer, when it starts, and the entrants so far.
pub fn signup(lang: Lang, m: &dyn Markup, t: &Tournament, organizer: &Member) -> String {
    let mut out = tr!(
        lang,
        "tournament-signup",
        title = m.strong(&tournament_name(t)),
        terms = tournament_terms(lang, t),
        organizer = m.name(&organizer.name),
        state = state(lang, t.state)
    );
    if t.state == TournamentState::Open {
        out.push('\n');
        out.push_str(&match t.starts_at {
            Some(at) => tr!(lang, "tournament-starts-at", at = m.moment(at)),
            None => tr!(lang, "tournament-starts-when-started"),
        });
    }
    out.push('\n');
    out.push_str(&tr!(
        lang,
        "tournament-entrants",
        count = t.entrants.len(),
        max = t.max_players
    ));
    for (i, e) in t.entrants.iter().enumerate() {
        out.push_str(&format!("\n{}. {}", i + 1, m.name(&e.member.name)));
        if e.withdrawn {
            out.push_str(&format!(" ({})", tr!(lang, "tournament-withdrawn")));
        }
    }
    out
}

fn tie_break(lang: Lang, t: &TieBreak) -> String {
    let (kind, value) = match *t {
        TieBreak::DirectEncounter(v) => ("direct", v),
        TieBreak::SonnebornBerger(v) => ("sonneborn-berger", v),
        TieBreak::LostOnTime(v) => ("on-time", v),
        TieBreak::BuchholzCut1(v) => ("buchholz", v),
    };
    tr!(lang, "tournament-tie-break", kind = kind, value = value)
}

/// The standings: a line a player, `1. alice 3 pts · 3 played, 1 left · SB 2, DE 1, T 0`.
pub fn table(lang: Lang, m: &dyn Markup, table: &Table) -> String {
    let t = &table.tournament;
    let mut out = tr!(
        lang,
        "tournament-standings-title",
        name = tournament_name(t),
        state = state(lang, t.state),
        round = t.round.get(),
        rounds = t.rounds.unwrap_or(0),
        format = t.format.as_str()
    );
    if table.lines.is_empty() {
        out.push('\n');
        out.push_str(&tr!(lang, "tournament-no-entrants"));
    }
    for l in &table.lines {
        let breaks: Vec<String> = l.tie_breaks.iter().map(|b| tie_break(lang, b)).collect();
        out.push_str(&format!(
            "\n{}. {} {}",
            l.rank,
            m.name(&l.member.name),
            tr!(
                lang,
                "tournament-line",
                points = l.points,
                played = l.played,
                left = l.left.map_or(-1, i64::from),
                breaks = if breaks.is_empty() {
                    "none".to_string()
                } else {
                    breaks.join(", ")
                }
            )
        ));
        if l.withdrawn {
            out.push_str(&format!(" ({})", tr!(lang, "tournament-withdrawn")));
        }
    }
    out
}

/// One game of a round: `#12 alice (Black) vs bob (White): bob to move` or its result.
pub fn round_game(lang: Lang, m: &dyn Markup, game: &Game, now: Timestamp) -> String {
    let standing = match game.status {
        GameStatus::Active { deadline } => tr!(
            lang,
            "tournament-game-to-move",
            name = m.name(&game.to_move().name),
            left = m.time_left(lang, now, deadline)
        ),
        GameStatus::Finished { winner, .. } => tr!(
            lang,
            "tournament-game-won",
            name = m.name(&game.player(winner).name)
        ),
        GameStatus::Aborted { .. } => tr!(lang, "tournament-game-aborted"),
    };
    tr!(
        lang,
        "tournament-game",
        id = game.id.to_string(),
        black = m.name(&game.players.black.name),
        white = m.name(&game.players.white.name),
        standing = standing
    )
}

/// The games of a round, with the bye: for `/tournament pairings`.
pub fn round_games(lang: Lang, m: &dyn Markup, round: &RoundGames, now: Timestamp) -> String {
    let mut out = tr!(
        lang,
        "tournament-round-title",
        name = tournament_name(&round.tournament),
        round = round.round.get(),
        format = round.tournament.format.as_str()
    );
    push_games(lang, m, &mut out, round, now);
    out
}

fn push_games(lang: Lang, m: &dyn Markup, out: &mut String, round: &RoundGames, now: Timestamp) {
    for g in &round.games {
        out.push('\n');
        out.push_str(&round_game(lang, m, g, now));
    }
    if let Some(bye) = &round.bye {
        out.push('\n');
        out.push_str(&tr!(lang, "tournament-bye", name = m.name(&bye.name)));
    }
}

/// The news of a round just made, for the tournament's channel: round 1 says it started.
pub fn round_news(lang: Lang, m: &dyn Markup, round: &RoundGames, now: Timestamp) -> String {
    let mut out = tr!(
        lang,
        "tournament-round-news",
        name = tournament_name(&round.tournament),
        round = round.round.get(),
        format = round.tournament.format.as_str(),
        games = round.games.len()
    );
    push_games(lang, m, &mut out, round, now);
    out
}

/// A member's games in a round just made, by direct message.
pub fn your_games(
    lang: Lang,
    m: &dyn Markup,
    round: &RoundGames,
    member: crate::game::MemberId,
    now: Timestamp,
) -> String {
    let mut out = tr!(
        lang,
        "tournament-your-games",
        name = tournament_name(&round.tournament),
        round = round.round.get(),
        format = round.tournament.format.as_str(),
        channel = m.channel(lang, round.tournament.place.channel)
    );
    for g in round.games_of(member) {
        out.push('\n');
        out.push_str(&round_game(lang, m, g, now));
    }
    out
}

/// The end of a tournament: who won, then the final table.
pub fn final_standings(lang: Lang, m: &dyn Markup, t: &Table) -> String {
    let head = match t.winner() {
        Some(w) => tr!(
            lang,
            "tournament-won",
            name = tournament_name(&t.tournament),
            winner = m.name(&w.name)
        ),
        None => tr!(
            lang,
            "tournament-over",
            name = tournament_name(&t.tournament)
        ),
    };
    format!("{head}\n{}", table(lang, m, t))
}

/// Who or what cancelled a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CancelledBy {
    Organizer,
    /// Too few entrants at its start time.
    TooFewEntrants,
}

/// A tournament cancelled: by its organizer, or for want of entrants at its start.
pub fn tournament_cancelled(lang: Lang, t: &Tournament, by: CancelledBy) -> String {
    let why = match by {
        CancelledBy::Organizer => "organizer",
        CancelledBy::TooFewEntrants => "too-few",
    };
    tr!(
        lang,
        "tournament-cancelled",
        name = tournament_name(t),
        why = why
    )
}

/// The answer to a withdrawal: the games it lost.
pub fn withdrawn(
    lang: Lang,
    m: &dyn Markup,
    t: &Tournament,
    lost: &[Game],
    who: &Member,
) -> String {
    let ids: Vec<String> = lost.iter().map(|g| format!("#{}", g.id)).collect();
    tr!(
        lang,
        "tournament-withdrew",
        name = tournament_name(t),
        member = m.name(&who.name),
        count = lost.len(),
        games = ids.join(", ")
    )
}

/// A member's entry into a tournament: joined, or left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Join,
    Leave,
}

/// The answer to joining or leaving: `You are in Spring Cup (#3): 5 entrants.`
pub fn entry_answer(lang: Lang, t: &Tournament, entry: Entry) -> String {
    let joined = match entry {
        Entry::Join => "yes",
        Entry::Leave => "no",
    };
    tr!(
        lang,
        "tournament-entry",
        name = tournament_name(t),
        joined = joined,
        count = t.entrants.len()
    )
}

/// Why a tournament command was refused.
pub fn tournament_refusal(lang: Lang, m: &dyn Markup, why: &TournamentRefusal) -> String {
    use TournamentRefusal as R;
    let _ = m;
    match why {
        R::InDirect => tr!(lang, "tournament-error-direct"),
        R::NeedsManageServer => tr!(lang, "tournament-error-manage-server"),
        R::NotOrganizer => tr!(lang, "tournament-error-not-organizer"),
        R::Limit(n) => tr!(lang, "tournament-error-limit", count = *n),
        R::Players { format, max } => tr!(
            lang,
            "tournament-error-players",
            format = format.as_str(),
            max = *max
        ),
        R::RoundsOnlySwiss => tr!(lang, "tournament-error-rounds-swiss"),
        R::Rounds => tr!(
            lang,
            "tournament-error-rounds",
            max = crate::game::MAX_ROUNDS
        ),
        R::Name => tr!(
            lang,
            "tournament-error-name",
            max = crate::game::NAME_LENGTH
        ),
        R::StartsIn => tr!(
            lang,
            "tournament-error-starts-in",
            max = super::duration(lang, crate::game::MAX_STARTS_IN)
        ),
        R::NotFound(id) => tr!(lang, "tournament-error-not-found", id = id.to_string()),
        R::NoneHere => tr!(lang, "tournament-error-none-here"),
        R::Which(list) => {
            let list: Vec<String> = list
                .iter()
                .map(|(id, name)| format!("{name} (#{id})"))
                .collect();
            tr!(lang, "tournament-error-which", list = list.join(", "))
        }
        R::Full(max) => tr!(lang, "tournament-error-full", max = *max),
        R::AlreadyIn => tr!(lang, "tournament-error-already-in"),
        R::NotIn => tr!(lang, "tournament-error-not-in"),
        R::AlreadyStarted => tr!(lang, "tournament-error-started"),
        R::NotStarted => tr!(lang, "tournament-error-not-started"),
        R::Over => tr!(lang, "tournament-error-over"),
        R::TooFew(n) => tr!(lang, "tournament-error-too-few", count = *n),
        R::AlreadyWithdrawn => tr!(lang, "tournament-error-withdrawn"),
        R::NoSuchRound(n) => tr!(lang, "tournament-error-round", round = n.get()),
        R::Changed => tr!(lang, "error-position-changed"),
    }
}
