//! SQLite or PostgreSQL through sqlx's `Any` driver: the pools, the migrations, and one function
//! per query. The only place with SQL; nothing above it knows a table name. Each query is written
//! once, in the SQL both databases read (`$1` parameters, `CASE`, `ON CONFLICT`); the schemas are
//! `migrations/sqlite/` and `migrations/postgres/`, the same tables and the same checks.
//!
//! On SQLite, writes go through one connection, taken in turn (see `writer`), so the process's own writers
//! queue fairly instead of sleeping in SQLite's busy handler; reads use a pool of their own (WAL
//! lets them run beside the writer). Every write transaction starts with `BEGIN IMMEDIATE`, so
//! another process on the same file (the console beside the bot) waits for the lock up front
//! rather than failing mid-way.
//!
//! One file per concern, each adding its queries to [`Store`] (reads) and [`WriteTx`] (writes
//! inside a transaction): `members`, `challenges`, `channels`, `games`, `moves`, `ratings`,
//! `outbox`, `settings`, `vacations`. This file opens the database and holds what they share.
//!
//! Every column is read and written as its domain type (`crate::domain`, `rules::Color`,
//! `rules::BoardSize`, …): `codec` says how, once for each type. A stored value that does not
//! read back as its type fails the query like any other decode error.

mod batch;
mod cache;
mod codec;
mod instance;
mod rows;
mod sql;
mod writer;

/// Games with their players' names in the game's server.
macro_rules! game_select {
    ($where:literal) => {
        concat!(
            "SELECT g.*,
                    COALESCE(bn.name, 'member ' || g.black_id) AS black_name,
                    COALESCE(wn.name, 'member ' || g.white_id) AS white_name,
                    b.is_bot AS black_is_bot, w.is_bot AS white_is_bot,
                    (SELECT max(ends_at) FROM vacations WHERE member_id = g.black_id)
                        AS black_away_until,
                    (SELECT max(ends_at) FROM vacations WHERE member_id = g.white_id)
                        AS white_away_until,
                    COALESCE((SELECT notify_dm FROM member_settings WHERE member_id = g.black_id), 0)
                        AS black_notify_dm,
                    COALESCE((SELECT notify_dm FROM member_settings WHERE member_id = g.white_id), 0)
                        AS white_notify_dm
             FROM games g
             JOIN members b ON b.id = g.black_id JOIN members w ON w.id = g.white_id
             LEFT JOIN member_names bn ON bn.guild_id = g.guild_id AND bn.member_id = g.black_id
             LEFT JOIN member_names wn ON wn.guild_id = g.guild_id AND wn.member_id = g.white_id ",
            $where
        )
    };
}

mod challenges;
mod channels;
mod games;
mod leases;
mod members;
mod moves;
mod outbox;
mod ratings;
mod settings;
mod vacations;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyConnection, AnyPool};
use sqlx::{ConnectOptions, Connection};

use crate::domain::{GameId, GuildId, Shards};

use batch::Batcher;
use cache::{GameCache, Touched};
use sql::Sql;
use writer::{Faults, Watched, Writer};

pub use cache::MAX_AGE as CACHE_MAX_AGE;
pub use challenges::ChallengesTo;
use games::games_by_id;
pub use games::{Ended, GameEnding, RatedEnding};
pub use instance::InstanceLock;
pub use leases::{holder_name, LEASE};
use moves::{apply_moves, Dialect};
pub use moves::{MoveWrite, POSTGRES_GROUPS_IN_FLIGHT};
use outbox::insert_outbox;
pub use rows::{
    ChallengeRow, GameRow, MoveRow, NewChallenge, NewGame, NewOutbox, OutboxRow, PlayerRow,
    RatingChangeRow, RatingRow, ReminderRow, ResultRow,
};

