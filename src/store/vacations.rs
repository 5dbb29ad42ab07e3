//! Members' vacations, and what starting or ending one does to the deadlines of their games.

use crate::domain::{MemberId, Timestamp};

use super::codec::Seconds;
use super::statements::statement;
use super::{GameRow, Result, Store, WriteTx};

/// An update of the deadlines of member `?1`'s games where they are to move: Black moves at even
/// plies, White at odd ones.
macro_rules! deadlines_to_move {
    ($set:literal) => {
        concat!(
            "UPDATE games SET deadline = ",
            $set,
            " WHERE state = 'active'
               AND ((black_id = $1 AND ply % 2 = 0) OR (white_id = $1 AND ply % 2 = 1))"
        )
    };
}

impl Store {
    /// The start and end of each vacation of `member` that began after `since`.
    pub async fn vacations_since(
        &self,
        member: MemberId,
        since: Timestamp,
    ) -> Result<Vec<(Timestamp, Timestamp)>> {
        Ok(sqlx::query_as(statement!(
            "SELECT started_at, ends_at FROM vacations WHERE member_id = $1 AND started_at > $2
             ORDER BY started_at"
        ))
        .bind(member)
        .bind(since)
        .fetch_all(&self.read)
        .await?)
    }
}

impl WriteTx {
    /// `member`'s games in progress, in every server, oldest first.
    pub async fn active_games_of(&mut self, member: MemberId) -> Result<Vec<GameRow>> {
        Ok(sqlx::query_as(statement!(game_select!(
            "WHERE g.state = 'active' AND (g.black_id = $1 OR g.white_id = $1) ORDER BY g.id"
        )))
        .bind(member)
        .fetch_all(self.tx.conn())
        .await?)
    }

    /// When `member`'s latest vacation ends (or ended), if they ever took one.
    pub async fn away_until(&mut self, member: MemberId) -> Result<Option<Timestamp>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT max(ends_at) FROM vacations WHERE member_id = $1"
        ))
        .bind(member)
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Starts a vacation of `member` from `now` to `ends_at`: the deadlines of their games where
    /// they are to move move on by its length.
    pub async fn start_vacation(
        &mut self,
        member: MemberId,
        now: Timestamp,
        ends_at: Timestamp,
    ) -> Result<()> {
        self.touched.all();
        // A member may go away before they ever played.
        self.ensure_member(member, now).await?;
        sqlx::query(statement!(
            "INSERT INTO vacations (member_id, started_at, ends_at) VALUES ($1, $2, $3)"
        ))
        .bind(member)
        .bind(now)
        .bind(ends_at)
        .execute(self.tx.conn())
        .await?;
        sqlx::query(statement!(deadlines_to_move!("deadline + $2")))
            .bind(member)
            .bind(Seconds(ends_at - now))
            .execute(self.tx.conn())
            .await?;
        Ok(())
    }

    /// Ends `member`'s vacation, due to end at `ends_at`, at `now`: the deadlines of their games
    /// where they are to move come back by the time not taken.
    pub async fn end_vacation(
        &mut self,
        member: MemberId,
        now: Timestamp,
        ends_at: Timestamp,
    ) -> Result<()> {
        self.touched.all();
        sqlx::query(statement!(
            "UPDATE vacations SET ends_at = $2 WHERE member_id = $1 AND ends_at > $2"
        ))
        .bind(member)
        .bind(now)
        .execute(self.tx.conn())
        .await?;
        sqlx::query(statement!(deadlines_to_move!("deadline - $2")))
            .bind(member)
            .bind(Seconds(ends_at - now))
            .execute(self.tx.conn())
            .await?;
        Ok(())
    }
}
