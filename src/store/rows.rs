//! Rows as the store reads and writes them: plain data, ids already converted to `u64`.

use sqlx::sqlite::SqliteRow;
use sqlx::{FromRow, Row};

use super::{from_db, id_of};

/// A challenge to insert.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    pub guild_id: u64,
    pub channel_id: u64,
    pub challenger_id: u64,
    pub opponent_id: Option<u64>,
    pub size: String,
    pub challenger_color: Option<String>,
    pub time_limit: i64,
    pub rated: bool,
    pub created_at: i64,
    pub expires_at: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    pub id: i64,
    pub guild_id: u64,
    pub channel_id: u64,
    pub challenger_id: u64,
    pub opponent_id: Option<u64>,
    pub size: String,
    pub challenger_color: Option<String>,
    pub time_limit: i64,
    pub rated: bool,
    pub state: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub resolved_at: Option<i64>,
    pub game_id: Option<i64>,
}

impl FromRow<'_, SqliteRow> for ChallengeRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(ChallengeRow {
            id: row.try_get("id")?,
            guild_id: id_of(row, "guild_id")?,
            channel_id: id_of(row, "channel_id")?,
            challenger_id: id_of(row, "challenger_id")?,
            opponent_id: row.try_get::<Option<i64>, _>("opponent_id")?.map(from_db),
            size: row.try_get("size")?,
            challenger_color: row.try_get("challenger_color")?,
            time_limit: row.try_get("time_limit")?,
            rated: row.try_get("rated")?,
            state: row.try_get("state")?,
            created_at: row.try_get("created_at")?,
            expires_at: row.try_get("expires_at")?,
            resolved_at: row.try_get("resolved_at")?,
            game_id: row.try_get("game_id")?,
        })
    }
}

/// A game to insert.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub guild_id: u64,
    pub channel_id: u64,
    pub black_id: u64,
    pub white_id: u64,
    pub size: String,
    pub time_limit: i64,
    pub rated: bool,
    pub position: String,
    pub deadline: i64,
    pub created_at: i64,
    /// The AI's level in a game against it; `None` between members.
    pub ai_level: Option<u8>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: i64,
    pub guild_id: u64,
    pub channel_id: u64,
    pub black_id: u64,
    pub white_id: u64,
    pub size: String,
    pub time_limit: i64,
    pub rated: bool,
    pub state: String,
    pub ply: i64,
    pub position: String,
    pub last_move: Option<String>,
    pub deadline: i64,
    pub reminded: bool,
    pub winner: Option<String>,
    pub end_reason: Option<String>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub black_name: String,
    pub white_name: String,
    /// The AI's level in a game against it; `None` between members.
    pub ai_level: Option<u8>,
    /// Whether each side is played by a bot (the AI).
    pub black_is_bot: bool,
    pub white_is_bot: bool,
}

impl FromRow<'_, SqliteRow> for GameRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(GameRow {
            id: row.try_get("id")?,
            guild_id: id_of(row, "guild_id")?,
            channel_id: id_of(row, "channel_id")?,
            black_id: id_of(row, "black_id")?,
            white_id: id_of(row, "white_id")?,
            size: row.try_get("size")?,
            time_limit: row.try_get("time_limit")?,
            rated: row.try_get("rated")?,
            state: row.try_get("state")?,
            ply: row.try_get("ply")?,
            position: row.try_get("position")?,
            last_move: row.try_get("last_move")?,
            deadline: row.try_get("deadline")?,
            reminded: row.try_get("reminded")?,
            winner: row.try_get("winner")?,
            end_reason: row.try_get("end_reason")?,
            created_at: row.try_get("created_at")?,
            finished_at: row.try_get("finished_at")?,
            black_name: row.try_get("black_name")?,
            white_name: row.try_get("white_name")?,
            ai_level: row.try_get("ai_level")?,
            black_is_bot: row.try_get("black_is_bot")?,
            white_is_bot: row.try_get("white_is_bot")?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, FromRow)]
pub struct MoveRow {
    pub game_id: i64,
    pub ply: i64,
    pub notation: String,
    pub played_at: i64,
}

/// A member's Glicko-2 rating on one board of one server.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub guild_id: u64,
    pub member_id: u64,
    pub size: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub last_active: i64,
}

