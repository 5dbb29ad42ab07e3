//! Games in threads: a game moving into the thread opened for it, and back to its channel when the
//! thread is deleted; and why a server's games could not get threads.

use sqlx::FromRow;

use crate::domain::{ChannelId, GameId, GuildId, Timestamp};

use super::statements::statement;
use super::{Result, Store};

/// Why a game of a server could not get a thread: Discord's error `code`, in `channel_id`, `at`.
#[derive(Clone, Debug, PartialEq, Eq, FromRow)]
pub struct ThreadTroubleRow {
    pub channel_id: ChannelId,
    /// The service's name for the reason.
    pub reason: String,
    /// Discord's error code, for a reason the service has no name for.
    pub code: i64,
    pub at: Timestamp,
}

impl Store {
    /// Moves active game `game` from `channel` into `thread`, a thread opened for it there, and
    /// clears the server's thread trouble; the thread speaks the channel's language. False when
    /// the game is over, elsewhere, or already in a thread.
    pub async fn move_game_to_thread(
        &self,
        game: GameId,
        guild: GuildId,
        channel: ChannelId,
        thread: ChannelId,
    ) -> Result<bool> {
        let mut tx = self.write.begin().await?;
        let moved = sqlx::query(statement!(
            "UPDATE games SET channel_id = $1, parent_channel_id = $2
             WHERE id = $3 AND channel_id = $2 AND state = 'active' AND parent_channel_id IS NULL"
        ))
        .bind(thread)
        .bind(channel)
        .bind(game)
        .execute(tx.conn())
        .await?
        .rows_affected()
            == 1;
        if moved {
            sqlx::query(statement!(
                "DELETE FROM thread_troubles WHERE guild_id = $1"
            ))
            .bind(guild)
            .execute(tx.conn())
            .await?;
            sqlx::query(statement!(
                "INSERT INTO channel_languages (channel_id, lang)
                 SELECT $1, lang FROM channel_languages WHERE channel_id = $2
                 ON CONFLICT (channel_id) DO NOTHING"
            ))
            .bind(thread)
            .bind(channel)
            .execute(tx.conn())
            .await?;
            tx.commit().await?;
        }
        self.cache.forget(game);
        Ok(moved)
    }

    /// Moves the games of `thread`, deleted, back to the channel they started in, with the
    /// announcements still owed there; that channel, if `thread` was a game's thread.
    pub async fn thread_deleted(&self, thread: ChannelId) -> Result<Option<ChannelId>> {
        let mut tx = self.write.begin().await?;
        let moved: Vec<(GameId, ChannelId)> = sqlx::query_as(statement!(
            "UPDATE games SET channel_id = parent_channel_id, parent_channel_id = NULL
             WHERE channel_id = $1 AND parent_channel_id IS NOT NULL
             RETURNING id, channel_id"
        ))
        .bind(thread)
        .fetch_all(tx.conn())
        .await?;
        let parent = moved.first().map(|&(_, parent)| parent);
        if let Some(parent) = parent {
            sqlx::query(statement!(
                "UPDATE outbox SET channel_id = $1 WHERE channel_id = $2"
            ))
            .bind(parent)
            .bind(thread)
            .execute(tx.conn())
            .await?;
            tx.commit().await?;
        }
        for (game, _) in moved {
            self.cache.forget(game);
        }
        Ok(parent)
    }

    /// Whether `channel` is a thread a game moved into.
    pub async fn is_game_thread(&self, channel: ChannelId) -> Result<bool> {
        let found: Option<i64> = sqlx::query_scalar(statement!(
            "SELECT 1 FROM games WHERE channel_id = $1 AND parent_channel_id IS NOT NULL LIMIT 1"
        ))
        .bind(channel)
        .fetch_optional(&self.read)
        .await?;
        Ok(found.is_some())
    }

    /// The latest game that lives in `thread`, if it is a game's thread.
    pub async fn game_in_thread(&self, thread: ChannelId) -> Result<Option<GameId>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT max(id) FROM games WHERE channel_id = $1 AND parent_channel_id IS NOT NULL"
        ))
        .bind(thread)
        .fetch_one(&self.read)
        .await?)
    }

    /// Records why a game in `channel` of `guild` could not get a thread.
    pub async fn record_thread_trouble(
        &self,
        guild: GuildId,
        channel: ChannelId,
        (reason, code): (&str, i64),
        at: Timestamp,
    ) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query(statement!(
            "INSERT INTO thread_troubles (guild_id, channel_id, reason, code, at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (guild_id) DO UPDATE
             SET channel_id = excluded.channel_id, reason = excluded.reason, code = excluded.code,
                 at = excluded.at"
        ))
        .bind(guild)
        .bind(channel)
        .bind(reason)
        .bind(code)
        .bind(at)
        .execute(held.conn())
        .await?;
        Ok(())
    }

    /// Why the latest game of `guild` could not get a thread, if none has got one since.
    pub async fn thread_trouble(&self, guild: GuildId) -> Result<Option<ThreadTroubleRow>> {
        Ok(sqlx::query_as(statement!(
            "SELECT channel_id, reason, code, at FROM thread_troubles WHERE guild_id = $1"
        ))
        .bind(guild)
        .fetch_optional(&self.read)
        .await?)
    }
}
