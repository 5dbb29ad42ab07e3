//! The outbox of announcements owed to players, and the record that the bot is alive (which moves
//! the clocks on after a downtime).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::domain::{OutboxId, Timestamp};

use super::codec::{Millis, Seconds};
use super::statements::{built_statement, statement};
use super::writer::Conn;
use super::{NewOutbox, OutboxRow, Result, Servers, Sql, Store, WriteTx};

/// Rung each time a write that queued announcements commits, so that whatever posts the outbox
/// wakes at once instead of at its next look; a ring with no one waiting is kept for the next
/// wait. Only this process's writes ring it: another process's are found at the next look.
#[derive(Clone, Debug, Default)]
pub struct OutboxBell(Arc<Notify>);

impl OutboxBell {
    pub(super) fn ring(&self) {
        self.0.notify_one();
    }

    /// Waits until a write queued announcements since the last wait.
    pub async fn rung(&self) {
        self.0.notified().await;
    }
}

/// Queues an announcement.
pub(super) async fn insert_outbox(conn: &mut Conn, row: &NewOutbox) -> Result<()> {
    sqlx::query(statement!(
        "INSERT INTO outbox
            (guild_id, channel_id, announcement, created_at, next_attempt_at, board_game)
         VALUES ($1, $2, $3, $4, $5, $6)"
    ))
    .bind(row.guild_id)
    .bind(row.channel_id)
    .bind(&row.announcement)
    .bind(row.created_at)
    .bind(Millis(row.first_attempt_at))
    .bind(row.waits_for_board)
    .execute(conn)
    .await?;
    Ok(())
}

impl Store {
    /// The bell rung when announcements are queued.
    pub fn outbox_bell(&self) -> &OutboxBell {
        &self.bell
    }

    /// Announcements in `servers` due at `now`, oldest first, at most `limit`.
    pub async fn due_outbox(
        &self,
        now: Timestamp,
        servers: Servers,
        limit: i64,
    ) -> Result<Vec<OutboxRow>> {
        let (sql, args) = due_outbox_sql(now, servers, limit).build()?;
        Ok(sqlx::query_as_with(sql, args).fetch_all(&self.read).await?)
    }

    /// When the next announcement in `servers` is due, if any is waiting.
    pub async fn next_outbox_at(&self, servers: Servers) -> Result<Option<Timestamp>> {
        let (sql, args) = next_outbox_sql(servers).build()?;
        let at: Option<Millis> = sqlx::query_scalar_with(sql, args)
            .fetch_one(&self.read)
            .await?;
        Ok(at.map(Timestamp::from))
    }

    /// How many announcements in `servers` wait in the outbox, and when the oldest was queued.
    pub async fn outbox_backlog(&self, servers: Servers) -> Result<(i64, Option<Timestamp>)> {
        let (sql, args) = outbox_backlog_sql(servers).build()?;
        Ok(sqlx::query_as_with(sql, args).fetch_one(&self.read).await?)
    }

    /// Removes an announcement: sent, or never to be.
    pub async fn delete_outbox(&self, id: OutboxId) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query(statement!("DELETE FROM outbox WHERE id = $1"))
            .bind(id)
            .execute(held.conn())
            .await?;
        Ok(())
    }

    /// Records a failed post of an announcement, to be tried again at `at`.
    pub async fn postpone_outbox(&self, id: OutboxId, attempts: i64, at: Timestamp) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query(statement!(
            "UPDATE outbox SET attempts = $1, next_attempt_at = $2 WHERE id = $3"
        ))
        .bind(attempts)
        .bind(Millis(at))
        .bind(id)
        .execute(held.conn())
        .await?;
        Ok(())
    }
}

impl WriteTx {
    /// Queues an announcement with the change it announces.
    pub async fn insert_outbox(&mut self, row: &NewOutbox) -> Result<()> {
        insert_outbox(self.tx.conn(), row).await?;
        self.queued = true;
        Ok(())
    }

    /// When the process looking after `servers` last recorded that it was alive.
    pub async fn last_seen(&mut self, servers: Servers) -> Result<Option<Timestamp>> {
        Ok(
            sqlx::query_scalar(statement!("SELECT seen_at FROM alive WHERE scope = $1"))
                .bind(servers.key())
                .fetch_optional(self.tx.conn())
                .await?,
        )
    }

    /// Records that the process looking after `servers` is alive at `now`.
    pub async fn set_last_seen(&mut self, servers: Servers, now: Timestamp) -> Result<()> {
        sqlx::query(statement!(
            "INSERT INTO alive (scope, seen_at) VALUES ($1, $2)
             ON CONFLICT (scope) DO UPDATE SET seen_at = excluded.seen_at"
        ))
        .bind(servers.key())
        .bind(now)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    /// Moves every active game's deadline and every pending challenge's expiry in `servers` on
    /// by `by`; returns how many games and challenges moved.
    pub async fn shift_clocks(&mut self, by: Duration, servers: Servers) -> Result<(u64, u64)> {
        self.touched.all();
        let mut moved = [0; 2];
        for (n, update) in moved.iter_mut().zip(SHIFTS) {
            let (sql, args) = shift_sql(update, by, servers).build()?;
            *n = sqlx::query_with(sql, args)
                .execute(self.tx.conn())
                .await?
                .rows_affected();
        }
        Ok((moved[0], moved[1]))
    }
}

fn due_outbox_sql(now: Timestamp, servers: Servers, limit: i64) -> Sql {
    Sql::new("SELECT * FROM outbox WHERE next_attempt_at <= $1 AND ")
        .arg(Millis(now))
        .servers("guild_id", servers)
        .push(" ORDER BY id LIMIT ")
        .push_bind(limit)
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(|servers| {
        due_outbox_sql(Timestamp::from_unix_seconds(0), servers, 1)
    })
});

fn outbox_backlog_sql(servers: Servers) -> Sql {
    Sql::new("SELECT count(*), min(created_at) FROM outbox WHERE ").servers("guild_id", servers)
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(outbox_backlog_sql)
});

fn next_outbox_sql(servers: Servers) -> Sql {
    Sql::new("SELECT min(next_attempt_at) FROM outbox WHERE ").servers("guild_id", servers)
}

built_statement!(Both, {
    super::statements::for_each_kind_of_servers(next_outbox_sql)
});

/// The clocks [`WriteTx::shift_clocks`] moves: games' deadlines, challenges' expiries.
const SHIFTS: [&str; 2] = [
    "UPDATE games SET deadline = deadline + $1 WHERE state = 'active' AND ",
    "UPDATE challenges SET expires_at = expires_at + $1 WHERE state = 'pending' AND ",
];

fn shift_sql(update: &str, by: Duration, servers: Servers) -> Sql {
    Sql::new(update)
        .arg(Seconds(by))
        .servers("guild_id", servers)
}

built_statement!(Both, {
    SHIFTS
        .iter()
        .flat_map(|update| {
            super::statements::for_each_kind_of_servers(|servers| {
                shift_sql(update, Duration::ZERO, servers)
            })
        })
        .collect()
});
