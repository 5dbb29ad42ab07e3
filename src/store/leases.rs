//! Which bot process serves which gateway shards of a PostgreSQL database, shared by processes
//! on several machines: a lease per shard, held as a row of `shard_leases` until a time the
//! holder keeps moving on (see [`LEASE`]). A process that stops deletes its rows, so a
//! replacement starts at once; one that dies stops renewing, and its shards may be taken once
//! the lease has run out. Times are the database's clock (`db_now_ms!`, in unix milliseconds), so
//! the machines' clocks do not matter.
//!
//! A SQLite file is claimed with lock files instead (see `instance`): only processes on its own
//! machine can open it.

use std::time::Duration;

use crate::domain::Shards;

use super::statements::statement;
use super::{Result, Store, StoreError};

/// How long a lease lasts unless renewed, by default (`SHARD_LEASE_SECS`): how soon a dead
/// process's shards are taken over. A live process renews its leases three times within one, so
/// one or two failed renewals (the database briefly away) cost nothing.
pub const LEASE: Duration = Duration::from_secs(30);

/// The database's clock in unix milliseconds, as SQL to splice into a statement with `concat!`.
macro_rules! db_now_ms {
    () => {
        "(extract(epoch from clock_timestamp()) * 1000)::bigint"
    };
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The shards a process claims: those it runs, or every shard (as shard 0 of 1, which no
/// process running some shards can hold beside it).
fn claimed(shards: Option<Shards>) -> Shards {
    shards.unwrap_or(Shards::all(1))
}

impl Store {
    /// Claims `shards` (every shard: `None`) for `holder` for `lease`. Refused with
    /// [`StoreError::ShardsHeld`], naming the holder, while another process holds an unexpired
    /// lease on one of them, or on any shard of another count (whose servers overlap these).
    /// Claims are rare (start-up and renewals), so each takes the table's lock: two processes
    /// starting at once cannot both win.
    pub async fn claim_shards(
        &self,
        shards: Option<Shards>,
        holder: &str,
        lease: Duration,
    ) -> Result<()> {
        let s = claimed(shards);
        let mut tx = self.begin().await?;
        sqlx::raw_sql("LOCK TABLE shard_leases IN EXCLUSIVE MODE")
            .execute(tx.tx.conn())
            .await?;
        let held: Option<(String, i64, i64)> = sqlx::query_as(statement!(
            Postgres,
            concat!(
                "SELECT holder, shard, shard_count FROM shard_leases
             WHERE holder <> $1 AND expires_at > ",
                db_now_ms!(),
                " AND (shard_count <> $2 OR shard BETWEEN $3 AND $4)
             ORDER BY shard LIMIT 1"
            )
        ))
        .bind(holder)
        .bind(i64::from(s.count))
        .bind(i64::from(s.first))
        .bind(i64::from(s.last))
        .fetch_optional(tx.tx.conn())
        .await?;
        if let Some((holder, shard, count)) = held {
            return Err(StoreError::ShardsHeld {
                holder,
                shard: format!("{shard} of {count}"),
            });
        }
        // Left by a process that stopped renewing, or by this one: taken over.
        sqlx::query(statement!(
            Postgres,
            "DELETE FROM shard_leases
             WHERE shard_count <> $1 OR shard BETWEEN $2 AND $3 OR holder = $4"
        ))
        .bind(i64::from(s.count))
        .bind(i64::from(s.first))
        .bind(i64::from(s.last))
        .bind(holder)
        .execute(tx.tx.conn())
        .await?;
        sqlx::query(statement!(
            Postgres,
            concat!(
                "INSERT INTO shard_leases (shard, shard_count, holder, expires_at)
             SELECT shard, $2, $4, ",
                db_now_ms!(),
                " + $5 FROM generate_series($1::bigint, $3::bigint) AS shard"
            )
        ))
        .bind(i64::from(s.first))
        .bind(i64::from(s.count))
        .bind(i64::from(s.last))
        .bind(holder)
        .bind(ms(lease))
        .execute(tx.tx.conn())
        .await?;
        tx.commit().await
    }

    /// Moves `holder`'s leases on `shards` on to `lease` from now. [`StoreError::LeaseLost`]
    /// when one of them is no longer theirs (it ran out and another process took it): the
    /// process must stop serving those shards at once.
    pub async fn renew_shards(
        &self,
        shards: Option<Shards>,
        holder: &str,
        lease: Duration,
    ) -> Result<()> {
        let s = claimed(shards);
        let mut held = self.write.lock().await?;
        let done = sqlx::query(statement!(
            Postgres,
            concat!(
                "UPDATE shard_leases SET expires_at = ",
                db_now_ms!(),
                " + $5
             WHERE holder = $4 AND shard_count = $1 AND shard BETWEEN $2 AND $3"
            )
        ))
        .bind(i64::from(s.count))
        .bind(i64::from(s.first))
        .bind(i64::from(s.last))
        .bind(holder)
        .bind(ms(lease))
        .execute(held.conn())
        .await?;
        if done.rows_affected() == u64::from(s.last - s.first + 1) {
            Ok(())
        } else {
            Err(StoreError::LeaseLost)
        }
    }

    /// Renews `holder`'s leases for `lease` every third of it for as long as it can; returns why
    /// it cannot any more: the lease was lost, or renewals failed until the lease would run out
    /// before the next one. Either way the process must stop serving its shards.
    pub async fn keep_shards(
        &self,
        shards: Option<Shards>,
        holder: &str,
        lease: Duration,
    ) -> StoreError {
        let every = lease / 3;
        let mut renewed = tokio::time::Instant::now();
        loop {
            tokio::time::sleep(every).await;
            match self.renew_shards(shards, holder, lease).await {
                Ok(()) => renewed = tokio::time::Instant::now(),
                Err(e @ StoreError::LeaseLost) => return e,
                Err(e) if renewed.elapsed() + every >= lease => return e,
                Err(e) => {
                    tracing::warn!(error = %e, "could not renew this process's shard leases; trying again");
                }
            }
        }
    }

    /// Gives up `holder`'s leases, so that a replacement may start at once.
    pub async fn release_shards(&self, holder: &str) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query(statement!(
            Postgres,
            "DELETE FROM shard_leases WHERE holder = $1"
        ))
        .bind(holder)
        .execute(held.conn())
        .await?;
        Ok(())
    }
}

/// A name for this process that says where to find it: its machine, its process id and when it
/// started.
pub fn holder_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "?".to_string());
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("host={host} pid={} started={started}", std::process::id())
}
