//! Puzzles: the pools loaded at start-up, each member's puzzle rating and streak, the puzzle a
//! member is solving, their finished attempts, and each server's daily puzzle.
//!
//! A move in a puzzle is written by moving `played` on from the number read before it
//! ([`WriteTx::advance_puzzle`], [`WriteTx::finish_puzzle`]): of two moves at once, one applies
//! and the other changes nothing. A finished attempt takes the member's and the puzzle's rows
//! for the rest of its transaction ([`WriteTx::hold_puzzle_player`], [`WriteTx::hold_puzzle`]),
//! so two members finishing the same puzzle at once both move its rating.

use sqlx::any::AnyRow;
use sqlx::{FromRow, Row};

use crate::domain::{ChannelId, GuildId, MemberId, MessageId, PuzzleId, RatingValue, Timestamp};
use crate::rules::{BoardSize, Position};

use super::codec::Flag;
use super::rows::rating_value;
use super::statements::statement;
use super::{Result, Store, WriteTx};

/// A puzzle as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    pub id: PuzzleId,
    pub size: BoardSize,
    /// The position, the attacker to move.
    pub setup: Position,
    /// The one winning first move, in the game's notation.
    pub solution: String,
    /// The proven distance of the win.
    pub plies: i64,
    pub value: RatingValue,
    pub attempts: i64,
    pub solves: i64,
}

impl FromRow<'_, AnyRow> for PuzzleRow {
    fn from_row(row: &AnyRow) -> sqlx::Result<Self> {
        Ok(PuzzleRow {
            id: row.try_get("id")?,
            size: row.try_get("size")?,
            setup: row.try_get("setup")?,
            solution: row.try_get("solution")?,
            plies: row.try_get("plies")?,
            value: rating_value(row, "", "")?,
            attempts: row.try_get("attempts")?,
            solves: row.try_get("solves")?,
        })
    }
}

/// A puzzle of a pool, to load.
#[derive(Clone, Debug)]
pub struct NewPuzzle {
    pub setup: Position,
    pub solution: String,
    pub plies: u32,
}

/// A member's puzzle rating, counts and streak.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzlePlayerRow {
    pub member_id: MemberId,
    pub value: RatingValue,
    pub solved: i64,
    pub failed: i64,
    pub streak: i64,
    pub best_streak: i64,
}

impl FromRow<'_, AnyRow> for PuzzlePlayerRow {
    fn from_row(row: &AnyRow) -> sqlx::Result<Self> {
        Ok(PuzzlePlayerRow {
            member_id: row.try_get("member_id")?,
            value: rating_value(row, "", "")?,
            solved: row.try_get("solved")?,
            failed: row.try_get("failed")?,
            streak: row.try_get("streak")?,
            best_streak: row.try_get("best_streak")?,
        })
    }
}

/// The puzzle a member is solving.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct ProgressRow {
    pub member_id: MemberId,
    pub puzzle_id: PuzzleId,
    /// The moves played so far, separated by spaces.
    pub moves: String,
    pub played: i64,
    pub guild_id: GuildId,
    /// The day, when it is the server's daily puzzle.
    pub day: Option<i64>,
    pub started_at: Timestamp,
}

/// A finished attempt to record.
#[derive(Clone, Copy, Debug)]
pub struct NewAttempt {
    pub member_id: MemberId,
    pub puzzle_id: PuzzleId,
    pub guild_id: GuildId,
    pub day: Option<i64>,
    pub solved: bool,
    pub rated: bool,
    pub at: Timestamp,
}

/// A finished attempt.
#[derive(Clone, Copy, Debug, PartialEq, FromRow)]
pub struct AttemptRow {
    pub puzzle_id: PuzzleId,
    #[sqlx(try_from = "Flag")]
    pub solved: bool,
    #[sqlx(try_from = "Flag")]
    pub rated: bool,
    pub at: Timestamp,
}

/// A server's puzzle of one day, and its post once posted.
#[derive(Clone, Copy, Debug, PartialEq, FromRow)]
pub struct DailyRow {
    pub guild_id: GuildId,
    pub day: i64,
    pub puzzle_id: PuzzleId,
    pub channel_id: Option<ChannelId>,
    pub message_id: Option<MessageId>,
}

const DAILY: &str = statement!(
    "SELECT guild_id, day, puzzle_id, channel_id, message_id FROM puzzle_dailies
     WHERE guild_id = $1 AND day = $2"
);

