//! Vote games: the sides channels play, their members' votes, and the credits at the end.
//!
//! A window is open while its game is still at the ply voted on and before the game's deadline;
//! a vote is written only then, in one statement, so none lands after the close.

use sqlx::FromRow;

use crate::domain::{ChannelId, GameId, GuildId, MemberId, Timestamp};
use crate::rules::Color;

use super::codec::{Flag, Millis};
use super::statements::statement;
use super::{Result, Store, WriteTx};

/// A side a channel plays in a vote game.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct TeamRow {
    pub game_id: GameId,
    pub color: Color,
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub started_by: MemberId,
    /// The ply whose empty window was extended once.
    pub extended_ply: Option<i64>,
    #[sqlx(try_from = "Flag")]
    pub credited: bool,
}

/// A member's vote at one ply.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct VoteRow {
    pub member_id: MemberId,
    pub notation: String,
    /// When it was last cast, in unix milliseconds.
    #[sqlx(try_from = "Millis")]
    pub voted_at: Timestamp,
}

/// A voter's part in a vote game: how many votes they cast, and how many of them were played.
#[derive(Clone, Debug, PartialEq, FromRow)]
pub struct CreditRow {
    pub member_id: MemberId,
    pub votes: i64,
    pub played: i64,
}

/// What became of a vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteCast {
    /// Counted (a member's earlier vote at that ply is replaced).
    Cast,
    /// The window had closed: the game moved on, ended, or its deadline passed.
    Closed,
    /// The member voted for the other side of the game.
    OtherSide,
}

