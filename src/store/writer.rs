//! Where writes go: on SQLite, the one connection that writes; on PostgreSQL, a set of them.
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
//! PostgreSQL takes many writers at once, each on a connection of a [`ConnSet`]; what keeps two
//! of them apart is the database's row locks and the ply check in each statement, not this
//! process. The set hands a connection from one writer to the next directly too: sqlx's pool
//! pings every connection that comes back (a round trip, in a task of its own, before the next
//! writer may have it); `bench` wrote 40% fewer moves a second through it. A connection is
//! checked only when it may have gone bad instead: after a while unused, or after a statement of
//! the store failed on its connection (see [`Faults`]).

use super::statements::statement;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use futures_util::{TryFutureExt, TryStreamExt};
use sqlx::any::{Any, AnyConnectOptions, AnyQueryResult, AnyRow, AnyStatement, AnyTypeInfo};
use sqlx::{AnyConnection, AnyPool, Connection, Describe, Either, Execute, Executor, SqlStr};
use tokio::sync::{Mutex, OwnedMappedMutexGuard, OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};

/// Statements of a store that failed on their connection (it broke, timed out, or the server
/// went away), for as long as the store lives: a connection of a [`ConnSet`] that has not been
/// checked since the last of them is checked before its next use. Beside them, whether the last
/// write found the disk full.
#[derive(Debug, Default)]
pub(crate) struct Faults {
    broken: AtomicU64,
    full: AtomicBool,
}

impl Faults {
    fn seen(&self) -> u64 {
        self.broken.load(Ordering::Relaxed)
    }

    /// Whether a statement failed on a full disk since the last write that committed.
    pub fn disk_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// A write committed: there was room.
    fn committed(&self) {
        if self.full.load(Ordering::Relaxed) {
            self.full.store(false, Ordering::Relaxed);
        }
    }

    /// Counts `e` if it says the connection, rather than the statement, failed, and notes a
    /// full disk.
    fn note(&self, e: &sqlx::Error) {
        if super::error::is_full(e) {
            self.full.store(true, Ordering::Relaxed);
        }
        if super::error::connection_failed(e) {
            self.broken.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A connection, or the pool of readers, whose failed statements are counted in its store's
/// [`Faults`] as they fail: it runs queries as what it holds does.
#[derive(Debug, Clone)]
pub(crate) struct Watched<T> {
    inner: T,
    faults: Arc<Faults>,
}

/// A writing connection.
pub(crate) type Conn = Watched<AnyConnection>;

impl<T> Watched<T> {
    pub fn new(inner: T, faults: Arc<Faults>) -> Watched<T> {
        Watched { inner, faults }
    }

    pub fn get(&self) -> &T {
        &self.inner
    }

    pub fn faults(&self) -> &Faults {
        &self.faults
    }
}

/// Times a write, from asking for the writing connection to giving it back, into
/// [`telemetry::DATABASE_WRITE_SECONDS`](crate::telemetry::DATABASE_WRITE_SECONDS).
#[derive(Debug)]
pub(crate) struct Timed(Instant);

impl Timed {
    fn start() -> Timed {
        Timed(Instant::now())
    }
}

impl Drop for Timed {
    fn drop(&mut self) {
        metrics::histogram!(crate::telemetry::DATABASE_WRITE_SECONDS).record(self.0.elapsed());
    }
}

/// `Executor` for `$watched`, by the executor it holds, noting each error in its [`Faults`].
macro_rules! watched_executor {
    ($watched:ty) => {
        impl<'c> Executor<'c> for $watched {
            type Database = Any;

            fn fetch_many<'e, 'q: 'e, E>(
                self,
                query: E,
            ) -> BoxStream<'e, sqlx::Result<Either<AnyQueryResult, AnyRow>>>
            where
                'c: 'e,
                E: 'q + Execute<'q, Any>,
            {
                let Watched { inner, faults } = self;
                Box::pin(inner.fetch_many(query).inspect_err(move |e| faults.note(e)))
            }

            fn fetch_optional<'e, 'q: 'e, E>(
                self,
                query: E,
            ) -> BoxFuture<'e, sqlx::Result<Option<AnyRow>>>
            where
                'c: 'e,
                E: 'q + Execute<'q, Any>,
            {
                let Watched { inner, faults } = self;
                Box::pin(
                    inner
                        .fetch_optional(query)
                        .inspect_err(move |e| faults.note(e)),
                )
            }

            // Neither is how the store runs a statement: they only pass through.
            fn prepare_with<'e>(
                self,
                sql: SqlStr,
                parameters: &'e [AnyTypeInfo],
            ) -> BoxFuture<'e, sqlx::Result<AnyStatement>>
            where
                'c: 'e,
            {
                self.inner.prepare_with(sql, parameters)
            }

            fn describe<'e>(self, sql: SqlStr) -> BoxFuture<'e, sqlx::Result<Describe<Any>>>
            where
                'c: 'e,
            {
                self.inner.describe(sql)
            }
        }
    };
}