/// What the store can fail with. Each keeps its cause as its `source`, and its message already
/// says that cause (PostgreSQL's refusals in the server's own words, without sqlx's wrapping):
/// whoever prints an error's causes need print none past this one.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A uniqueness rule refused the write; the name is the index or constraint.
    #[error("conflict with {0}")]
    Conflict(String),
    #[error("database: {0}")]
    Sqlx(#[from] sqlx::Error),
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A failed statement shared by every request of its batch.
    #[error("database: {0}")]
    Batch(#[source] Arc<sqlx::Error>),
    /// Another bot process serves this database.
    #[error(
        "another bot process already serves this database ({holder}; lock file {}): stop it \
         first, or give this one its own DATABASE_URL",
        lock.display()
    )]
    InUse {
        lock: std::path::PathBuf,
        holder: String,
    },
    /// The PostgreSQL server could not be reached, or refused the connection.
    #[error("cannot connect to PostgreSQL at {at}: {}", refusal(source))]
    Unreachable {
        at: String,
        #[source]
        source: sqlx::Error,
    },
    /// PostgreSQL would not let this process open all the connections it keeps.
    #[error(
        "PostgreSQL at {at} let this process open {opened} of the {wanted} connections it keeps \
         ({}): raise PostgreSQL's max_connections (or the role's or database's connection \
         limit), or run fewer bot processes on it",
        refusal(source)
    )]
    TooFewConnections {
        at: String,
        opened: u32,
        wanted: u32,
        #[source]
        source: sqlx::Error,
    },
    /// Another bot process holds the lease on a shard this one would run (PostgreSQL).
    #[error(
        "another bot process serves shard {shard} of this database ({holder}): stop it first, \
         or give this one other SHARDS; a process that died lets go once its lease has run out \
         (SHARD_LEASE_SECS)"
    )]
    ShardsHeld { holder: String, shard: String },
    /// This process's lease on its shards ran out and another process took them over.
    #[error(
        "this process's lease on its shards ran out and another process took them over: \
         stopping, so that no two processes serve the same games"
    )]
    LeaseLost,
    /// The lock file beside the database could not be used.
    #[error("cannot use the lock file {path}: {error}", path = .0.display(), error = .1)]
    Lock(std::path::PathBuf, #[source] std::io::Error),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

impl StoreError {
    /// Whether the database could not grow: the disk (or the database's size limit) is full.
    /// Nothing of the refused write was kept; the same write passes once space is freed.
    pub fn is_full(&self) -> bool {
        let e = match self {
            StoreError::Sqlx(e) => e,
            StoreError::Batch(e) => e.as_ref(),
            _ => return false,
        };
        // SQLITE_FULL; PostgreSQL's disk_full.
        matches!(e, sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("13" | "53100")))
    }
}

/// The servers whose games and challenges a sweep, the AI's turn, or the outbox looks at: all,
/// one (the console's), all but one (the bot leaves the console's alone), and within those the
/// servers of some gateway shards (a process that runs only those).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Servers {
    only: Option<GuildId>,
    left_out: Option<GuildId>,
    shards: Option<Shards>,
}

impl Servers {
    /// Every server.
    pub const ALL: Servers = Servers {
        only: None,
        left_out: None,
        shards: None,
    };

    /// One server only.
    pub const fn one(guild: GuildId) -> Servers {
        Servers {
            only: Some(guild),
            ..Servers::ALL
        }
    }

    /// Every server but one.
    pub const fn all_but(guild: GuildId) -> Servers {
        Servers {
            left_out: Some(guild),
            ..Servers::ALL
        }
    }

    /// These servers, of `shards` only (every shard: no limit).
    pub const fn on_shards(self, shards: Shards) -> Servers {
        Servers {
            shards: if shards.is_all() { None } else { Some(shards) },
            ..self
        }
    }

    /// The name under which the process looking after these servers records that it is alive.
    fn key(self) -> String {
        let mut key = match (self.only, self.left_out) {
            (Some(g), _) => format!("only:{g}"),
            (None, Some(g)) => format!("all-but:{g}"),
            (None, None) => "all".to_string(),
        };
        if let Some(s) = self.shards {
            key.push_str(&format!(":shards:{}-{}/{}", s.first, s.last, s.count));
        }
        key
    }
}

