//! Where writes go: on SQLite, the one connection that writes; on PostgreSQL, a pool.
//!
//! SQLite has one writer at a time, so the process keeps one writing connection and hands it from
//! one writer to the next by a mutex. A pool of one connection would do the same, but sqlx's pool
//! checks each connection it gets back with a round trip to the connection's thread, and the next
//! writer waits for that check. On the busiest path (a statement per group of moves) that doubled
//! the hand-offs between threads per statement. The mutex passes the connection on directly.
//!
//! There, a write transaction is open while its holder keeps the connection. One dropped before
//! it committed leaves a flag, and whoever takes the connection next rolls it back first; a task
//! is started to be that next holder at once, so the database's write lock is not kept.
//!
//! PostgreSQL takes many writers at once, each on a connection of the pool; what keeps two of
//! them apart is the database's row locks and the ply check in each statement, not this process.

use std::sync::Arc;

use sqlx::any::Any;
use sqlx::pool::PoolConnection;
use sqlx::Connection;
use sqlx::{AnyConnection, AnyPool};
use tokio::sync::{Mutex, OwnedMappedMutexGuard, OwnedMutexGuard};

/// The connection and whether a transaction was left open on it.
#[derive(Debug)]
pub(crate) struct Slot {
    conn: AnyConnection,
    in_tx: bool,
}

/// A writing connection, held: the SQLite writer (others wait until it is dropped), or one of
/// PostgreSQL's pool.
#[derive(Debug)]
pub(crate) enum Held {
    Single(OwnedMappedMutexGuard<Option<Slot>, Slot>),
    Pool(PoolConnection<Any>),
}

impl Held {
    pub fn conn(&mut self) -> &mut AnyConnection {
        match self {
            Held::Single(slot) => &mut slot.conn,
            Held::Pool(conn) => conn,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) enum Writer {
    /// SQLite's one writing connection.
    Single(Arc<Mutex<Option<Slot>>>),
    /// PostgreSQL's pool.
    Pool(AnyPool),
}

impl Writer {
    /// The one writing connection of a SQLite database.
    pub fn single(conn: AnyConnection) -> Writer {
        Writer::Single(Arc::new(Mutex::new(Some(Slot { conn, in_tx: false }))))
    }

    /// A pool of writing connections (PostgreSQL).
    pub fn pool(pool: AnyPool) -> Writer {
        Writer::Pool(pool)
    }

    /// Waits for a writing connection; on SQLite, rolls back a transaction its last holder left
    /// open.
    pub async fn lock(&self) -> sqlx::Result<Held> {
        match self {
            Writer::Single(slot) => Ok(Held::Single(lock_slot(slot).await?)),
            Writer::Pool(pool) => Ok(Held::Pool(pool.acquire().await?)),
        }
    }

    /// Starts a write transaction. On SQLite `BEGIN IMMEDIATE` takes the database's write lock
    /// at once, so a writer in another process is waited for here (up to the busy timeout)
    /// rather than failing half-way.
    pub async fn begin(&self) -> sqlx::Result<Tx> {
        match self {
            Writer::Single(slot) => {
                let mut held = lock_slot(slot).await?;
                sqlx::query("BEGIN IMMEDIATE")
                    .execute(&mut held.conn)
                    .await?;
                held.in_tx = true;
                Ok(Tx::Single(SingleTx {
                    held,
                    writer: self.clone(),
                }))
            }
            Writer::Pool(pool) => Ok(Tx::Pool(pool.begin().await?)),
        }
    }

    /// Waits for the writers in flight, then closes the connections; later uses fail.
    pub async fn close(&self) {
        match self {
            Writer::Single(slot) => {
                let slot = slot.lock().await.take();
                if let Some(slot) = slot {
                    if let Err(e) = slot.conn.close().await {
                        tracing::warn!(error = %e, "closing the database writer");
                    }
                }
            }
            Writer::Pool(pool) => pool.close().await,
        }
    }
}

/// Waits for SQLite's writing connection; rolls back a transaction its last holder left open.
async fn lock_slot(
    slot: &Arc<Mutex<Option<Slot>>>,
) -> sqlx::Result<OwnedMappedMutexGuard<Option<Slot>, Slot>> {
    let guard = slot.clone().lock_owned().await;
    let mut held =
        OwnedMutexGuard::try_map(guard, Option::as_mut).map_err(|_| sqlx::Error::PoolClosed)?;
    if held.in_tx {
        sqlx::query("ROLLBACK").execute(&mut held.conn).await?;
        held.in_tx = false;
    }
    Ok(held)
}

/// A write transaction: rolled back unless [`Tx::commit`] succeeds.
#[derive(Debug)]
pub(crate) enum Tx {
    Single(SingleTx),
    Pool(sqlx::Transaction<'static, Any>),
}

impl Tx {
    pub fn conn(&mut self) -> &mut AnyConnection {
        match self {
            Tx::Single(tx) => &mut tx.held.conn,
            Tx::Pool(tx) => tx,
        }
    }

    pub async fn commit(self) -> sqlx::Result<()> {
        match self {
            Tx::Single(mut tx) => {
                sqlx::query("COMMIT").execute(&mut tx.held.conn).await?;
                tx.held.in_tx = false;
                Ok(())
            }
            Tx::Pool(tx) => tx.commit().await,
        }
    }
}

/// A transaction on SQLite's writing connection.
#[derive(Debug)]
pub(crate) struct SingleTx {
    held: OwnedMappedMutexGuard<Option<Slot>, Slot>,
    writer: Writer,
}

impl Drop for SingleTx {
    fn drop(&mut self) {
        if !self.held.in_tx {
            return;
        }
        // The next holder rolls back; be that holder now rather than whenever a write comes.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let writer = self.writer.clone();
            runtime.spawn(async move {
                if let Err(e) = writer.lock().await {
                    tracing::warn!(error = %e, "rolling back an abandoned transaction");
                }
            });
        }
    }
}
