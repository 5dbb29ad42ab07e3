//! Words for players: status lines, results, rating changes, move-list exports and help.
//! Shared by every front end, so the console and Discord say the same things.
//!
//! Every function takes the language to speak first; the words come from the catalogues (see
//! [`crate::i18n`]). Those that write a member's name or point to a channel take the front end's
//! [`Markup`] next: a name is the member's own text, and only the front end knows how to show it
//! as text, and how to point to a channel. A service's error's `Display` speaks English with
//! [`Plain`], for logs and for the tests that hold the English words as they are.
//!
//! Beside this file: `alt` (a board picture's alt text), `analysis` (`/analyze`'s summary and
//! file), `errors` (each service's refusals, [`Refusal`] and [`AnyError`], and the rules' refusals
//! of a move or a size), `markup` ([`Markup`] and [`Plain`]), `times` (spans of time, time controls and dates in
//! words), `export` (a game's history as a text file), `help` (the help, the board's legend, the
//! notification setting), `settings` (members' and servers' settings), `threads` (games in
//! threads), `tournaments` (tournaments' posts and refusals) and `puzzles` (puzzles and the daily
//! puzzle). The game service itself holds no words.

mod alt;
pub mod analysis;
mod errors;
mod export;
mod help;
mod markup;
mod puzzles;
mod settings;
mod teams;
mod threads;
mod times;
mod tournaments;

use std::time::Duration;

use crate::game::Timestamp;
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::rules::{BoardSize, Color, Move};

pub use alt::board_alt;
pub use errors::{AnyError, Refusal};
pub use export::{export, move_list};
pub use help::{board_legend, help, notify_setting};
pub use markup::{Markup, Plain};
pub use puzzles::{
    daily_count, daily_post, daily_puzzle, puzzle_card, puzzle_refusal, puzzle_step, puzzle_view,
};
pub use settings::{member_settings, server_settings, settings_answer};
pub use teams::{team_credits, team_game_started, team_moved, voted, window_extended};
pub use threads::{thread_ended, thread_name, thread_trouble};
pub use times::{duration, time_control, utc_time};
pub use tournaments::{
    entry_answer, final_standings, round_games, round_news, signup, table, tournament_cancelled,
    tournament_format, tournament_refusal, tournament_tag, withdrawn, your_games, CancelledBy,
    Entry,
};
// Used inside `text` alone so far; open to the tests.
#[cfg(feature = "test-support")]
pub use tournaments::{round_game, tournament_name, tournament_terms};

use crate::game::{
    Challenge, ChallengeState, EndReason, Game, GameId, GameStatus, Leaderboard, Member, MemberId,
    Name, Place, Played, RatingCard, RatingChange, RatingValue, Ratings,
};

/// How a game ended, said to the players: `a piece reached the far row`.
pub fn end_reason(lang: Lang, reason: EndReason) -> String {
    match reason {
        EndReason::Breakthrough => tr!(lang, "end-breakthrough"),
        EndReason::AllCaptured => tr!(lang, "end-all-captured"),
        EndReason::NoMoves => tr!(lang, "end-no-moves"),
        EndReason::Resignation => tr!(lang, "end-resignation"),
        EndReason::Timeout => tr!(lang, "end-timeout"),
        EndReason::Aborted => tr!(lang, "end-aborted"),
    }
}

/// A challenge's state as said to members: `pending`, `accepted`, …
pub fn challenge_state(lang: Lang, state: ChallengeState) -> String {
    tr!(lang, "challenge-state", state = state.as_str())
}

/// What a member is told when something broke on our side (logged in full, not shown).
pub fn apology(lang: Lang) -> String {
    tr!(lang, "error-internal")
}

/// The answer to a member over the rate limit, who may send again after `wait`: in whole
/// seconds, rounded up, at least 1.
pub fn slow_down(lang: Lang, wait: Duration) -> String {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    tr!(lang, "slow-down", seconds = seconds.max(1))
}

/// Where a game is played, as a player is pointed to it: its channel as the front end points to
/// one, or `our direct messages`.
pub fn place(lang: Lang, m: &dyn Markup, place: Place) -> String {
    if place.is_direct() {
        tr!(lang, "place-direct")
    } else {
        m.channel(lang, place.channel)
    }
}