impl Store {
    /// The digest of each board size's pool as last loaded.
    pub async fn puzzle_pools(&self) -> Result<Vec<(BoardSize, String)>> {
        Ok(
            sqlx::query_as(statement!("SELECT size, digest FROM puzzle_pools"))
                .fetch_all(&self.read)
                .await?,
        )
    }

    pub async fn puzzle(&self, id: PuzzleId) -> Result<Option<PuzzleRow>> {
        Ok(
            sqlx::query_as(statement!("SELECT * FROM puzzles WHERE id = $1"))
                .bind(id)
                .fetch_optional(&self.read)
                .await?,
        )
    }

    /// The board sizes that have puzzles, small to large.
    pub async fn puzzle_sizes(&self) -> Result<Vec<BoardSize>> {
        let mut sizes: Vec<BoardSize> =
            sqlx::query_scalar(statement!("SELECT DISTINCT size FROM puzzles"))
                .fetch_all(&self.read)
                .await?;
        sizes.sort_by_key(|s| (s.rows(), s.cols()));
        Ok(sizes)
    }

    /// How many puzzles of `size` there are.
    #[cfg(feature = "test-support")]
    pub async fn puzzle_count(&self, size: BoardSize) -> Result<i64> {
        Ok(
            sqlx::query_scalar(statement!("SELECT count(*) FROM puzzles WHERE size = $1"))
                .bind(size)
                .fetch_one(&self.read)
                .await?,
        )
    }

    /// The puzzle `member` is solving, if any.
    pub async fn puzzle_progress(&self, member: MemberId) -> Result<Option<ProgressRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT * FROM puzzle_progress WHERE member_id = $1"
        ))
        .bind(member)
        .fetch_optional(&self.read)
        .await?)
    }

    /// A member's puzzle rating and counts, if they ever finished a puzzle.
    pub async fn puzzle_player(&self, member: MemberId) -> Result<Option<PuzzlePlayerRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT * FROM puzzle_players WHERE member_id = $1"
        ))
        .bind(member)
        .fetch_optional(&self.read)
        .await?)
    }

    /// The puzzle of `size` to give `member`: of those they never attempted, the one rated
    /// closest to `rating` (the lowest id of equals); if they attempted all, the one they
    /// attempted least recently.
    pub async fn puzzle_near(
        &self,
        member: MemberId,
        size: BoardSize,
        rating: f64,
    ) -> Result<Option<PuzzleRow>> {
        let fresh = sqlx::query_as(statement!(
            "SELECT p.* FROM puzzles p
             WHERE p.size = $1 AND NOT EXISTS
                 (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.member_id = $2)
             ORDER BY abs(p.rating - $3), p.id LIMIT 1"
        ))
        .bind(size)
        .bind(member)
        .bind(rating)
        .fetch_optional(&self.read)
        .await?;
        if fresh.is_some() {
            return Ok(fresh);
        }
        Ok(sqlx::query_as(statement!(
            "SELECT p.* FROM puzzles p
             JOIN (SELECT puzzle_id, max(id) AS last FROM puzzle_attempts
                   WHERE member_id = $2 GROUP BY puzzle_id) a ON a.puzzle_id = p.id
             WHERE p.size = $1 ORDER BY a.last, p.id LIMIT 1"
        ))
        .bind(size)
        .bind(member)
        .fetch_optional(&self.read)
        .await?)
    }

    /// The latest finished attempt of `member` at `puzzle`.
    pub async fn last_attempt(
        &self,
        member: MemberId,
        puzzle: PuzzleId,
    ) -> Result<Option<AttemptRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT puzzle_id, solved, rated, at FROM puzzle_attempts
             WHERE member_id = $1 AND puzzle_id = $2 ORDER BY id DESC LIMIT 1"
        ))
        .bind(member)
        .bind(puzzle)
        .fetch_optional(&self.read)
        .await?)
    }

    /// The puzzle of `guild` on `day`, once chosen.
    pub async fn daily_puzzle(&self, guild: GuildId, day: i64) -> Result<Option<DailyRow>> {
        Ok(sqlx::query_as(DAILY)
            .bind(guild)
            .bind(day)
            .fetch_optional(&self.read)
            .await?)
    }

    /// The puzzles of `size` that were never `guild`'s daily puzzle, by id; all of them once
    /// every one has been.
    pub async fn daily_candidates(&self, guild: GuildId, size: BoardSize) -> Result<Vec<PuzzleId>> {
        let unused: Vec<PuzzleId> = sqlx::query_scalar(statement!(
            "SELECT id FROM puzzles WHERE size = $1 AND id NOT IN
                 (SELECT puzzle_id FROM puzzle_dailies WHERE guild_id = $2)
             ORDER BY id"
        ))
        .bind(size)
        .bind(guild)
        .fetch_all(&self.read)
        .await?;
        if !unused.is_empty() {
            return Ok(unused);
        }
        Ok(sqlx::query_scalar(statement!(
            "SELECT id FROM puzzles WHERE size = $1 ORDER BY id"
        ))
        .bind(size)
        .fetch_all(&self.read)
        .await?)
    }

    /// How many members solved `guild`'s daily puzzle of `day`, and how many tried it.
    pub async fn daily_counts(&self, guild: GuildId, day: i64) -> Result<(i64, i64)> {
        let row = sqlx::query(statement!(
            "SELECT count(DISTINCT CASE WHEN solved = 1 THEN member_id END) AS solved,
                    count(DISTINCT member_id) AS tried
             FROM puzzle_attempts WHERE guild_id = $1 AND day = $2"
        ))
        .bind(guild)
        .bind(day)
        .fetch_one(&self.read)
        .await?;
        Ok((row.try_get("solved")?, row.try_get("tried")?))
    }

    /// Records the public post of `guild`'s daily puzzle of `day`.
    pub async fn set_daily_post(
        &self,
        guild: GuildId,
        day: i64,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query(statement!(
            "UPDATE puzzle_dailies SET channel_id = $3, message_id = $4
             WHERE guild_id = $1 AND day = $2"
        ))
        .bind(guild)
        .bind(day)
        .bind(channel)
        .bind(message)
        .execute(held.conn())
        .await?;
        Ok(())
    }
}

