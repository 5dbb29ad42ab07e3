//! Ratings, rating changes and results.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::domain::{GameId, GuildId, MemberId};
use crate::rules::{BoardSize, ByColor};

use super::statements::statement;
use super::{RatingChangeRow, RatingRow, Result, ResultRow, Store, StoreError, WriteTx};

impl Store {
    pub async fn rating(
        &self,
        guild: GuildId,
        member: MemberId,
        size: BoardSize,
    ) -> Result<Option<RatingRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT * FROM ratings WHERE guild_id = $1 AND member_id = $2 AND size = $3"
        ))
        .bind(guild)
        .bind(member)
        .bind(size)
        .fetch_optional(&self.read)
        .await?)
    }

    /// The board sizes a member has a rating on in a server, the most played first.
    pub async fn rated_sizes(&self, guild: GuildId, member: MemberId) -> Result<Vec<BoardSize>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT size FROM ratings WHERE guild_id = $1 AND member_id = $2
             ORDER BY games DESC, size"
        ))
        .bind(guild)
        .bind(member)
        .fetch_all(&self.read)
        .await?)
    }

    /// Every rating on one board of a server, best first, with the member's name.
    pub async fn board_ratings(
        &self,
        guild: GuildId,
        size: BoardSize,
    ) -> Result<Vec<(RatingRow, String)>> {
        let rows = sqlx::query(statement!(
            "SELECT r.*, COALESCE(n.name, 'member ' || r.member_id) AS name FROM ratings r
             LEFT JOIN member_names n ON n.guild_id = r.guild_id AND n.member_id = r.member_id
             WHERE r.guild_id = $1 AND r.size = $2 ORDER BY r.rating DESC, r.member_id"
        ))
        .bind(guild)
        .bind(size)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    <RatingRow as sqlx::FromRow<AnyRow>>::from_row(row)?,
                    row.try_get("name")?,
                ))
            })
            .collect::<sqlx::Result<_>>()
            .map_err(StoreError::from)
    }

    /// The latest finished rated games of a member on one board of a server, newest first.
    pub async fn recent_results(
        &self,
        guild: GuildId,
        member: MemberId,
        size: BoardSize,
        limit: i64,
    ) -> Result<Vec<ResultRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT g.id, g.black_id, g.white_id, g.winner, g.end_reason, g.finished_at,
                    CASE WHEN g.black_id = $2 THEN rc.black_rating_after - rc.black_rating
                         ELSE rc.white_rating_after - rc.white_rating END AS change
             FROM games g JOIN rating_changes rc ON rc.game_id = g.id
             WHERE g.guild_id = $1 AND g.size = $3 AND g.state = 'finished'
               AND (g.black_id = $2 OR g.white_id = $2)
             ORDER BY g.finished_at DESC, g.id DESC LIMIT $4"
        ))
        .bind(guild)
        .bind(member)
        .bind(size)
        .bind(limit)
        .fetch_all(&self.read)
        .await?)
    }

    /// The ratings of a game's players on one board of a server (each `None` if unrated).
    pub async fn rating_pair(
        &self,
        guild: GuildId,
        size: BoardSize,
        players: ByColor<MemberId>,
    ) -> Result<ByColor<Option<RatingRow>>> {
        let rows: Vec<RatingRow> = sqlx::query_as(statement!(
            "SELECT * FROM ratings WHERE guild_id = $1 AND size = $2 AND member_id IN ($3, $4)"
        ))
        .bind(guild)
        .bind(size)
        .bind(players.black)
        .bind(players.white)
        .fetch_all(&self.read)
        .await?;
        Ok(players.map(|id| rows.iter().find(|r| r.member_id == id).cloned()))
    }

    pub async fn rating_change(&self, game: GameId) -> Result<Option<RatingChangeRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT * FROM rating_changes WHERE game_id = $1"
        ))
        .bind(game)
        .fetch_optional(&self.read)
        .await?)
    }
}

impl WriteTx {
    #[cfg(feature = "test-support")]
    pub async fn upsert_rating(&mut self, r: &RatingRow) -> Result<()> {
        sqlx::query(statement!(
            "INSERT INTO ratings (guild_id, member_id, size, rating, deviation, volatility, games,
                 wins, losses, last_active)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (guild_id, member_id, size) DO UPDATE SET
                 rating = excluded.rating, deviation = excluded.deviation,
                 volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,
                 losses = excluded.losses, last_active = excluded.last_active"
        ))
        .bind(r.guild_id)
        .bind(r.member_id)
        .bind(r.size)
        .bind(r.value.rating)
        .bind(r.value.deviation)
        .bind(r.value.volatility)
        .bind(r.games)
        .bind(r.wins)
        .bind(r.losses)
        .bind(r.last_active)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }
}