/// `Game #12 · 8x8 · rated · 1 day per move`, or `Game #12 · 8x8 · vs AI (level 3) · casual ·
/// 1 day per move` against the AI.
pub fn title(lang: Lang, game: &Game) -> String {
    let rating = if game.ended_early() {
        "unrated"
    } else if game.rated {
        "rated"
    } else {
        "casual"
    };
    let rating = tr!(lang, "game-rating", rating = rating);
    let (id, size, time) = (
        game.id.to_string(),
        game.size.to_string(),
        time_control(lang, game.time),
    );
    let title = match game.ai {
        Some(ai) => tr!(
            lang,
            "game-title-ai",
            id = id,
            size = size,
            level = ai.level.to_string(),
            rating = rating,
            time = time
        ),
        None => tr!(
            lang,
            "game-title",
            id = id,
            size = size,
            rating = rating,
            time = time
        ),
    };
    match &game.tournament {
        Some(tag) => format!("{title} · {}", tournament_tag(lang, tag)),
        None => title,
    }
}

/// What the AI just played: `The AI (level 3) played e2-e3.`
pub fn ai_played(lang: Lang, played: &Played) -> String {
    let mv = played.mv.to_string();
    match played.game.ai {
        Some(ai) => tr!(lang, "ai-played", level = ai.level.to_string(), move = mv),
        None => tr!(lang, "move-played", move = mv),
    }
}

/// `Challenge #3 from alice expired.`
pub fn challenge_expired(lang: Lang, m: &dyn Markup, c: &Challenge) -> String {
    tr!(
        lang,
        "challenge-expired",
        id = c.id.to_string(),
        challenger = m.name(&c.challenger.name)
    )
}

/// A reminder to the side to move, after their name: `your move in game #12: 9m left.`
pub fn reminder(lang: Lang, m: &dyn Markup, game: &Game, now: Timestamp) -> String {
    let left = m.time_left(lang, now, game.status.deadline().unwrap_or(now));
    tr!(lang, "reminder", id = game.id.to_string(), left = left)
}

/// The private note for a move that went through after its answer was deferred: the board
/// goes to the channel as an ordinary message.
pub fn played_late(lang: Lang, mv: Move, game: GameId) -> String {
    tr!(
        lang,
        "played-late",
        move = mv.to_string(),
        id = game.to_string()
    )
}

/// Said of a game that ended before both sides had moved:
/// `unrated: it ended before both sides had moved`.
pub fn unrated_early(lang: Lang) -> String {
    tr!(lang, "unrated-early")
}

/// Where the game stands: whose move and the time left, or the result (`unrated` when it ended
/// before both sides had moved); while it goes on, who of its players is on vacation.
pub fn status(lang: Lang, m: &dyn Markup, game: &Game, now: Timestamp) -> String {
    let mut standing = standing(lang, m, game, now);
    if game.ended_early() {
        standing = format!("{standing} · {}", unrated_early(lang));
    }
    if game.is_active() {
        for color in [Color::Black, Color::White] {
            if let Some(until) = game.away_until(color, now) {
                let name = &game.player(color).name;
                standing = format!("{standing} · {}", away(lang, m, name, until));
            }
        }
    }
    standing
}

/// `bob is on vacation until 2026-12-01 18:00 UTC`.
pub fn away(lang: Lang, m: &dyn Markup, name: &Name, until: Timestamp) -> String {
    tr!(
        lang,
        "vacation-away",
        name = m.name(name),
        until = m.moment(until)
    )
}

/// What an opponent is told when `member` goes on vacation: `alice is on vacation until …: in
/// game #12 her clock waits for her; yours runs as usual.`
pub fn vacation_told(
    lang: Lang,
    m: &dyn Markup,
    game: &Game,
    member: MemberId,
    until: Timestamp,
) -> String {
    let name = game
        .color_of(member)
        .map_or_else(String::new, |c| m.name(&game.player(c).name));
    tr!(
        lang,
        "vacation-told",
        name = name,
        id = game.id.to_string(),
        until = m.moment(until)
    )
}

