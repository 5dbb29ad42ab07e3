//! Members' own settings (turn notifications by direct message, how their boards are shown),
//! servers' settings, and the messages that show each game's board.

use crate::domain::{
    BoardStyle, GameId, GuildId, MemberId, MemberSettings, MemberSettingsChange, MessageId,
    ServerSettings, ServerSettingsChange, Timestamp,
};

use super::codec::{Flag, Millis};
use super::statements::statement;
use super::{Result, Store, StoreError, WriteTx};

impl Store {
    /// Whether `member` gets a direct message on their turn, and in which language code.
    pub async fn dm_setting(&self, member: MemberId) -> Result<(bool, Option<String>)> {
        Ok(sqlx::query_as::<_, (Flag, Option<String>)>(
            "SELECT notify_dm, dm_lang FROM member_settings WHERE member_id = $1",
        )
        .bind(member)
        .fetch_optional(&self.read)
        .await?
        .map_or((false, None), |(on, lang)| (on.0, lang)))
    }

    /// Sets `member`'s turn notifications on or off, in `lang` (a code); clears a refusal not
    /// yet told, since the member has just chosen.
    pub async fn set_dm_setting(
        &self,
        member: MemberId,
        on: bool,
        lang: &str,
        now: Timestamp,
    ) -> Result<()> {
        let mut tx = self.begin().await?;
        tx.touched.all();
        tx.ensure_member(member, now).await?;
        sqlx::query(statement!(
            "INSERT INTO member_settings (member_id, notify_dm, dm_lang, dm_refused)
             VALUES ($1, $2, $3, 0)
             ON CONFLICT (member_id) DO UPDATE
             SET notify_dm = $2, dm_lang = $3, dm_refused = 0"
        ))
        .bind(member)
        .bind(Flag(on))
        .bind(lang)
        .execute(tx.tx.conn())
        .await?;
        tx.commit().await
    }

    /// Turns `member`'s turn notifications off because Discord refused one, to be told at their
    /// next command.
    pub async fn refuse_dms(&self, member: MemberId) -> Result<()> {
        let mut tx = self.begin().await?;
        tx.touched.all();
        sqlx::query(statement!(
            "UPDATE member_settings SET notify_dm = 0, dm_refused = 1
             WHERE member_id = $1 AND notify_dm = 1"
        ))
        .bind(member)
        .execute(tx.tx.conn())
        .await?;
        tx.commit().await
    }