watched_executor!(&'c mut Watched<AnyConnection>);
watched_executor!(&'c Watched<AnyPool>);

/// The connection and whether a transaction was left open on it.
#[derive(Debug)]
pub(crate) struct Slot {
    conn: Conn,
    in_tx: bool,
}

/// A writing connection, held: the SQLite writer (others wait until it is dropped), or one of
/// PostgreSQL's set.
#[derive(Debug)]
pub(crate) struct Held {
    holding: Holding,
    _timed: Timed,
}

#[derive(Debug)]
enum Holding {
    Single(OwnedMappedMutexGuard<Option<Slot>, Slot>),
    Set(Lent),
}

impl Held {
    pub fn conn(&mut self) -> &mut Conn {
        match &mut self.holding {
            Holding::Single(slot) => &mut slot.conn,
            Holding::Set(lent) => lent.conn(),
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) enum Writer {
    /// SQLite's one writing connection.
    Single(Arc<Mutex<Option<Slot>>>),
    /// PostgreSQL's writing connections.
    Set(Arc<ConnSet>),
}

impl Writer {
    /// The one writing connection of a SQLite database.
    pub fn single(conn: Conn) -> Writer {
        Writer::Single(Arc::new(Mutex::new(Some(Slot { conn, in_tx: false }))))
    }

    /// Up to `size` writing connections to the PostgreSQL database of `options`; `first` is one
    /// already open, [`Writer::open_all`] opens the others, and one that broke is opened again
    /// when next needed, all counting their failures in `first`'s [`Faults`]. Waiting for a
    /// connection, or for one to open, fails after `timeout`.
    pub fn set(options: AnyConnectOptions, first: Conn, size: u32, timeout: Duration) -> Writer {
        let faults = Arc::clone(&first.faults);
        let first = SetSlot {
            faults_seen: faults.seen(),
            conn: first,
            in_tx: false,
            used_at: Instant::now(),
        };
        Writer::Set(Arc::new(ConnSet {
            options,
            idle: std::sync::Mutex::new(vec![first]),
            permits: Arc::new(Semaphore::new(size as usize)),
            size,
            timeout,
            faults,
        }))
    }

    /// Waits for a writing connection; on SQLite, rolls back a transaction its last holder left
    /// open.
    pub async fn lock(&self) -> sqlx::Result<Held> {
        let _timed = Timed::start();
        let holding = match self {
            Writer::Single(slot) => Holding::Single(lock_slot(slot).await?),
            Writer::Set(set) => Holding::Set(set.lend().await?),
        };
        Ok(Held { holding, _timed })
    }

    /// Starts a write transaction. On SQLite `BEGIN IMMEDIATE` takes the database's write lock
    /// at once, so a writer in another process is waited for here (up to the busy timeout)
    /// rather than failing half-way.
    pub async fn begin(&self) -> sqlx::Result<Tx> {
        let timed = Timed::start();
        match self {
            Writer::Single(slot) => {
                let mut held = lock_slot(slot).await?;
                sqlx::query(statement!(Sqlite, "BEGIN IMMEDIATE"))
                    .execute(&mut held.conn)
                    .await?;
                held.in_tx = true;
                Ok(Tx::Single(SingleTx {
                    held,
                    writer: self.clone(),
                    _timed: timed,
                }))
            }
            Writer::Set(set) => {
                let mut lent = set.lend().await?;
                // Marked first: a BEGIN cut off half-way is rolled back too (a ROLLBACK outside a
                // transaction only draws a warning).
                lent.slot_mut().in_tx = true;
                sqlx::query(statement!("BEGIN"))
                    .execute(lent.conn())
                    .await?;
                Ok(Tx::Set(lent, timed))
            }
        }
    }

    /// Opens, all at once, the connections of a PostgreSQL set that are not open yet, so that
    /// the first writes after start-up do not wait for them (a new connection costs the server a
    /// process, and its first statements a cold cache). How many of the set are open, and the
    /// first error of those that would not open (they are tried again when needed).
    pub async fn open_all(&self) -> (u32, Option<sqlx::Error>) {
        let Writer::Set(set) = self else {
            return (1, None);
        };
        let open = set
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len() as u32;
        let faults = set.faults.seen();
        let (opened, failed) = all_at_once((open..set.size).map(|_| {
            let set = Arc::clone(set);
            async move { set.open(faults).await }
        }))
        .await;
        let more = opened.len() as u32;
        for slot in opened {
            set.put_back(slot);
        }
        (open + more, failed)
    }

    /// Waits for the writers in flight, then closes the connections; later uses fail.
    pub async fn close(&self) {
        match self {
            Writer::Single(slot) => {
                let slot = slot.lock().await.take();
                if let Some(slot) = slot {
                    if let Err(e) = slot.conn.inner.close().await {
                        tracing::warn!(error = %e, "closing the database writer");
                    }
                }
            }
            Writer::Set(set) => set.close().await,
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
        sqlx::query(statement!("ROLLBACK"))
            .execute(&mut held.conn)
            .await?;
        held.in_tx = false;
    }
    Ok(held)
}

/// A write transaction: rolled back unless [`Tx::commit`] succeeds.
#[derive(Debug)]
pub(crate) enum Tx {
    Single(SingleTx),
    Set(Lent, Timed),
}

impl Tx {
    pub fn conn(&mut self) -> &mut Conn {
        match self {
            Tx::Single(tx) => &mut tx.held.conn,
            Tx::Set(lent, _) => lent.conn(),
        }
    }

    pub async fn commit(self) -> sqlx::Result<()> {
        match self {
            Tx::Single(mut tx) => {
                sqlx::query(statement!("COMMIT"))
                    .execute(&mut tx.held.conn)
                    .await?;
                tx.held.in_tx = false;
                tx.held.conn.faults.committed();
                Ok(())
            }
            Tx::Set(mut lent, _timed) => {
                sqlx::query(statement!("COMMIT"))
                    .execute(lent.conn())
                    .await?;
                lent.slot_mut().in_tx = false;
                lent.conn().faults.committed();
                Ok(())
            }
        }
    }
}

/// A transaction on SQLite's writing connection.
#[derive(Debug)]
pub(crate) struct SingleTx {
    held: OwnedMappedMutexGuard<Option<Slot>, Slot>,
    writer: Writer,
    _timed: Timed,
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

/// Runs `tasks` side by side: what each that succeeded gave, and the first error of the others.
pub(crate) async fn all_at_once<T, F>(
    tasks: impl IntoIterator<Item = F>,
) -> (Vec<T>, Option<sqlx::Error>)
where
    T: Send + 'static,
    F: std::future::Future<Output = sqlx::Result<T>> + Send + 'static,
{
    let mut running = tokio::task::JoinSet::new();
    for task in tasks {
        running.spawn(task);
    }
    let (mut done, mut failed) = (Vec::new(), None);
    while let Some(finished) = running.join_next().await {
        match finished {
            Ok(Ok(value)) => done.push(value),
            Ok(Err(e)) => {
                failed.get_or_insert(e);
            }
            Err(e) => {
                failed.get_or_insert(sqlx::Error::Io(std::io::Error::other(e)));
            }
        }
    }
    (done, failed)
}

/// How long a connection of a [`ConnSet`] may sit unused before it is checked again.
const IDLE_CHECK: Duration = Duration::from_secs(1);

/// PostgreSQL's writing connections: at most `size`, lent one writer at a time, first come first
/// served; all opened at start-up, and one that broke opened again when no idle one is left.
#[derive(Debug)]
pub(crate) struct ConnSet {
    options: AnyConnectOptions,
    idle: std::sync::Mutex<Vec<SetSlot>>,
    permits: Arc<Semaphore>,
    size: u32,
    timeout: Duration,
    faults: Arc<Faults>,
}

#[derive(Debug)]
struct SetSlot {
    conn: Conn,
    /// A transaction is open on it (its holder is in one, or was dropped in one).
    in_tx: bool,
    used_at: Instant,
    /// The set's [`Faults`] when the connection was last known to work.
    faults_seen: u64,
}

impl ConnSet {
    /// A connection that works, as far as can be told without a round trip: an idle one, checked
    /// first if it may have gone bad, or a new one. Failing to get one counts among its faults.
    async fn lend(self: &Arc<Self>) -> sqlx::Result<Lent> {
        self.lend_checked()
            .await
            .inspect_err(|e| self.faults.note(e))
    }

    async fn lend_checked(self: &Arc<Self>) -> sqlx::Result<Lent> {
        let permit =
            match tokio::time::timeout(self.timeout, self.permits.clone().acquire_owned()).await {
                Ok(Ok(permit)) => permit,
                Ok(Err(_closed)) => return Err(sqlx::Error::PoolClosed),
                Err(_elapsed) => return Err(sqlx::Error::PoolTimedOut),
            };
        let idle = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let faults = self.faults.seen();
        let slot = match idle {
            Some(slot) if slot.faults_seen == faults && slot.used_at.elapsed() < IDLE_CHECK => slot,
            Some(mut slot) => {
                match tokio::time::timeout(self.timeout, slot.conn.inner.ping()).await {
                    Ok(Ok(())) => SetSlot {
                        faults_seen: faults,
                        ..slot
                    },
                    failed => {
                        tracing::debug!(
                            ?failed,
                            "a PostgreSQL connection failed its check; reopening"
                        );
                        self.open(faults).await?
                    }
                }
            }
            None => self.open(faults).await?,
        };
        Ok(Lent {
            slot: Some(slot),
            set: Arc::clone(self),
            permit: Some(permit),
        })
    }

    async fn open(&self, faults: u64) -> sqlx::Result<SetSlot> {
        let conn = tokio::time::timeout(self.timeout, AnyConnection::connect_with(&self.options))
            .await
            .map_err(|_elapsed| sqlx::Error::PoolTimedOut)??;
        Ok(SetSlot {
            conn: Watched::new(conn, Arc::clone(&self.faults)),
            in_tx: false,
            used_at: Instant::now(),
            faults_seen: faults,
        })
    }

    fn put_back(&self, mut slot: SetSlot) {
        slot.used_at = Instant::now();
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(slot);
    }

    /// Waits (up to the timeout) for the connections lent out to come back, then closes them
    /// all; later uses fail.
    async fn close(&self) {
        // Held to the end, so no writer takes a connection between the wait and the close.
        let all = tokio::time::timeout(
            self.timeout,
            self.permits.clone().acquire_many_owned(self.size),
        )
        .await;
        if all.is_err() {
            tracing::warn!("closing the database's connections while some are still in use");
        }
        self.permits.close();
        let idle = std::mem::take(&mut *self.idle.lock().unwrap_or_else(PoisonError::into_inner));
        for slot in idle {
            if let Err(e) = slot.conn.inner.close().await {
                tracing::debug!(error = %e, "closing a database connection");
            }
        }
    }
}

/// A connection of a [`ConnSet`], lent: back in the set when dropped. One dropped inside a
/// transaction (its holder failed or was cancelled half-way) is rolled back first, at once, so
/// the row locks it holds are not kept until its next use.
#[derive(Debug)]
pub(crate) struct Lent {
    slot: Option<SetSlot>,
    set: Arc<ConnSet>,
    /// Held until the connection is back (or closed), so the set never has more than its size.
    permit: Option<OwnedSemaphorePermit>,
}

impl Lent {
    fn slot_mut(&mut self) -> &mut SetSlot {
        // Only `Drop` takes the slot out.
        self.slot
            .as_mut()
            .unwrap_or_else(|| unreachable!("a lent connection is there until dropped"))
    }

    fn conn(&mut self) -> &mut Conn {
        &mut self.slot_mut().conn
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        let Some(mut slot) = self.slot.take() else {
            return;
        };
        let permit = self.permit.take();
        if !slot.in_tx {
            self.set.put_back(slot);
            drop(permit);
            return;
        }
        // Without a runtime (the process is ending) the connection is closed as it drops, and
        // the server ends the transaction with it.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let set = Arc::clone(&self.set);
            runtime.spawn(async move {
                match sqlx::query(statement!("ROLLBACK"))
                    .execute(&mut slot.conn)
                    .await
                {
                    Ok(_) => {
                        slot.in_tx = false;
                        set.put_back(slot);
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "rolling back an abandoned transaction");
                    }
                }
                drop(permit);
            });
        }
    }
}
