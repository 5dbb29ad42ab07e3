//! Words for players: status lines, results, rating changes, move-list exports and help.
//! Shared by every front end, so the console and Discord say the same things.

use crate::rules::{Color, Move};

use super::types::{
    Challenge, ChallengeState, EndReason, Game, GameId, GameStatus, History, Leaderboard, Member,
    Place, Played, RatingCard, RatingChange, RatingValue,
};

/// A span of seconds for people: `2d 3h`, `23h 59m`, `9m`, `less than a minute`.
pub fn duration(seconds: i64) -> String {
    let s = seconds.max(0);
    let (d, h, m) = (s / 86_400, s % 86_400 / 3_600, s % 3_600 / 60);
    match (d, h, m) {
        (0, 0, 0) => "less than a minute".to_string(),
        (0, 0, m) => format!("{m}m"),
        (0, h, m) => format!("{h}h {m}m"),
        (d, h, _) => format!("{d}d {h}h"),
    }
}

/// The answer to a member over the rate limit, who may send again in `seconds` (at least 1).
pub fn slow_down(seconds: u64) -> String {
    format!(
        "you are sending commands too fast: try again in {} s",
        seconds.max(1)
    )
}

/// Where a game is played, as a player is pointed to it: the channel as `<#123>` (a link on
/// Discord), or `our direct messages`.
pub fn place(place: Place) -> String {
    if place.is_direct() {
        "our direct messages".to_string()
    } else {
        format!("<#{}>", place.channel)
    }
}