fn conflict_or(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(db) = &e {
        if db.is_unique_violation() {
            return StoreError::Conflict(db.message().to_string());
        }
    }
    // Through `From`, as every other failed statement, so a broken connection is noted.
    e.into()
}

type Shared<T> = std::result::Result<T, Arc<sqlx::Error>>;

/// The database. On SQLite: one writing connection (see `writer`) and a reader pool, with moves
/// and game reads grouped under load (see `batch`). On PostgreSQL: a set of writing connections,
/// several writes at once, with moves grouped under load and a few groups written at once (see
/// `moves`), and a reader pool.
#[derive(Clone)]
pub struct Store {
    read: Watched<AnyPool>,
    write: Writer,
    /// The queue of moves (see `moves`).
    moves: Batcher<MoveWrite, Shared<bool>>,
    backend: Backend,
    cache: GameCache,
    /// The checkpointer runs while any clone of this store is alive.
    _alive: Arc<()>,
}

/// What one backend needs beside the pools.
#[derive(Clone)]
enum Backend {
    Sqlite {
        checkpoint: AnyPool,
        games: Batcher<GameId, Shared<Option<GameRow>>>,
    },
    Postgres,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("read", self.read.get())
            .field("write", &self.write)
            .finish()
    }
}

/// At most this many requests share one statement.
const BATCH: usize = 64;

/// How often the background task checkpoints SQLite's WAL into the database file.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// The connections a process keeps to PostgreSQL for writes (each write holds one for its
/// statement or transaction) and for reads: at most [`POSTGRES_CONNECTIONS`] in all.
pub const POSTGRES_WRITERS: u32 = 16;
pub const POSTGRES_READERS: u32 = 4;
pub const POSTGRES_CONNECTIONS: u32 = POSTGRES_WRITERS + POSTGRES_READERS;

/// How long a request waits for a PostgreSQL connection (or for one to open) before it fails:
/// seconds, not sqlx's half minute, so a member hears of a database that does not answer, and a
/// shard lease's renewal is tried again well within the lease.
const POSTGRES_WAIT: Duration = Duration::from_secs(5);

fn spawn_checkpointer(pool: AnyPool, alive: std::sync::Weak<()>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if alive.upgrade().is_none() || pool.is_closed() {
                break;
            }
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&pool)
                .await
            {
                tracing::warn!(error = %e, "checkpoint failed; will try again");
            }
        }
        pool.close().await;
    });
}

/// How many times opening and migrating are tried before their error is final.
const MIGRATION_ATTEMPTS: u32 = 20;