impl FromRow<'_, SqliteRow> for RatingRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(RatingRow {
            guild_id: id_of(row, "guild_id")?,
            member_id: id_of(row, "member_id")?,
            size: row.try_get("size")?,
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
            games: row.try_get("games")?,
            wins: row.try_get("wins")?,
            losses: row.try_get("losses")?,
            last_active: row.try_get("last_active")?,
        })
    }
}

/// Both players' (rating, deviation, volatility) before and after one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChangeRow {
    pub game_id: i64,
    pub black_before: (f64, f64, f64),
    pub white_before: (f64, f64, f64),
    pub black_after: (f64, f64, f64),
    pub white_after: (f64, f64, f64),
    pub created_at: i64,
}

impl FromRow<'_, SqliteRow> for RatingChangeRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        let triple = |prefix: &str, suffix: &str| -> sqlx::Result<(f64, f64, f64)> {
            Ok((
                row.try_get(format!("{prefix}_rating{suffix}").as_str())?,
                row.try_get(format!("{prefix}_deviation{suffix}").as_str())?,
                row.try_get(format!("{prefix}_volatility{suffix}").as_str())?,
            ))
        };
        Ok(RatingChangeRow {
            game_id: row.try_get("game_id")?,
            black_before: triple("black", "")?,
            white_before: triple("white", "")?,
            black_after: triple("black", "_after")?,
            white_after: triple("white", "_after")?,
            created_at: row.try_get("created_at")?,
        })
    }
}

/// One finished rated game as seen by one member: who won, how, and their rating change.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow {
    pub id: i64,
    pub black_id: u64,
    pub white_id: u64,
    pub winner: Option<String>,
    pub end_reason: Option<String>,
    pub finished_at: Option<i64>,
    pub change: f64,
}

impl FromRow<'_, SqliteRow> for ResultRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(ResultRow {
            id: row.try_get("id")?,
            black_id: id_of(row, "black_id")?,
            white_id: id_of(row, "white_id")?,
            winner: row.try_get("winner")?,
            end_reason: row.try_get("end_reason")?,
            finished_at: row.try_get("finished_at")?,
            change: row.try_get("change")?,
        })
    }
}

/// An announcement to queue in the outbox (migration 0005).
#[derive(Clone, Debug, PartialEq)]
pub struct NewOutbox {
    pub guild_id: u64,
    pub channel_id: u64,
    /// The announcement, as JSON.
    pub announcement: String,
    /// Unix seconds.
    pub created_at: i64,
    /// When to post it first, in unix milliseconds.
    pub first_attempt_at: i64,
}

/// An announcement waiting in the outbox.
#[derive(Clone, Debug, PartialEq)]
pub struct OutboxRow {
    pub id: i64,
    pub guild_id: u64,
    pub channel_id: u64,
    pub announcement: String,
    pub created_at: i64,
    pub attempts: i64,
    /// Unix milliseconds.
    pub next_attempt_at: i64,
}

impl FromRow<'_, SqliteRow> for OutboxRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(OutboxRow {
            id: row.try_get("id")?,
            guild_id: id_of(row, "guild_id")?,
            channel_id: id_of(row, "channel_id")?,
            announcement: row.try_get("announcement")?,
            created_at: row.try_get("created_at")?,
            attempts: row.try_get("attempts")?,
            next_attempt_at: row.try_get("next_attempt_at")?,
        })
    }
}

/// A game whose reminder was just taken: where it is played, who is to move, and until when.
#[derive(Clone, Debug, PartialEq)]
pub struct ReminderRow {
    pub id: i64,
    pub guild_id: u64,
    pub channel_id: u64,
    pub to_move: u64,
    pub deadline: i64,
}

impl FromRow<'_, SqliteRow> for ReminderRow {
    fn from_row(row: &SqliteRow) -> sqlx::Result<Self> {
        Ok(ReminderRow {
            id: row.try_get("id")?,
            guild_id: id_of(row, "guild_id")?,
            channel_id: id_of(row, "channel_id")?,
            to_move: id_of(row, "to_move")?,
            deadline: row.try_get("deadline")?,
        })
    }
}