impl WriteTx {
    /// Records that channel `channel` of server `guild` plays `color` in `game`, started by `by`.
    pub async fn insert_team(
        &mut self,
        game: GameId,
        color: Color,
        (guild, channel): (GuildId, ChannelId),
        by: MemberId,
    ) -> Result<()> {
        sqlx::query(statement!(
            "INSERT INTO teams (game_id, color, guild_id, channel_id, started_by)
             VALUES ($1, $2, $3, $4, $5)"
        ))
        .bind(game)
        .bind(color)
        .bind(guild)
        .bind(channel)
        .bind(by)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    /// Vote games in progress in server `guild`, and in channel `channel` of it, counted under a
    /// lock on the server held to the end of this transaction (see [`WriteTx::lock_server`]).
    pub async fn count_team_games(
        &mut self,
        guild: GuildId,
        channel: ChannelId,
    ) -> Result<(i64, i64)> {
        self.lock_server(guild).await?;
        Ok(sqlx::query_as(statement!(
            "SELECT count(DISTINCT t.game_id),
                    count(DISTINCT CASE WHEN t.channel_id = $2 THEN t.game_id END)
             FROM teams t JOIN games g ON g.id = t.game_id
             WHERE t.guild_id = $1 AND g.state = 'active'"
        ))
        .bind(guild)
        .bind(channel)
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Marks the end of vote game `game` as told with its credits: `false` when it already was.
    pub async fn credit_team_game(&mut self, game: GameId) -> Result<bool> {
        let done = sqlx::query(statement!(
            "UPDATE teams SET credited = 1 WHERE game_id = $1 AND credited = 0"
        ))
        .bind(game)
        .execute(self.tx.conn())
        .await?;
        Ok(done.rows_affected() > 0)
    }
}

impl Store {
    /// The sides channels play in `game`: none for an ordinary game.
    pub async fn teams(&self, game: GameId) -> Result<Vec<TeamRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT * FROM teams WHERE game_id = $1 ORDER BY color"
        ))
        .bind(game)
        .fetch_all(&self.read)
        .await?)
    }

    /// The vote game in progress that channel `channel` plays in, if any.
    pub async fn team_game_in(&self, channel: ChannelId) -> Result<Option<GameId>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT t.game_id FROM teams t JOIN games g ON g.id = t.game_id
             WHERE t.channel_id = $1 AND g.state = 'active' ORDER BY t.game_id LIMIT 1"
        ))
        .bind(channel)
        .fetch_optional(&self.read)
        .await?)
    }

    /// Casts `member`'s vote for `notation` at ply `ply` of `game`, replacing their earlier vote
    /// there, if the window is still open at `now`: the game active, still at that ply, and its
    /// deadline after `now`. One statement checks and writes, so a vote is either in before the
    /// window closes or not at all.
    pub async fn cast_vote(
        &self,
        game: GameId,
        ply: u32,
        member: MemberId,
        notation: &str,
        now: Timestamp,
    ) -> Result<VoteCast> {
        let mut held = self.write.lock().await?;
        let other_side: Option<i64> = sqlx::query_scalar(statement!(
            "SELECT ply FROM votes WHERE game_id = $1 AND member_id = $2 AND ply % 2 <> $3 % 2
             LIMIT 1"
        ))
        .bind(game)
        .bind(member)
        .bind(i64::from(ply))
        .fetch_optional(held.conn())
        .await?;
        if other_side.is_some() {
            return Ok(VoteCast::OtherSide);
        }
        let done = sqlx::query(statement!(
            "INSERT INTO votes (game_id, ply, member_id, notation, voted_at)
             SELECT $1, $2, $3, $4, $5 FROM games
             WHERE id = $1 AND ply = $2 AND state = 'active' AND deadline > $6
             ON CONFLICT (game_id, ply, member_id)
             DO UPDATE SET notation = excluded.notation, voted_at = excluded.voted_at"
        ))
        .bind(game)
        .bind(i64::from(ply))
        .bind(member)
        .bind(notation)
        .bind(Millis(now))
        .bind(now)
        .execute(held.conn())
        .await?;
        Ok(if done.rows_affected() > 0 {
            VoteCast::Cast
        } else {
            VoteCast::Closed
        })
    }

    /// The votes at ply `ply` of `game`.
    pub async fn votes(&self, game: GameId, ply: u32) -> Result<Vec<VoteRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT member_id, notation, voted_at FROM votes WHERE game_id = $1 AND ply = $2
             ORDER BY voted_at, member_id"
        ))
        .bind(game)
        .bind(i64::from(ply))
        .fetch_all(&self.read)
        .await?)
    }

    /// Moves the deadline of `game`, still active at ply `ply` with deadline `from`, on to `to`,
    /// and records that this ply's window was extended: `false` when the game moved on or its
    /// window was already extended (by another process).
    pub async fn extend_window(
        &self,
        game: GameId,
        ply: u32,
        from: Timestamp,
        to: Timestamp,
    ) -> Result<bool> {
        let mut tx = self.begin().await?;
        let done = sqlx::query(statement!(
            "UPDATE teams SET extended_ply = $2
             WHERE game_id = $1 AND (extended_ply IS NULL OR extended_ply <> $2)
               AND EXISTS (SELECT 1 FROM games g WHERE g.id = $1 AND g.ply = $2
                           AND g.state = 'active' AND g.deadline = $3)"
        ))
        .bind(game)
        .bind(i64::from(ply))
        .bind(from)
        .execute(tx.tx.conn())
        .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query(statement!(
            "UPDATE games SET deadline = $3 WHERE id = $1 AND ply = $2"
        ))
        .bind(game)
        .bind(i64::from(ply))
        .bind(to)
        .execute(tx.tx.conn())
        .await?;
        tx.touched.game(game);
        tx.commit().await?;
        Ok(true)
    }

    /// Vote games over whose end has not been told with their credits yet.
    pub async fn uncredited_team_games(&self) -> Result<Vec<GameId>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT DISTINCT t.game_id FROM teams t JOIN games g ON g.id = t.game_id
             WHERE t.credited = 0 AND g.state <> 'active' ORDER BY t.game_id"
        ))
        .fetch_all(&self.read)
        .await?)
    }

    /// Each voter of `game`: the votes they cast, and how many of them were played, most played
    /// first.
    pub async fn credits(&self, game: GameId) -> Result<Vec<CreditRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT v.member_id, count(*) AS votes,
                    sum(CASE WHEN m.notation = v.notation THEN 1 ELSE 0 END) AS played
             FROM votes v LEFT JOIN moves m ON m.game_id = v.game_id AND m.ply = v.ply
             WHERE v.game_id = $1
             GROUP BY v.member_id
             ORDER BY played DESC, votes DESC, v.member_id"
        ))
        .bind(game)
        .fetch_all(&self.read)
        .await?)
    }
}