/// A turn told by direct message to `member`: `Your move in game #12 against bob: bob played
/// e7-e6. 9h 59m left.`, or with `reminder` that their time runs short.
pub fn your_turn(
    lang: Lang,
    m: &dyn Markup,
    game: &Game,
    member: MemberId,
    reminder: bool,
    now: Timestamp,
) -> String {
    let opponent = game
        .color_of(member)
        .map_or_else(String::new, |c| m.name(&game.player(c.opposite()).name));
    let deadline = game.status.deadline().unwrap_or(now);
    let left = m.time_left_sentence(lang, now, deadline);
    let id = game.id.to_string();
    match (reminder, game.last_move) {
        (true, _) => tr!(
            lang,
            "dm-reminder",
            id = id,
            opponent = &opponent,
            left = m.time_left(lang, now, deadline)
        ),
        (false, Some(mv)) => tr!(
            lang,
            "dm-your-move",
            id = id,
            opponent = &opponent,
            move = mv.to_string(),
            left = left
        ),
        (false, None) => tr!(
            lang,
            "dm-first-move",
            id = id,
            opponent = &opponent,
            left = left
        ),
    }
}

fn standing(lang: Lang, m: &dyn Markup, game: &Game, now: Timestamp) -> String {
    match game.status {
        GameStatus::Active { deadline } => {
            let turn = game.position.turn();
            tr!(
                lang,
                "status-active",
                number = game.move_number().to_string(),
                side = turn.name(),
                name = m.name(&game.player(turn).name),
                left = m.time_left(lang, now, deadline)
            )
        }
        GameStatus::Finished { winner, reason, .. } => tr!(
            lang,
            "status-won",
            side = winner.name(),
            name = m.name(&game.player(winner).name),
            reason = reason_text(lang, m, reason, winner, game)
        ),
        GameStatus::Aborted { .. } => tr!(lang, "status-aborted"),
    }
}

fn reason_text(
    lang: Lang,
    m: &dyn Markup,
    reason: EndReason,
    winner: Color,
    game: &Game,
) -> String {
    let loser = m.name(&game.player(winner.opposite()).name);
    match reason {
        EndReason::Resignation => tr!(lang, "reason-resigned", loser = loser),
        EndReason::Timeout => tr!(lang, "reason-timed-out", loser = loser),
        other => end_reason(lang, other),
    }
}

/// A game as one member finds it among several: `#3 against bob`.
pub fn game_against(lang: Lang, m: &dyn Markup, id: GameId, opponent: &Name) -> String {
    tr!(
        lang,
        "game-against",
        id = id.to_string(),
        opponent = m.name(opponent)
    )
}

