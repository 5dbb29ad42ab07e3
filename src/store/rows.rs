//! Rows as the store reads and writes them, every column as its domain type (see `codec`).

use sqlx::any::AnyRow;
use sqlx::{FromRow, Row};

use crate::domain::{
    ChallengeId, ChallengeState, ChannelId, EndReason, GameId, GameState, GuildId, MemberId,
    OutboxId, RatingChange, RatingValue, RoundNumber, TimeControl, Timestamp, TournamentId,
};
use crate::engine::Level;
use crate::rules::{BoardSize, ByColor, Color, Position};

use super::codec::{Flag, Millis};

/// A challenge to insert.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub challenger_id: MemberId,
    pub opponent_id: Option<MemberId>,
    pub size: BoardSize,
    pub challenger_color: Option<Color>,
    pub time_limit: TimeControl,
    pub rated: bool,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
}

#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct ChallengeRow {
    pub id: ChallengeId,
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub challenger_id: MemberId,
    pub opponent_id: Option<MemberId>,
    pub size: BoardSize,
    pub challenger_color: Option<Color>,
    pub time_limit: TimeControl,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
    /// From the columns `state` and `game_id`.
    #[sqlx(flatten)]
    pub state: ChallengeState,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
    pub resolved_at: Option<Timestamp>,
}

/// A challenge's state from its columns `state` and `game_id`: the game is there exactly when
/// the challenge was accepted (as the schema checks). A row where they disagree does not read.
impl FromRow<'_, AnyRow> for ChallengeState {
    fn from_row(row: &AnyRow) -> sqlx::Result<Self> {
        let state: String = row.try_get("state")?;
        let game: Option<GameId> = row.try_get("game_id")?;
        let without_game = [
            ChallengeState::Pending,
            ChallengeState::Declined,
            ChallengeState::Cancelled,
            ChallengeState::Expired,
        ];
        without_game
            .into_iter()
            .chain(game.map(ChallengeState::Accepted))
            .find(|s| s.as_str() == state && s.game() == game)
            .ok_or_else(|| {
                let game = game.map_or_else(|| "no game".to_string(), |g| format!("game {g}"));
                sqlx::Error::ColumnDecode {
                    index: "state".to_string(),
                    source: format!("`{state}` with {game} is not a challenge's state").into(),
                }
            })
    }
}

/// A game to insert.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub players: ByColor<MemberId>,
    pub size: BoardSize,
    pub time_limit: TimeControl,
    pub rated: bool,
    pub position: Position,
    pub deadline: Timestamp,
    pub created_at: Timestamp,
    /// The AI's level in a game against it; `None` between members.
    pub ai_level: Option<Level>,
    /// Whether that level was chosen for the member (`level:auto`).
    pub ai_auto: bool,
    /// Whether the bot can only answer its players there, never post.
    pub answers_only: bool,
}

/// A game with its players. The position and the last move are kept as written: each is read
/// with the game, so that one that does not read back spoils that game alone.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct GameRow {
    pub id: GameId,
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    /// From the columns of each side (see [`PlayerRow`]).
    #[sqlx(flatten)]
    pub players: ByColor<PlayerRow>,
    pub size: BoardSize,
    pub time_limit: TimeControl,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
    pub state: GameState,
    #[sqlx(try_from = "i64")]
    pub ply: u32,
    pub position: String,
    pub last_move: Option<String>,
    pub deadline: Timestamp,
    #[sqlx(try_from = "Flag")]
    pub reminded: bool,
    pub winner: Option<Color>,
    pub end_reason: Option<EndReason>,
    pub created_at: Timestamp,
    pub finished_at: Option<Timestamp>,
    /// The AI's level in a game against it; `None` between members.
    pub ai_level: Option<Level>,
    /// Whether that level was chosen for the member (`level:auto`).
    #[sqlx(try_from = "Flag")]
    pub ai_auto: bool,
    /// Whether the bot can only answer its players there, never post.
    #[sqlx(try_from = "Flag")]
    pub answers_only: bool,
    /// The channel the game started in, while it lives in a thread of its own (`channel_id`).
    pub parent_channel_id: Option<ChannelId>,
    /// The tournament the game belongs to, its round and its name.
    pub tournament_id: Option<TournamentId>,
    pub tournament_round: Option<RoundNumber>,
    pub tournament_name: Option<String>,
}

/// One player of a game, from the game's columns for their side: `black_id`, `black_name`,
/// `black_is_bot`, `black_away_until` and `black_notify_dm` for Black, and so on.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRow {
    pub id: MemberId,
    /// Their name in the game's server.
    pub name: String,
    /// Whether they are a bot (the AI).
    pub is_bot: bool,
    /// Whether they are a channel playing a vote game (see `teams`).
    pub is_team: bool,
    /// When their latest vacation ends (or ended), if they ever took one.
    pub away_until: Option<Timestamp>,
    /// Whether they get a direct message on their turn.
    pub notify_dm: bool,
}

