//! Challenges: pending, answered, expired.

use crate::domain::{ChallengeId, ChallengeState, ChannelId, GameId, GuildId, MemberId, Timestamp};

use super::codec::Flag;
use super::statements::{built_statement, statement};
use super::{conflict_or, ChallengeRow, NewChallenge, Result, Servers, Sql, Store, WriteTx};

/// What [`WriteTx::challenges_to`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChallengesTo {
    pub count: i64,
    pub oldest: Option<Timestamp>,
    pub declined_at: Option<Timestamp>,
}

const CHALLENGE_SELECT_BY_ID: &str = statement!("SELECT * FROM challenges WHERE id = $1");

impl Store {
    pub async fn challenge(&self, id: ChallengeId) -> Result<Option<ChallengeRow>> {
        Ok(sqlx::query_as(CHALLENGE_SELECT_BY_ID)
            .bind(id)
            .fetch_optional(&self.read)
            .await?)
    }

    /// Pending challenges `member` may answer in a channel: those aimed at them in the server,
    /// and open ones in the channel from someone else. Oldest first.
    pub async fn challenges_for(
        &self,
        guild: GuildId,
        channel: ChannelId,
        member: MemberId,
    ) -> Result<Vec<ChallengeRow>> {
        Ok(sqlx::query_as(
            statement!("SELECT * FROM challenges WHERE state = 'pending' AND guild_id = $1
               AND (opponent_id = $3 OR (opponent_id IS NULL AND channel_id = $2 AND challenger_id <> $3))
             ORDER BY id"),
        )
        .bind(guild)
        .bind(channel)
        .bind(member)
        .fetch_all(&self.read)
        .await?)
    }

    /// Pending challenges `member` made in a server. Oldest first.
    pub async fn challenges_by(
        &self,
        guild: GuildId,
        member: MemberId,
    ) -> Result<Vec<ChallengeRow>> {
        Ok(sqlx::query_as(
            statement!("SELECT * FROM challenges WHERE state = 'pending' AND guild_id = $1 AND challenger_id = $2
             ORDER BY id"),
        )
        .bind(guild)
        .bind(member)
        .fetch_all(&self.read)
        .await?)
    }
}

impl WriteTx {
    /// Records that game `game`'s rematch is offered at `now`; `false` (and nothing written)
    /// when it already was.
    pub async fn claim_rematch(&mut self, game: GameId, now: Timestamp) -> Result<bool> {
        let done = sqlx::query(statement!(
            "INSERT INTO rematches (game_id, offered_at) VALUES ($1, $2)
             ON CONFLICT (game_id) DO NOTHING"
        ))
        .bind(game)
        .bind(now)
        .execute(self.tx.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Inserts a pending challenge. A second pending challenge between the same pair (or a
    /// second open one in a channel) is a [`StoreError::Conflict`](super::StoreError::Conflict).
    pub async fn insert_challenge(&mut self, c: &NewChallenge) -> Result<ChallengeId> {
        sqlx::query_scalar(statement!(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, size,
                 challenger_color, time_limit, rated, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id"
        ))
        .bind(c.guild_id)
        .bind(c.channel_id)
        .bind(c.challenger_id)
        .bind(c.opponent_id)
        .bind(c.size)
        .bind(c.challenger_color)
        .bind(c.time_limit)
        .bind(Flag(c.rated))
        .bind(c.created_at)
        .bind(c.expires_at)
        .fetch_one(self.tx.conn())
        .await
        .map_err(conflict_or)
    }

    /// Challenges `from` made to `to`, in any server: how many since `made_since`, whatever
    /// became of them, the oldest of those, and when `to` last declined one, if after
    /// `declined_since`.
    pub async fn challenges_to(
        &mut self,
        from: MemberId,
        to: MemberId,
        made_since: Timestamp,
        declined_since: Timestamp,
    ) -> Result<ChallengesTo> {
        let (count, oldest, declined_at) = sqlx::query_as(statement!(
            "SELECT count(CASE WHEN created_at > $3 THEN 1 END),
                    min(CASE WHEN created_at > $3 THEN created_at END),
                    max(CASE WHEN state = 'declined' AND resolved_at > $4 THEN resolved_at END)
             FROM challenges WHERE challenger_id = $1 AND opponent_id = $2"
        ))
        .bind(from)
        .bind(to)
        .bind(made_since)
        .bind(declined_since)
        .fetch_one(self.tx.conn())
        .await?;
        Ok(ChallengesTo {
            count,
            oldest,
            declined_at,
        })
    }

    pub async fn count_pending_challenges_by(&mut self, member: MemberId) -> Result<i64> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT count(*) FROM challenges WHERE state = 'pending' AND challenger_id = $1"
        ))
        .bind(member)
        .fetch_one(self.tx.conn())
        .await?)
    }

    pub async fn challenge(&mut self, id: ChallengeId) -> Result<Option<ChallengeRow>> {
        Ok(sqlx::query_as(CHALLENGE_SELECT_BY_ID)
            .bind(id)
            .fetch_optional(self.tx.conn())
            .await?)
    }

    /// Moves a pending challenge to `state` (an accepted one with its game). False when it was
    /// no longer pending.
    pub async fn resolve_challenge(
        &mut self,
        id: ChallengeId,
        state: ChallengeState,
        now: Timestamp,
    ) -> Result<bool> {
        let done = sqlx::query(statement!(
            "UPDATE challenges SET state = $1, resolved_at = $2, game_id = $3
             WHERE id = $4 AND state = 'pending'"
        ))
        .bind(state.as_str())
        .bind(now)
        .bind(state.game())
        .bind(id)
        .execute(self.tx.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Marks every pending challenge in `servers` past its expiry as expired, and returns them.
    pub async fn expire_challenges(
        &mut self,
        now: Timestamp,
        servers: Servers,
    ) -> Result<Vec<ChallengeRow>> {
        let (sql, args) = expire_challenges_sql(now, servers).build()?;
        Ok(sqlx::query_as_with(sql, args)
            .fetch_all(self.tx.conn())
            .await?)
    }
}

fn expire_challenges_sql(now: Timestamp, servers: Servers) -> Sql {
    Sql::new(
        "UPDATE challenges SET state = 'expired', resolved_at = $1
         WHERE state = 'pending' AND expires_at <= $1 AND ",
    )
    .arg(now)
    .servers("guild_id", servers)
    .push(" RETURNING *")
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(|servers| {
        expire_challenges_sql(Timestamp::from_unix_seconds(0), servers)
    })
});
