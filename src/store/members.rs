//! Members and the names they go by in each server.

use crate::domain::{GuildId, MemberId, Timestamp};

use super::codec::Flag;
use super::statements::statement;
use super::{Result, Store, WriteTx};

impl Store {
    /// A member's name as last seen in a server (0: direct messages).
    pub async fn member_name(&self, guild: GuildId, id: MemberId) -> Result<Option<String>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT name FROM member_names WHERE guild_id = $1 AND member_id = $2"
        ))
        .bind(guild)
        .bind(id)
        .fetch_optional(&self.read)
        .await?)
    }
}

impl WriteTx {
    /// Records a member, or refreshes the name a known one has in `guild` (0: direct messages).
    /// The name is kept per server: a nickname in one is never shown in another.
    pub async fn upsert_member(
        &mut self,
        guild: GuildId,
        id: MemberId,
        name: &str,
        now: Timestamp,
    ) -> Result<()> {
        self.upsert(guild, id, name, Flag(false), now).await
    }

    /// As [`WriteTx::upsert_member`], for a bot (the built-in AI).
    pub async fn upsert_bot(
        &mut self,
        guild: GuildId,
        id: MemberId,
        name: &str,
        now: Timestamp,
    ) -> Result<()> {
        self.upsert(guild, id, name, Flag(true), now).await
    }

    async fn upsert(
        &mut self,
        guild: GuildId,
        id: MemberId,
        name: &str,
        is_bot: Flag,
        now: Timestamp,
    ) -> Result<()> {
        self.touched.all();
        // Insert if new, then update only what changed: an upsert's `DO UPDATE` would lock the
        // row even when nothing changes, and on PostgreSQL two transactions seeing the same two
        // members in opposite orders (both players pressing one button) would wait on each other.
        sqlx::query(statement!(
            "INSERT INTO members (id, is_bot, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO NOTHING"
        ))
        .bind(id)
        .bind(is_bot)
        .bind(now)
        .execute(self.tx.conn())
        .await?;
        sqlx::query(statement!(
            "UPDATE members SET is_bot = $2 WHERE id = $1 AND is_bot <> $2"
        ))
        .bind(id)
        .bind(is_bot)
        .execute(self.tx.conn())
        .await?;
        sqlx::query(statement!(
            "INSERT INTO member_names (guild_id, member_id, name) VALUES ($1, $2, $3)
             ON CONFLICT (guild_id, member_id) DO NOTHING"
        ))
        .bind(guild)
        .bind(id)
        .bind(name)
        .execute(self.tx.conn())
        .await?;
        sqlx::query(
            statement!("UPDATE member_names SET name = $3 WHERE guild_id = $1 AND member_id = $2 AND name <> $3"),
        )
        .bind(guild)
        .bind(id)
        .bind(name)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    /// Records member `id`, if the bot has never seen them, without a name: for a member's own
    /// setting, which may come before they ever played.
    pub async fn ensure_member(&mut self, id: MemberId, now: Timestamp) -> Result<()> {
        sqlx::query(statement!(
            "INSERT INTO members (id, is_bot, created_at) VALUES ($1, 0, $2)
             ON CONFLICT (id) DO NOTHING"
        ))
        .bind(id)
        .bind(now)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    pub async fn member_is_bot(&mut self, id: MemberId) -> Result<bool> {
        Ok(
            sqlx::query_scalar::<_, Flag>(statement!("SELECT is_bot FROM members WHERE id = $1"))
                .bind(id)
                .fetch_optional(self.tx.conn())
                .await?
                .is_some_and(bool::from),
        )
    }
}