/// A member's games in progress, one line each (`#3 against bob · Move 2 · …`), or a line saying
/// there are none.
pub fn games_list(
    lang: Lang,
    m: &dyn Markup,
    whom: &Member,
    games: &[Game],
    now: Timestamp,
) -> String {
    if games.is_empty() {
        return tr!(lang, "games-none", name = m.name(&whom.name));
    }
    games
        .iter()
        .map(|g| {
            let opponent = if g.players.black.id == whom.id {
                &g.players.white
            } else {
                &g.players.black
            };
            format!(
                "{} · {}",
                game_against(lang, m, g.id, &opponent.name),
                status(lang, m, g, now)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `1500? → 1662? (+162)`.
pub fn rating_move(before: RatingValue, after: RatingValue) -> String {
    let delta = after.rating.round() - before.rating.round();
    format!("{before} → {after} ({delta:+.0})")
}

/// One line per player with their rating change, for a finished rated game.
pub fn rating_lines(m: &dyn Markup, game: &Game, change: &RatingChange) -> Vec<String> {
    [Color::Black, Color::White]
        .into_iter()
        .map(|c| {
            format!(
                "{}: {}",
                m.name(&game.player(c).name),
                rating_move(change.before[c], change.after[c])
            )
        })
        .collect()
}

/// A challenge as announced: who, what board, sides, time, rated or not.
pub fn challenge(lang: Lang, m: &dyn Markup, c: &Challenge, now: Timestamp) -> String {
    let challenger = m.name(&c.challenger.name);
    let whom = match &c.opponent {
        Some(o) => tr!(
            lang,
            "challenge-whom",
            challenger = &challenger,
            opponent = m.name(&o.name)
        ),
        None => tr!(lang, "challenge-open", challenger = &challenger),
    };
    let side = match c.color {
        Some(color) => tr!(
            lang,
            "challenge-side",
            challenger = &challenger,
            side = color.name()
        ),
        None => tr!(lang, "challenge-side-random"),
    };
    let rating = match (c.rated, c.casual_by_limit) {
        (true, _) => tr!(lang, "game-rating", rating = "rated"),
        (false, Some(limit)) => tr!(lang, "challenge-casual-by-limit", limit = limit),
        (false, None) => tr!(lang, "game-rating", rating = "casual"),
    };
    let state = match c.state {
        ChallengeState::Pending => tr!(
            lang,
            "challenge-expires",
            left = m.within(lang, now, c.expires_at)
        ),
        other => challenge_state(lang, other),
    };
    let said = tr!(
        lang,
        "challenge",
        id = c.id.to_string(),
        whom = whom,
        size = c.size.to_string(),
        side = side,
        time = time_control(lang, c.time),
        rating = rating,
        state = state
    );
    match (&c.opponent, c.opponent_away_until) {
        (Some(o), Some(until)) if c.state == ChallengeState::Pending => {
            format!("{said} · {}", away(lang, m, &o.name, until))
        }
        _ => said,
    }
}

/// A member's rating cards, a blank line between two, then the other sizes they have a
/// rating on.
pub fn ratings(lang: Lang, m: &dyn Markup, ratings: &Ratings) -> String {
    let mut parts: Vec<String> = ratings
        .cards
        .iter()
        .map(|card| rating_card(lang, m, card))
        .collect();
    parts.extend(rating_more(lang, &ratings.more));
    parts.join("\n\n")
}

/// The other sizes a member has a rating on, beyond the cards shown: `None` when there are none.
pub fn rating_more(lang: Lang, more: &[BoardSize]) -> Option<String> {
    let first = more.first()?;
    let sizes: Vec<String> = more.iter().map(ToString::to_string).collect();
    Some(tr!(
        lang,
        "rating-more",
        sizes = sizes.join(", "),
        example = first.to_string()
    ))
}

/// A rating card in a few lines.
pub fn rating_card(lang: Lang, m: &dyn Markup, card: &RatingCard) -> String {
    let mut out = tr!(
        lang,
        "rating-card",
        name = m.name(&card.member.name),
        size = card.size.to_string(),
        value = card.value.to_string(),
        deviation = format!("{:.0}", card.value.deviation),
        games = card.games,
        wins = card.wins,
        losses = card.losses
    );
    if card.value.is_provisional() {
        out.push('\n');
        out.push_str(&tr!(lang, "rating-provisional"));
    }
    for r in &card.recent {
        out.push('\n');
        out.push_str(&tr!(
            lang,
            "rating-recent",
            id = r.game.to_string(),
            won = if r.won { "yes" } else { "no" },
            opponent = m.name(&r.opponent.name),
            reason = end_reason(lang, r.reason),
            change = format!("{:+.0}", r.change)
        ));
    }
    out
}

/// A leaderboard page as lines: the ranked players, then the provisional ones under a heading
/// that says what a rank takes.
pub fn leaderboard(lang: Lang, m: &dyn Markup, board: &Leaderboard) -> String {
    let mut out = tr!(
        lang,
        "leaderboard-title",
        size = board.size.to_string(),
        page = board.page.to_string(),
        pages = board.pages.to_string()
    );
    if board.standings.is_empty() {
        out.push('\n');
        out.push_str(&tr!(lang, "leaderboard-empty"));
    }
    let mut headed = false;
    for s in &board.standings {
        let line = format!(
            "{} {} ({}-{})",
            m.name(&s.member.name),
            s.value,
            s.wins,
            s.losses
        );
        match s.rank {
            Some(rank) => out.push_str(&format!("\n{rank}. {line}")),
            None => {
                if !headed {
                    out.push('\n');
                    out.push_str(&tr!(lang, "leaderboard-provisional"));
                    headed = true;
                }
                out.push_str(&format!("\n· {line}"));
            }
        }
    }
    out
}