fn capitalized(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `Game #12 · 8x8 · rated · 1 day per move`, or `Game #12 · 8x8 · vs AI (level 3) · casual ·
/// 1 day per move` against the AI.
pub fn title(game: &Game) -> String {
    let ai = match game.ai {
        Some(ai) => format!("vs AI (level {}) · ", ai.level),
        None => String::new(),
    };
    format!(
        "Game #{} · {} · {ai}{} · {}",
        game.id,
        game.size,
        if game.ended_early() {
            "unrated"
        } else if game.rated {
            "rated"
        } else {
            "casual"
        },
        game.time.label()
    )
}

/// What the AI just played: `The AI (level 3) played e2-e3.`
pub fn ai_played(played: &Played) -> String {
    match played.game.ai {
        Some(ai) => format!("The AI (level {}) played {}.", ai.level, played.mv),
        None => format!("{} was played.", played.mv),
    }
}

/// `Challenge #3 from alice expired.`
pub fn challenge_expired(c: &Challenge) -> String {
    format!("Challenge #{} from {} expired.", c.id, c.challenger.name)
}

/// A reminder to the side to move, after their name: `your move in game #12: 9m left.`
pub fn reminder(game: &Game, now: i64) -> String {
    format!(
        "your move in game #{}: {} left.",
        game.id,
        duration(game.status.deadline().map_or(0, |d| d - now))
    )
}

/// The private note for a move that went through after its answer was deferred: the board
/// goes to the channel as an ordinary message.
pub fn played_late(mv: Move, game: GameId) -> String {
    format!("Your move {mv} in game #{game} is played; the board is posted in the channel.")
}

/// Said of a game that ended before both sides had moved.
pub const UNRATED_EARLY: &str = "unrated: it ended before both sides had moved";

/// Where the game stands: whose move and the time left, or the result (`unrated` when it ended
/// before both sides had moved).
pub fn status(game: &Game, now: i64) -> String {
    let standing = standing(game, now);
    if game.ended_early() {
        format!("{standing} · {UNRATED_EARLY}")
    } else {
        standing
    }
}

fn standing(game: &Game, now: i64) -> String {
    match game.status {
        GameStatus::Active { deadline } => {
            let turn = game.position.turn();
            format!(
                "Move {} · {} to move: {} · {} left",
                game.move_number(),
                capitalized(turn),
                game.player(turn).name,
                duration(deadline - now)
            )
        }
        GameStatus::Finished { winner, reason, .. } => format!(
            "{} ({}) wins: {}",
            capitalized(winner),
            game.player(winner).name,
            reason_text(reason, winner, game)
        ),
        GameStatus::Aborted { .. } => "Aborted: no result".to_string(),
    }
}

fn reason_text(reason: EndReason, winner: Color, game: &Game) -> String {
    let loser = &game.player(winner.opposite()).name;
    match reason {
        EndReason::Resignation => format!("{loser} resigned"),
        EndReason::Timeout => format!("{loser} ran out of time"),
        other => other.describe().to_string(),
    }
}

/// A member's games in progress, one line each (`#3 against bob · Move 2 · …`), or a line saying
/// there are none.
pub fn games_list(whom: &Member, games: &[Game], now: i64) -> String {
    if games.is_empty() {
        return format!("{} has no game in progress.", whom.name);
    }
    games
        .iter()
        .map(|g| {
            let opponent = if g.black.id == whom.id {
                &g.white
            } else {
                &g.black
            };
            format!("#{} against {} · {}", g.id, opponent.name, status(g, now))
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
pub fn rating_lines(game: &Game, change: &RatingChange) -> Vec<String> {
    [Color::Black, Color::White]
        .into_iter()
        .map(|c| {
            format!(
                "{}: {}",
                game.player(c).name,
                rating_move(change.before(c), change.after(c))
            )
        })
        .collect()
}

/// A challenge as announced: who, what board, sides, time, rated or not.
pub fn challenge(c: &Challenge, now: i64) -> String {
    let whom = match &c.opponent {
        Some(o) => format!("{} challenges {}", c.challenger.name, o.name),
        None => format!("{} is looking for an opponent", c.challenger.name),
    };
    let side = match c.color {
        Some(color) => format!("{} plays {color}", c.challenger.name),
        None => "sides drawn at random".to_string(),
    };
    let rated = match (c.rated, c.casual_by_limit) {
        (true, _) => "rated".to_string(),
        (false, Some(1)) => {
            "casual (you have played your rated game against each other today)".to_string()
        }
        (false, Some(limit)) => {
            format!("casual (you have played your {limit} rated games against each other today)")
        }
        (false, None) => "casual".to_string(),
    };
    let state = match c.state {
        ChallengeState::Pending => format!("expires in {}", duration(c.expires_at - now)),
        other => other.as_str().to_string(),
    };
    format!(
        "Challenge #{}: {whom} · {} · {side} · {} · {rated} · {state}",
        c.id,
        c.size,
        c.time.label()
    )
}

/// The move list numbered in pairs: `1. e7-e6 d2-d3  2. …`, one move number per line.
pub fn move_list(moves: &[String]) -> String {
    moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A game as a text file: headers, then the numbered move list.
pub fn export(h: &History) -> String {
    let g = &h.game;
    let result = match g.status {
        GameStatus::Finished {
            winner: Color::Black,
            reason,
            ..
        } => format!("black wins ({})", reason.describe()),
        GameStatus::Finished {
            winner: Color::White,
            reason,
            ..
        } => format!("white wins ({})", reason.describe()),
        GameStatus::Aborted { .. } => "aborted".to_string(),
        GameStatus::Active { .. } => "in progress".to_string(),
    };
    format!(
        "[Game \"{}\"]\n[Size \"{}\"]\n[Black \"{}\"]\n[White \"{}\"]\n[Time \"{}\"]\n[Rated \"{}\"]\n[Result \"{}\"]\n\n{}\n",
        g.id,
        g.size,
        g.black.name,
        g.white.name,
        g.time.label(),
        if g.rated { "yes" } else { "no" },
        result,
        move_list(&h.moves)
    )
}

/// A rating card in a few lines.
pub fn rating_card(card: &RatingCard) -> String {
    let mut out = format!(
        "{} on {}: {} (deviation {:.0}) · {} games, {} wins, {} losses",
        card.member.name,
        card.size,
        card.value,
        card.value.deviation,
        card.games,
        card.wins,
        card.losses
    );
    if card.value.is_provisional() {
        out.push_str("\n? = provisional: a few more rated games settle it");
    }
    for r in &card.recent {
        out.push_str(&format!(
            "\n#{} {} against {} ({}) {:+.0}",
            r.game,
            if r.won { "won" } else { "lost" },
            r.opponent.name,
            r.reason.describe(),
            r.change
        ));
    }
    out
}

/// A leaderboard page as lines.
pub fn leaderboard(board: &Leaderboard) -> String {
    let mut out = format!(
        "Leaderboard {} · page {}/{}",
        board.size, board.page, board.pages
    );
    if board.standings.is_empty() {
        out.push_str("\nNo established ratings yet.");
    }
    for s in &board.standings {
        out.push_str(&format!(
            "\n{}. {} {} ({}-{})",
            s.rank, s.member.name, s.value, s.wins, s.losses
        ));
    }
    if board.provisional > 0 {
        out.push_str(&format!(
            "\n{} provisional player{} not shown",
            board.provisional,
            if board.provisional == 1 { "" } else { "s" }
        ));
    }
    out
}

/// Rules, notation and commands, short.
pub const HELP: &str = "\
Breakthrough: move one piece one square forward, straight or diagonally, onto an empty square; \
capture diagonally forward only. Reach the far row, or take every enemy piece, to win. Black moves first.
Moves: e7-e6, or d4xe5 for a capture (e7e6 and e7 e6 work too; e6 alone when only one piece can go there).
Commands:
/challenge [opponent] [size] [color] [time] [rated] · challenge a member, or anyone here without opponent
/challenge opponent:<the bot> [level] · play the built-in AI at once (level 1 beginner to 5 strong, default 3; never rated; works in DMs too)
/accept [challenger] · /decline [challenger] · /cancel
/move move:<e7-e6> [game] · /board [game] · /resign [game] · /abort [game]
/games [user] · /leaderboard [size] [page] · /rating [user] [size] · /history game:<id> · /help";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(30), "less than a minute");
        assert_eq!(duration(9 * 60 + 5), "9m");
        assert_eq!(duration(23 * 3600 + 59 * 60), "23h 59m");
        assert_eq!(duration(2 * 86_400 + 3 * 3600 + 5), "2d 3h");
        assert_eq!(duration(-5), "less than a minute");
    }

    #[test]
    fn move_lists_pair_black_and_white() {
        let moves: Vec<String> = ["e7-e6", "d2-d3", "e6-e5"].map(String::from).to_vec();
        assert_eq!(move_list(&moves), "1. e7-e6 d2-d3\n2. e6-e5");
    }
}
