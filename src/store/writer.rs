//! The one connection that writes, handed from one writer to the next by a mutex.
//!
//! A pool of one connection would do the same, but sqlx's pool checks each connection it gets
//! back with a round trip to the connection's thread, and the next writer waits for that check.
//! On the busiest path (a statement per group of moves) that doubled the hand-offs between
//! threads per statement. The mutex passes the connection on directly.
//!
//! A write transaction is open while its holder keeps the connection. One dropped before it
//! committed leaves a flag, and whoever takes the connection next rolls it back first; a task is
//! started to be that next holder at once, so the database's write lock is not kept.

use std::sync::Arc;

use sqlx::sqlite::SqliteConnection;
use sqlx::Connection;
use tokio::sync::{Mutex, OwnedMappedMutexGuard, OwnedMutexGuard};

/// The connection and whether a transaction was left open on it.
#[derive(Debug)]
pub(crate) struct Slot {
    pub conn: SqliteConnection,
    in_tx: bool,
}

/// The connection, held. Others wait until it is dropped.
pub(crate) type Held = OwnedMappedMutexGuard<Option<Slot>, Slot>;

#[derive(Debug, Clone)]
pub(crate) struct Writer(Arc<Mutex<Option<Slot>>>);

impl Writer {
    pub fn new(conn: SqliteConnection) -> Writer {
        Writer(Arc::new(Mutex::new(Some(Slot { conn, in_tx: false }))))
    }

    /// Waits for the connection; rolls back a transaction its last holder left open.
    pub async fn lock(&self) -> sqlx::Result<Held> {
        let guard = self.0.clone().lock_owned().await;
        let mut held =
            OwnedMutexGuard::try_map(guard, Option::as_mut).map_err(|_| sqlx::Error::PoolClosed)?;
        if held.in_tx {
            sqlx::query("ROLLBACK").execute(&mut held.conn).await?;
            held.in_tx = false;
        }
        Ok(held)
    }

    /// Takes the connection and starts a write transaction on it. `BEGIN IMMEDIATE` takes the
    /// database's write lock at once, so a writer in another process is waited for here
    /// (up to the busy timeout) rather than failing half-way.
    pub async fn begin(&self) -> sqlx::Result<Tx> {
        let mut held = self.lock().await?;
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut held.conn)
            .await?;
        held.in_tx = true;
        Ok(Tx {
            held,
            writer: self.clone(),
        })
    }

    /// Waits for the writer in flight, then closes the connection; later uses fail.
    pub async fn close(&self) {
        let slot = self.0.lock().await.take();
        if let Some(slot) = slot {
            if let Err(e) = slot.conn.close().await {
                tracing::warn!(error = %e, "closing the database writer");
            }
        }
    }
}

/// A write transaction: rolled back unless [`Tx::commit`] succeeds.
#[derive(Debug)]
pub(crate) struct Tx {
    held: Held,
    writer: Writer,
}

impl Tx {
    pub fn conn(&mut self) -> &mut SqliteConnection {
        &mut self.held.conn
    }

    pub async fn commit(mut self) -> sqlx::Result<()> {
        sqlx::query("COMMIT").execute(&mut self.held.conn).await?;
        self.held.in_tx = false;
        Ok(())
    }
}

impl Drop for Tx {
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