impl WriteTx {
    /// Loads the pool of `size`: inserts the puzzles not stored yet (by their position) and
    /// records the pool's `digest`. Returns how many were inserted.
    pub async fn load_puzzle_pool(
        &mut self,
        size: BoardSize,
        digest: &str,
        puzzles: &[NewPuzzle],
    ) -> Result<u64> {
        let mut inserted = 0;
        for p in puzzles {
            inserted += sqlx::query(statement!(
                "INSERT INTO puzzles (size, setup, solution, plies) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (setup) DO NOTHING"
            ))
            .bind(size)
            .bind(p.setup)
            .bind(p.solution.as_str())
            .bind(i64::from(p.plies))
            .execute(self.tx.conn())
            .await?
            .rows_affected();
        }
        sqlx::query(statement!(
            "INSERT INTO puzzle_pools (size, digest) VALUES ($1, $2)
             ON CONFLICT (size) DO UPDATE SET digest = excluded.digest"
        ))
        .bind(size)
        .bind(digest)
        .execute(self.tx.conn())
        .await?;
        Ok(inserted)
    }

    /// Gives `member` puzzle `puzzle` to solve; false, changing nothing, if they are solving one
    /// already.
    pub async fn start_puzzle(
        &mut self,
        member: MemberId,
        puzzle: PuzzleId,
        guild: GuildId,
        day: Option<i64>,
        now: Timestamp,
    ) -> Result<bool> {
        Ok(sqlx::query(statement!(
            "INSERT INTO puzzle_progress (member_id, puzzle_id, guild_id, day, started_at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (member_id) DO NOTHING"
        ))
        .bind(member)
        .bind(puzzle)
        .bind(guild)
        .bind(day)
        .bind(now)
        .execute(self.tx.conn())
        .await?
        .rows_affected()
            == 1)
    }

    /// Moves `member`'s puzzle on from `from` moves played to `moves`, `to` of them; false,
    /// changing nothing, if it is no longer at `from`.
    pub async fn advance_puzzle(
        &mut self,
        member: MemberId,
        puzzle: PuzzleId,
        from: i64,
        moves: &str,
        to: i64,
    ) -> Result<bool> {
        Ok(sqlx::query(statement!(
            "UPDATE puzzle_progress SET moves = $4, played = $5
             WHERE member_id = $1 AND puzzle_id = $2 AND played = $3"
        ))
        .bind(member)
        .bind(puzzle)
        .bind(from)
        .bind(moves)
        .bind(to)
        .execute(self.tx.conn())
        .await?
        .rows_affected()
            == 1)
    }

