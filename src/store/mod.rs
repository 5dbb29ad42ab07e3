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
//! `outbox`, `puzzles`, `settings`, `threads`, `tournaments`, `vacations`. This file opens the
//! database and holds what they share; beside it, `error` what the store fails with, `servers`
//! which servers a process looks after, `sqlite` how a SQLite file is opened, `instance` the
//! one-process-per-database (or per-shard) lock files on SQLite, `leases` the shard leases on
//! PostgreSQL, `writer` and `batch` SQLite's one writing connection (PostgreSQL's set of them)
//! and the queues that group moves into statements, `cache` the active games kept in memory,
//! `rows` the rows as their types, `codec` each type as a column, `sql` statements built in
//! parts (the filter by servers and shards), and `statements` the register of every statement,
//! each written `statement!("…")` where it is used, which a test prepares on both databases.
//!
//! Every column is read and written as its domain type (`crate::domain`, `rules::Color`,
//! `rules::BoardSize`, …): `codec` says how, once for each type. A stored value that does not
//! read back as its type fails the query like any other decode error.

mod batch;
mod cache;
mod codec;
mod error;
mod instance;
mod rows;
mod servers;
mod sql;
mod sqlite;
pub mod statements;
mod writer;

use statements::statement;

/// Games with their players' names in the game's server.
macro_rules! game_select {
    ($where:literal) => {
        concat!(
            "SELECT g.*,
                    COALESCE(bn.name, 'member ' || g.black_id) AS black_name,
                    COALESCE(wn.name, 'member ' || g.white_id) AS white_name,
                    b.is_bot AS black_is_bot, w.is_bot AS white_is_bot,
                    CASE WHEN EXISTS (SELECT 1 FROM teams t
                                      WHERE t.game_id = g.id AND t.color = 'black')
                         THEN 1 ELSE 0 END AS black_is_team,
                    CASE WHEN EXISTS (SELECT 1 FROM teams t
                                      WHERE t.game_id = g.id AND t.color = 'white')
                         THEN 1 ELSE 0 END AS white_is_team,
                    (SELECT max(ends_at) FROM vacations WHERE member_id = g.black_id)
                        AS black_away_until,
                    (SELECT max(ends_at) FROM vacations WHERE member_id = g.white_id)
                        AS white_away_until,
                    COALESCE((SELECT notify_dm FROM member_settings WHERE member_id = g.black_id), 0)
                        AS black_notify_dm,
                    COALESCE((SELECT notify_dm FROM member_settings WHERE member_id = g.white_id), 0)
                        AS white_notify_dm,
                    (SELECT t.name FROM tournaments t WHERE t.id = g.tournament_id)
                        AS tournament_name
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
mod puzzles;
mod ratings;
mod settings;
mod teams;
mod threads;
mod tournaments;
mod vacations;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyConnection, AnyPool};
use sqlx::{ConnectOptions, Connection};

use crate::domain::GameId;

use batch::Batcher;
use cache::{GameCache, Touched};
use sql::Sql;
use writer::{Faults, Watched, Writer};

#[cfg(feature = "test-support")]
pub use cache::MAX_AGE as CACHE_MAX_AGE;
#[cfg(feature = "test-support")]
pub use challenges::ChallengesTo;
use error::{conflict_or, refused_by_trigger};
pub use error::{Result, StoreError, Unique};
use games::games_by_id;
pub use games::{Ended, GameEnding, RatedEnding};
pub use instance::InstanceLock;
pub use leases::{holder_name, LEASE};
use moves::{apply_moves, Dialect};
pub use moves::{MoveWrite, POSTGRES_GROUPS_IN_FLIGHT};
use outbox::insert_outbox;
pub use outbox::OutboxBell;
pub use puzzles::{NewAttempt, NewPuzzle, ProgressRow, PuzzlePlayerRow, PuzzleRow};
#[cfg(feature = "test-support")]
pub use rows::PlayerRow;
pub use rows::{
    ChallengeRow, GameRow, MoveRow, NewChallenge, NewGame, NewOutbox, OutboxRow, RatingChangeRow,
    RatingRow, ReminderRow, ResultRow,
};
pub use servers::Servers;
pub use sqlite::backup;
use sqlite::{connect_writer, migrate_sqlite, spawn_checkpointer, sqlite_pool};
pub use teams::{VoteCast, VoteRow};
pub use tournaments::{NewTournament, TournamentRead, TournamentRow};

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
    bell: OutboxBell,
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
            bell: OutboxBell::default(),
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
            bell: OutboxBell::default(),
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
    #[cfg(feature = "test-support")]
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
            sqlx::query(statement!("ANALYZE"))
                .execute(held.conn())
                .await?;
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
            bell: self.bell.clone(),
            queued: false,
        })
    }
}

/// A write transaction. Dropped without [`WriteTx::commit`], it rolls back.
pub struct WriteTx {
    tx: writer::Tx,
    cache: GameCache,
    /// The games the cache must forget once this commits.
    touched: Touched,
    bell: OutboxBell,
    /// Whether it queued announcements: the bell rings once it commits.
    queued: bool,
}

impl WriteTx {
    pub async fn commit(self) -> Result<()> {
        let done = self.tx.commit().await;
        self.cache.drop_touched(&self.touched);
        done?;
        if self.queued {
            self.bell.ring();
        }
        Ok(())
    }
}