impl FromRow<'_, AnyRow> for ByColor<PlayerRow> {
    fn from_row(row: &AnyRow) -> sqlx::Result<Self> {
        let player = |color: Color| -> sqlx::Result<PlayerRow> {
            let column = |name: &str| format!("{color}_{name}");
            Ok(PlayerRow {
                id: row.try_get(column("id").as_str())?,
                name: row.try_get(column("name").as_str())?,
                is_bot: row.try_get::<Flag, _>(column("is_bot").as_str())?.into(),
                is_team: row.try_get::<Flag, _>(column("is_team").as_str())?.into(),
                away_until: row.try_get(column("away_until").as_str())?,
                notify_dm: row.try_get::<Flag, _>(column("notify_dm").as_str())?.into(),
            })
        };
        Ok(ByColor::new(player(Color::Black)?, player(Color::White)?))
    }
}

/// Both players' ids, from the columns `black_id` and `white_id`.
impl FromRow<'_, AnyRow> for ByColor<MemberId> {
    fn from_row(row: &AnyRow) -> sqlx::Result<Self> {
        Ok(ByColor::new(
            row.try_get("black_id")?,
            row.try_get("white_id")?,
        ))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, FromRow)]
pub struct MoveRow {
    pub game_id: GameId,
    #[sqlx(try_from = "i64")]
    pub ply: u32,
    pub notation: String,
    pub played_at: Timestamp,
}

/// A member's Glicko-2 rating on one board of one server.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub guild_id: GuildId,
    pub member_id: MemberId,
    pub size: BoardSize,
    pub value: RatingValue,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub last_active: Timestamp,
}

/// The rating, deviation and volatility in the columns `{prefix}rating{suffix}` and so on.
pub(super) fn rating_value(row: &AnyRow, prefix: &str, suffix: &str) -> sqlx::Result<RatingValue> {
    Ok(RatingValue {
        rating: row.try_get(format!("{prefix}rating{suffix}").as_str())?,
        deviation: row.try_get(format!("{prefix}deviation{suffix}").as_str())?,
        volatility: row.try_get(format!("{prefix}volatility{suffix}").as_str())?,
    })
}

impl FromRow<'_, AnyRow> for RatingRow {
    fn from_row(row: &AnyRow) -> sqlx::Result<Self> {
        Ok(RatingRow {
            guild_id: row.try_get("guild_id")?,
            member_id: row.try_get("member_id")?,
            size: row.try_get("size")?,
            value: rating_value(row, "", "")?,
            games: row.try_get("games")?,
            wins: row.try_get("wins")?,
            losses: row.try_get("losses")?,
            last_active: row.try_get("last_active")?,
        })
    }
}

/// Both players' ratings before and after one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChangeRow {
    pub game_id: GameId,
    /// Before from the columns `black_rating` and so on, after from `black_rating_after` and so on.
    pub change: RatingChange,
    pub created_at: Timestamp,
}

impl FromRow<'_, AnyRow> for RatingChangeRow {
    fn from_row(row: &AnyRow) -> sqlx::Result<Self> {
        let values = |suffix| -> sqlx::Result<ByColor<RatingValue>> {
            let side = |color: Color| rating_value(row, &format!("{color}_"), suffix);
            Ok(ByColor::new(side(Color::Black)?, side(Color::White)?))
        };
        Ok(RatingChangeRow {
            game_id: row.try_get("game_id")?,
            change: RatingChange {
                before: values("")?,
                after: values("_after")?,
            },
            created_at: row.try_get("created_at")?,
        })
    }
}

/// One finished rated game as seen by one member: who won, how, and their rating change.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct ResultRow {
    pub id: GameId,
    #[sqlx(flatten)]
    pub players: ByColor<MemberId>,
    pub winner: Color,
    pub end_reason: EndReason,
    pub finished_at: Option<Timestamp>,
    pub change: f64,
}

/// An announcement to queue in the outbox (migration 0005).
#[derive(Clone, Debug, PartialEq)]
pub struct NewOutbox {
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    /// The announcement, as JSON.
    pub announcement: String,
    pub created_at: Timestamp,
    /// When to post it first (stored in unix milliseconds); for one that waits for a board's
    /// message, the latest.
    pub first_attempt_at: Timestamp,
    /// The game whose board's message it waits for: recording that message makes it due.
    pub waits_for_board: Option<GameId>,
}

/// An announcement waiting in the outbox.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct OutboxRow {
    pub id: OutboxId,
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub announcement: String,
    pub created_at: Timestamp,
    pub attempts: i64,
    /// Stored in unix milliseconds.
    #[sqlx(try_from = "Millis")]
    pub next_attempt_at: Timestamp,
}

/// A game whose reminder was just taken: where it is played, who is to move, and until when.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct ReminderRow {
    pub id: GameId,
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub to_move: MemberId,
    pub deadline: Timestamp,
    #[sqlx(try_from = "i64")]
    pub ply: u32,
}