    /// Ends `member`'s puzzle, read at `from` moves played; false, changing nothing, if it is no
    /// longer there.
    pub async fn finish_puzzle(
        &mut self,
        member: MemberId,
        puzzle: PuzzleId,
        from: i64,
    ) -> Result<bool> {
        Ok(sqlx::query(statement!(
            "DELETE FROM puzzle_progress WHERE member_id = $1 AND puzzle_id = $2 AND played = $3"
        ))
        .bind(member)
        .bind(puzzle)
        .bind(from)
        .execute(self.tx.conn())
        .await?
        .rows_affected()
            == 1)
    }

    /// Takes `member`'s puzzle row (made with a new rating if they had none) for the rest of
    /// this transaction, and reads it.
    pub async fn hold_puzzle_player(&mut self, member: MemberId) -> Result<PuzzlePlayerRow> {
        Ok(sqlx::query_as(statement!(
            "INSERT INTO puzzle_players (member_id) VALUES ($1)
             ON CONFLICT (member_id) DO UPDATE SET streak = puzzle_players.streak
             RETURNING *"
        ))
        .bind(member)
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Takes the puzzle's row for the rest of this transaction, and reads it.
    pub async fn hold_puzzle(&mut self, id: PuzzleId) -> Result<Option<PuzzleRow>> {
        Ok(sqlx::query_as(statement!(
            "UPDATE puzzles SET attempts = attempts WHERE id = $1 RETURNING *"
        ))
        .bind(id)
        .fetch_optional(self.tx.conn())
        .await?)
    }

    /// Whether `member` finished an attempt at `puzzle` before.
    pub async fn attempted_puzzle(&mut self, member: MemberId, puzzle: PuzzleId) -> Result<bool> {
        let found: Option<i64> = sqlx::query_scalar(statement!(
            "SELECT 1 FROM puzzle_attempts WHERE member_id = $1 AND puzzle_id = $2 LIMIT 1"
        ))
        .bind(member)
        .bind(puzzle)
        .fetch_optional(self.tx.conn())
        .await?;
        Ok(found.is_some())
    }

    /// Writes a member's puzzle rating, counts and streak, held by
    /// [`WriteTx::hold_puzzle_player`].
    pub async fn update_puzzle_player(&mut self, p: &PuzzlePlayerRow) -> Result<()> {
        sqlx::query(statement!(
            "UPDATE puzzle_players SET rating = $2, deviation = $3, volatility = $4, solved = $5,
                 failed = $6, streak = $7, best_streak = $8
             WHERE member_id = $1"
        ))
        .bind(p.member_id)
        .bind(p.value.rating)
        .bind(p.value.deviation)
        .bind(p.value.volatility)
        .bind(p.solved)
        .bind(p.failed)
        .bind(p.streak)
        .bind(p.best_streak)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    /// Writes a puzzle's rating after a rated attempt, counting it (and its solve).
    pub async fn rate_puzzle(
        &mut self,
        id: PuzzleId,
        value: RatingValue,
        solved: bool,
    ) -> Result<()> {
        sqlx::query(statement!(
            "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4,
                 attempts = attempts + 1, solves = solves + $5
             WHERE id = $1"
        ))
        .bind(id)
        .bind(value.rating)
        .bind(value.deviation)
        .bind(value.volatility)
        .bind(i64::from(solved))
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    pub async fn insert_puzzle_attempt(&mut self, a: &NewAttempt) -> Result<()> {
        sqlx::query(statement!(
            "INSERT INTO puzzle_attempts (member_id, puzzle_id, guild_id, day, solved, rated, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)"
        ))
        .bind(a.member_id)
        .bind(a.puzzle_id)
        .bind(a.guild_id)
        .bind(a.day)
        .bind(Flag(a.solved))
        .bind(Flag(a.rated))
        .bind(a.at)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    /// Makes `puzzle` the daily puzzle of `guild` on `day`, unless one was chosen already.
    pub async fn choose_daily(&mut self, guild: GuildId, day: i64, puzzle: PuzzleId) -> Result<()> {
        sqlx::query(statement!(
            "INSERT INTO puzzle_dailies (guild_id, day, puzzle_id) VALUES ($1, $2, $3)
             ON CONFLICT (guild_id, day) DO NOTHING"
        ))
        .bind(guild)
        .bind(day)
        .bind(puzzle)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }
}