/// Applies SQLite's migrations not applied yet. Each one is a transaction of its own, recorded in
/// the same transaction, so two processes starting at once on a fresh file cannot apply one
/// twice: the one that loses the race has its transaction rolled back (`table already exists`,
/// or the lock still held), and tries again, finding that migration done. A migration that fails
/// again other than on the lock was not raced (the file holds another program's tables, say):
/// that error is final at once.
async fn migrate_sqlite(conn: &mut AnyConnection) -> Result<()> {
    let migrator = sqlx::migrate!("./migrations/sqlite");
    let mut attempt = 1;
    let mut failed = None;
    loop {
        match migrator.run(&mut *conn).await {
            Ok(()) => return Ok(()),
            Err(e) if attempt < MIGRATION_ATTEMPTS && raced(&e) && !failed_again(&e, failed) => {
                if let sqlx::migrate::MigrateError::ExecuteMigration(_, version) = &e {
                    failed = Some(*version);
                }
                tracing::debug!(error = %e, attempt, "migrations raced another process; trying again");
                tokio::time::sleep(Duration::from_millis(50 * u64::from(attempt))).await;
                attempt += 1;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Opens SQLite's writing connection. On a fresh file, switching it to WAL needs the file to
/// itself, and SQLite answers `SQLITE_BUSY` at once (without waiting out the busy timeout) when
/// another process is opening it at the same moment; the switch is tried again until the other
/// is done.
async fn connect_writer(options: &AnyConnectOptions) -> Result<AnyConnection> {
    let mut attempt = 1;
    loop {
        let opened = async {
            let mut conn = AnyConnection::connect_with(options).await?;
            sqlx::raw_sql(SQLITE_WRITER_SETUP)
                .execute(&mut conn)
                .await?;
            sqlx::raw_sql(SQLITE_SETUP).execute(&mut conn).await?;
            Ok::<_, sqlx::Error>(conn)
        };
        match opened.await {
            Ok(conn) => return Ok(conn),
            Err(e) if attempt < MIGRATION_ATTEMPTS && is_busy(&e) => {
                tracing::debug!(error = %e, attempt, "database busy while opening; trying again");
                tokio::time::sleep(Duration::from_millis(50 * u64::from(attempt))).await;
                attempt += 1;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Every SQLite connection: foreign keys on, a 5 s busy timeout, `synchronous = NORMAL` (in WAL
/// mode a committed transaction survives the process being killed; only a power cut can take the
/// last commits back).
const SQLITE_SETUP: &str =
    "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;";

/// The writing connection, before [`SQLITE_SETUP`]: WAL, and no checkpoint inside a commit.
const SQLITE_WRITER_SETUP: &str = "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;";

/// A pool of SQLite connections set up as [`SQLITE_SETUP`] says.
async fn sqlite_pool(options: &SqliteConnectOptions, size: u32) -> Result<AnyPool> {
    Ok(AnyPoolOptions::new()
        .max_connections(size)
        // A pooled SQLite connection is a file handle, not a socket: nothing to ping on acquire.
        .test_before_acquire(false)
        .after_connect(|conn, _| {
            Box::pin(async move {
                sqlx::raw_sql(SQLITE_SETUP).execute(conn).await?;
                Ok(())
            })
        })
        .connect_with(AnyConnectOptions::from_url(&options.to_url_lossy())?)
        .await?)
}

/// `SQLITE_BUSY`, or one of its extended codes.
fn is_busy(e: &sqlx::Error) -> bool {
    let sqlx::Error::Database(db) = e else {
        return false;
    };
    db.code()
        .and_then(|code| code.parse::<i32>().ok())
        .is_some_and(|code| code & 0xff == 5)
}

/// Whether a migration failed the way a concurrent migration makes it fail.
fn raced(e: &sqlx::migrate::MigrateError) -> bool {
    use sqlx::migrate::MigrateError;
    matches!(
        e,
        MigrateError::Execute(sqlx::Error::Database(_))
            | MigrateError::ExecuteMigration(sqlx::Error::Database(_), _)
    )
}

/// Whether migration `failed` (the one that failed last time) failed again, other than on the
/// database's lock.
fn failed_again(e: &sqlx::migrate::MigrateError, failed: Option<i64>) -> bool {
    matches!(e, sqlx::migrate::MigrateError::ExecuteMigration(err, version)
        if Some(*version) == failed && !is_busy(err))
}

/// Where a PostgreSQL URL points, without its user and password: `host:port/database`.
fn where_is(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => format!(
            "{}:{}{}",
            u.host_str().unwrap_or("?"),
            u.port().unwrap_or(5432),
            u.path()
        ),
        Err(_) => "the DATABASE_URL given".to_string(),
    }
}

/// Why PostgreSQL refused a connection, in its own words (the server's message, without sqlx's
/// wrapping), or what else went wrong.
fn refusal(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Database(db) => db.message().to_string(),
        other => other.to_string(),
    }
}

/// Whether `url` names a PostgreSQL database (`postgres://…` or `postgresql://…`); anything else
/// is read as SQLite's.
pub fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

impl Store {
    /// Opens the database at `url` and applies the migrations: `postgres://…` for PostgreSQL,
    /// otherwise SQLite, such as `sqlite://breakthrough.db` (created if missing).
    pub async fn open(url: &str) -> Result<Store> {
        sqlx::any::install_default_drivers();
        if is_postgres(url) {
            Store::open_postgres(url).await
        } else {
            Store::open_sqlite(url).await
        }
    }

    /// SQLite: WAL, foreign keys on, 5 s busy timeout, `synchronous = NORMAL`.
    ///
    /// The writer never checkpoints (a checkpoint inside a commit stalls every write queued
    /// behind it); a background task on a connection of its own runs passive checkpoints, which
    /// go on beside the writer, every [`CHECKPOINT_EVERY`].
    async fn open_sqlite(url: &str) -> Result<Store> {
        let options = SqliteConnectOptions::from_str(url)?.create_if_missing(true);
        let mut write =
            connect_writer(&AnyConnectOptions::from_url(&options.to_url_lossy())?).await?;
        migrate_sqlite(&mut write).await?;
        // Nothing reads SQLite's count of faults: its one writer is never checked before use.
        let faults = Arc::new(Faults::default());
        let write = Writer::single(Watched::new(write, Arc::clone(&faults)));
        let checkpoint = sqlite_pool(&options, 1).await?;
        let read =
            sqlite_pool(&options.clone().create_if_missing(false).read_only(true), 4).await?;
        let read = Watched::new(read, faults);
        let alive = Arc::new(());
        spawn_checkpointer(checkpoint.clone(), Arc::downgrade(&alive));
        let cache = GameCache::default();
        let moves = {
            let (write, cache) = (write.clone(), cache.clone());
            // One group at a time: SQLite has one writer.
            Batcher::spawn(BATCH, 1, move |batch| {
                apply_moves(Dialect::Sqlite, write.clone(), cache.clone(), batch)
            })
        };
        let games = {
            let read = read.clone();
            Batcher::spawn(BATCH, 1, move |ids| games_by_id(read.clone(), ids))
        };
        Ok(Store {
            read,
            write,
            moves,
            backend: Backend::Sqlite { checkpoint, games },
            cache,
            _alive: alive,
        })
    }

    /// PostgreSQL: [`POSTGRES_WRITERS`] connections for writes (`writer::ConnSet`) and a pool of
    /// [`POSTGRES_READERS`] for reads, all opened before it returns: a server without room for
    /// them all says so now, not under load, and the first moves after a start do not wait for
    /// connections to open. Two processes starting at once apply the migrations once: sqlx's
    /// migrator holds an advisory lock while it runs.
    async fn open_postgres(url: &str) -> Result<Store> {
        // One connection first, so that a server that cannot be reached or refuses says why
        // (the pool would only say it timed out). It becomes the first writer.
        let options = AnyConnectOptions::from_str(url)?;
        let mut first = AnyConnection::connect_with(&options)
            .await
            .map_err(|source| StoreError::Unreachable {
                at: where_is(url),
                source,
            })?;
        sqlx::migrate!("./migrations/postgres")
            .run(&mut first)
            .await?;
        let read = AnyPoolOptions::new()
            .max_connections(POSTGRES_READERS)
            .min_connections(POSTGRES_READERS)
            // A ping before each read: reads are few beside the writes (the game cache answers
            // most), and a connection the server dropped is replaced rather than failing a
            // member's request.
            .test_before_acquire(true)
            .acquire_timeout(POSTGRES_WAIT)
            .connect_lazy_with(options.clone());
        let faults = Arc::new(Faults::default());
        let first = Watched::new(first, Arc::clone(&faults));
        let write = Writer::set(options, first, POSTGRES_WRITERS, POSTGRES_WAIT);
        let (writers, refused) = write.open_all().await;
        // Every reader taken at once, so that each opens, then given back to the pool.
        let (readers, unread) = writer::all_at_once((0..POSTGRES_READERS).map(|_| {
            let read = read.clone();
            async move { read.acquire().await }
        }))
        .await;
        let opened = writers + readers.len() as u32;
        drop(readers);
        if let Some(source) = refused.or(unread) {
            write.close().await;
            read.close().await;
            return Err(StoreError::TooFewConnections {
                at: where_is(url),
                opened,
                wanted: POSTGRES_CONNECTIONS,
                source,
            });
        }
        let read = Watched::new(read, faults);
        let cache = GameCache::default();
        let moves = {
            let (write, cache) = (write.clone(), cache.clone());
            Batcher::spawn(BATCH, POSTGRES_GROUPS_IN_FLIGHT, move |batch| {
                apply_moves(Dialect::Postgres, write.clone(), cache.clone(), batch)
            })
        };
        Ok(Store {
            read,
            write,
            moves,
            backend: Backend::Postgres,
            cache,
            _alive: Arc::new(()),
        })
    }

    /// Which database this is: `sqlite` or `postgres`.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite { .. } => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// Caps a SQLite database at `pages` pages (at least its present size) and returns the cap in
    /// force: beyond it every write fails as on a full disk. For testing what a full disk does;
    /// a large number lifts the cap again. PostgreSQL has no such cap: `None`.
    pub async fn limit_size(&self, pages: u64) -> Result<Option<u64>> {
        if matches!(self.backend, Backend::Postgres) {
            return Ok(None);
        }
        let mut held = self.write.lock().await?;
        let pages = i64::try_from(pages).unwrap_or(i64::MAX);
        // A pragma takes no bound parameters; the number is formatted from an integer.
        let sql = format!("PRAGMA max_page_count = {pages}");
        let cap: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(held.conn())
            .await?;
        Ok(Some(u64::try_from(cap).unwrap_or(0)))
    }

    /// PostgreSQL: refreshes the statistics its planner works from (`ANALYZE`), as its autovacuum
    /// does by itself once a tenth of a table changed. SQLite: nothing (the bot leaves SQLite's
    /// planner to its defaults).
    pub async fn analyze(&self) -> Result<()> {
        if let Backend::Postgres = self.backend {
            let mut held = self.write.lock().await?;
            sqlx::query("ANALYZE").execute(held.conn()).await?;
        }
        Ok(())
    }

    /// Closes the pools, waiting for work in flight.
    pub async fn close(&self) {
        self.write.close().await;
        self.read.get().close().await;
        if let Backend::Sqlite { checkpoint, .. } = &self.backend {
            checkpoint.close().await;
        }
    }

    /// Starts a write transaction.
    pub async fn begin(&self) -> Result<WriteTx> {
        Ok(WriteTx {
            tx: self.write.begin().await?,
            cache: self.cache.clone(),
            touched: Touched::Nothing,
        })
    }
}

/// `SQLITE_CONSTRAINT_TRIGGER`, as sqlx-sqlite's `code()` gives it (the extended result code, in
/// decimal): a trigger's `RAISE(ABORT, …)` refused the statement.
const CONSTRAINT_TRIGGER: &str = "1811";

/// PostgreSQL's `raise_exception`: a trigger's `RAISE EXCEPTION` refused the statement.
const RAISE_EXCEPTION: &str = "P0001";

/// Whether a write was refused by one of the triggers' checks (migrations 0003 and 0004), told
/// by its result code rather than by its message. Which check it was, where a statement meets
/// more than one, the caller finds out by reading the row again.
fn refused_by_trigger(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db)
        if matches!(db.code().as_deref(), Some(CONSTRAINT_TRIGGER | RAISE_EXCEPTION)))
}

/// A write transaction. Dropped without [`WriteTx::commit`], it rolls back.
pub struct WriteTx {
    tx: writer::Tx,
    cache: GameCache,
    /// The games the cache must forget once this commits.
    touched: Touched,
}

impl WriteTx {
    pub async fn commit(self) -> Result<()> {
        let done = self.tx.commit().await;
        self.cache.drop_touched(&self.touched);
        Ok(done?)
    }
}