    /// Whether `member` is still to be told that their turn notifications were turned off;
    /// `true` once, as it is marked told.
    pub async fn take_dm_refusal(&self, member: MemberId) -> Result<bool> {
        let pending: Option<Flag> = sqlx::query_scalar(statement!(
            "SELECT dm_refused FROM member_settings WHERE member_id = $1 AND dm_refused = 1"
        ))
        .bind(member)
        .fetch_optional(&self.read)
        .await?;
        if pending.is_none() {
            return Ok(false);
        }
        let mut held = self.write.lock().await?;
        let done = sqlx::query(statement!(
            "UPDATE member_settings SET dm_refused = 0 WHERE member_id = $1 AND dm_refused = 1"
        ))
        .bind(member)
        .execute(held.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `member`'s own choices; the defaults for a member who made none.
    pub async fn member_settings(&self, member: MemberId) -> Result<MemberSettings> {
        let board: Option<BoardStyle> = sqlx::query_scalar(statement!(
            "SELECT board FROM member_settings WHERE member_id = $1"
        ))
        .bind(member)
        .fetch_optional(&self.read)
        .await?;
        Ok(MemberSettings {
            board: board.unwrap_or_default(),
        })
    }

    /// Makes `change` to `member`'s own choices, leaving the rest as they were; returns them all.
    pub async fn set_member_settings(
        &self,
        member: MemberId,
        change: MemberSettingsChange,
        now: Timestamp,
    ) -> Result<MemberSettings> {
        let mut tx = self.begin().await?;
        tx.ensure_member(member, now).await?;
        let board: BoardStyle = sqlx::query_scalar(statement!(
            "INSERT INTO member_settings (member_id, board) VALUES ($1, COALESCE($2, 'emoji'))
             ON CONFLICT (member_id) DO UPDATE
             SET board = COALESCE($2, member_settings.board)
             RETURNING board"
        ))
        .bind(member)
        .bind(change.board)
        .fetch_one(tx.tx.conn())
        .await?;
        tx.commit().await?;
        Ok(MemberSettings { board })
    }

    /// Server `guild`'s choices; the defaults for a server that made none.
    pub async fn server_settings(&self, guild: GuildId) -> Result<ServerSettings> {
        let row: Option<(BoardStyle, Flag)> = sqlx::query_as(statement!(
            "SELECT board, threads FROM server_settings WHERE guild_id = $1"
        ))
        .bind(guild)
        .fetch_optional(&self.read)
        .await?;
        Ok(
            row.map_or_else(ServerSettings::default, |(board, threads)| ServerSettings {
                board,
                threads: threads.into(),
            }),
        )
    }

    /// Makes `change` to server `guild`'s choices, leaving the rest as they were; returns them
    /// all.
    pub async fn set_server_settings(
        &self,
        guild: GuildId,
        change: ServerSettingsChange,
    ) -> Result<ServerSettings> {
        let mut held = self.write.lock().await?;
        let (board, threads): (BoardStyle, Flag) = sqlx::query_as(statement!(
            "INSERT INTO server_settings (guild_id, board, threads)
             VALUES ($1, COALESCE($2, 'emoji'), COALESCE($3, 0))
             ON CONFLICT (guild_id) DO UPDATE
             SET board = COALESCE($2, server_settings.board),
                 threads = COALESCE($3, server_settings.threads)
             RETURNING board, threads"
        ))
        .bind(guild)
        .bind(change.board)
        .bind(change.threads.map(Flag))
        .fetch_one(held.conn())
        .await?;
        Ok(ServerSettings {
            board,
            threads: threads.into(),
        })
    }

    /// Whether the database answers a read and would take a write: for a readiness check. On
    /// SQLite the write lock is taken and given back (`BEGIN IMMEDIATE`, `ROLLBACK`): another
    /// process holding it keeps this waiting. On PostgreSQL a writing connection answers. A disk
    /// the last write found full ([`StoreError::DiskFull`]) is not ready until a write commits.
    pub async fn ping(&self) -> Result<()> {
        let _: i64 = sqlx::query_scalar(statement!("SELECT 1"))
            .fetch_one(&self.read)
            .await?;
        match &self.backend {
            super::Backend::Sqlite { .. } => drop(self.write.begin().await?),
            super::Backend::Postgres => {
                let mut held = self.write.lock().await?;
                let _: i64 = sqlx::query_scalar(statement!("SELECT 1"))
                    .fetch_one(held.conn())
                    .await?;
            }
        }
        if self.read.faults().disk_full() {
            return Err(StoreError::DiskFull);
        }
        Ok(())
    }

    /// The latest message known to show game `game`'s board.
    pub async fn game_message(&self, game: GameId) -> Result<Option<MessageId>> {
        Ok(sqlx::query_scalar(statement!(
            "SELECT message_id FROM game_messages WHERE game_id = $1"
        ))
        .bind(game)
        .fetch_optional(&self.read)
        .await?)
    }

    /// The latest message known to show the board of each of `member`'s games in progress that
    /// has one, in every server.
    pub async fn active_game_messages(&self, member: MemberId) -> Result<Vec<(GameId, MessageId)>> {
        Ok(sqlx::query_as(statement!(
            "SELECT m.game_id, m.message_id FROM game_messages m JOIN games g ON g.id = m.game_id
             WHERE g.state = 'active' AND (g.black_id = $1 OR g.white_id = $1)"
        ))
        .bind(member)
        .fetch_all(&self.read)
        .await?)
    }

    /// Records `message` as the latest to show game `game`'s board.
    pub async fn set_game_message(
        &self,
        game: GameId,
        message: MessageId,
        now: Timestamp,
    ) -> Result<()> {
        let mut tx = self.write.begin().await?;
        sqlx::query(statement!(
            "INSERT INTO game_messages (game_id, message_id) VALUES ($1, $2)
             ON CONFLICT (game_id) DO UPDATE SET message_id = $2"
        ))
        .bind(game)
        .bind(message)
        .execute(tx.conn())
        .await?;
        // What waited for this message is due now.
        let released = sqlx::query(statement!(
            "UPDATE outbox SET next_attempt_at = $1, board_game = NULL
             WHERE board_game = $2 AND next_attempt_at > $1"
        ))
        .bind(Millis(now))
        .bind(game)
        .execute(tx.conn())
        .await?
        .rows_affected();
        tx.commit().await?;
        if released > 0 {
            self.bell.ring();
        }
        Ok(())
    }
}

impl WriteTx {
    /// Locks server `guild` to the end of this transaction, by writing its settings row as it
    /// was (or with the defaults if it had none): what is counted under it against a server's
    /// limit cannot be counted at the same time by another transaction (PostgreSQL; SQLite's
    /// writes are one at a time anyway).
    pub(super) async fn lock_server(&mut self, guild: GuildId) -> Result<()> {
        sqlx::query(statement!(
            "INSERT INTO server_settings (guild_id) VALUES ($1)
             ON CONFLICT (guild_id) DO UPDATE SET board = server_settings.board"
        ))
        .bind(guild)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    /// Whether `member` gets a direct message on their turn.
    pub async fn notifies_dm(&mut self, member: MemberId) -> Result<bool> {
        Ok(sqlx::query_scalar::<_, Flag>(statement!(
            "SELECT notify_dm FROM member_settings WHERE member_id = $1"
        ))
        .bind(member)
        .fetch_optional(self.tx.conn())
        .await?
        .is_some_and(bool::from))
    }
}
