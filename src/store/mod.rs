//! SQLite through sqlx: the pools, the migrations, and one function per query. The only place with
//! SQL; nothing above it knows a table name.
//!
//! Writes go through one connection, taken in turn (see `writer`), so the process's own writers
//! queue fairly instead of sleeping in SQLite's busy handler; reads use a pool of their own (WAL
//! lets them run beside the writer). Every write transaction starts with `BEGIN IMMEDIATE`, so
//! another process on the same file (the console beside the bot) waits for the lock up front
//! rather than failing mid-way.
//!
//! Discord ids are `u64`; SQLite integers are `i64`. They cross here, and only here, by
//! [`to_db`] and [`from_db`], a bit-for-bit cast.

mod batch;
mod cache;
mod instance;
mod rows;
mod writer;

/// Games with their players' names in the game's server.
macro_rules! game_select {
    ($where:literal) => {
        concat!(
            "SELECT g.*,
                    COALESCE(bn.name, 'member ' || g.black_id) AS black_name,
                    COALESCE(wn.name, 'member ' || g.white_id) AS white_name,
                    b.is_bot AS black_is_bot, w.is_bot AS white_is_bot FROM games g
             JOIN members b ON b.id = g.black_id JOIN members w ON w.id = g.white_id
             LEFT JOIN member_names bn ON bn.guild_id = g.guild_id AND bn.member_id = g.black_id
             LEFT JOIN member_names wn ON wn.guild_id = g.guild_id AND wn.member_id = g.white_id ",
            $where
        )
    };
}

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use sqlx::sqlite::{
    Sqlite, SqliteArguments, SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool,
    SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{ConnectOptions, Row};

use batch::Batcher;
use cache::{GameCache, Touched};
use writer::Writer;

pub use instance::InstanceLock;
pub use rows::{
    ChallengeRow, GameRow, MoveRow, NewChallenge, NewGame, NewOutbox, OutboxRow, RatingChangeRow,
    RatingRow, ReminderRow, ResultRow,
};

/// What the store can fail with.
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
    Batch(Arc<sqlx::Error>),
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
    /// The lock file beside the database could not be used.
    #[error("cannot use the lock file {path}: {error}", path = .0.display(), error = .1)]
    Lock(std::path::PathBuf, std::io::Error),
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
        // SQLITE_FULL.
        matches!(e, sqlx::Error::Database(db) if db.code().as_deref() == Some("13"))
    }
}

/// A Discord id as stored.
pub const fn to_db(id: u64) -> i64 {
    id as i64
}

/// A stored id back as a Discord id.
pub const fn from_db(id: i64) -> u64 {
    id as u64
}

/// The servers whose games and challenges a sweep, or the AI's turn, looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Servers {
    #[default]
    All,
    Only(u64),
    AllBut(u64),
}

impl Servers {
    /// The one server looked at, as a query parameter (`NULL`: no such limit).
    fn only(self) -> Option<i64> {
        match self {
            Servers::Only(g) => Some(to_db(g)),
            _ => None,
        }
    }

    /// The one server left out, as a query parameter (`NULL`: none).
    fn left_out(self) -> Option<i64> {
        match self {
            Servers::AllBut(g) => Some(to_db(g)),
            _ => None,
        }
    }

    /// The name under which the process looking after these servers records that it is alive.
    fn key(self) -> String {
        match self {
            Servers::All => "all".to_string(),
            Servers::Only(g) => format!("only:{g}"),
            Servers::AllBut(g) => format!("all-but:{g}"),
        }
    }
}

pub(crate) fn id_of(row: &SqliteRow, column: &str) -> sqlx::Result<u64> {
    Ok(from_db(row.try_get::<i64, _>(column)?))
}

fn conflict_or(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(db) = &e {
        if db.is_unique_violation() {
            return StoreError::Conflict(db.message().to_string());
        }
    }
    StoreError::Sqlx(e)
}

type Shared<T> = std::result::Result<T, Arc<sqlx::Error>>;

/// The database: one writing connection (see `writer`) and a reader pool, with moves and game
/// reads grouped under load (see `batch`).
#[derive(Clone)]
pub struct Store {
    read: SqlitePool,
    write: Writer,
    checkpoint: SqlitePool,
    moves: Batcher<MoveWrite, Shared<bool>>,
    games: Batcher<i64, Shared<Option<GameRow>>>,
    cache: GameCache,
    /// The checkpointer runs while any clone of this store is alive.
    _alive: Arc<()>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("read", &self.read)
            .field("write", &self.write)
            .finish()
    }
}

/// At most this many requests share one statement.
const BATCH: usize = 64;

/// How often the background task checkpoints the WAL into the database file.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

fn spawn_checkpointer(pool: SqlitePool, alive: std::sync::Weak<()>) {
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

/// Applies the migrations not applied yet. Each one is a transaction of its own, recorded in the
/// same transaction, so two processes starting at once on a fresh file cannot apply one twice:
/// the one that loses the race has its transaction rolled back (`table already exists`, or the
/// lock still held), and tries again, finding that migration done.
async fn migrate(conn: &mut SqliteConnection) -> Result<()> {
    let migrator = sqlx::migrate!("./migrations");
    let mut attempt = 1;
    loop {
        match migrator.run(&mut *conn).await {
            Ok(()) => return Ok(()),
            Err(e) if attempt < MIGRATION_ATTEMPTS && raced(&e) => {
                tracing::debug!(error = %e, attempt, "migrations raced another process; trying again");
                tokio::time::sleep(Duration::from_millis(50 * u64::from(attempt))).await;
                attempt += 1;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Opens the writing connection. On a fresh file, switching it to WAL needs the file to itself,
/// and SQLite answers `SQLITE_BUSY` at once (without waiting out the busy timeout) when another
/// process is opening it at the same moment; the switch is tried again until the other is done.
async fn connect_writer(options: SqliteConnectOptions) -> Result<SqliteConnection> {
    let mut attempt = 1;
    loop {
        match options.connect().await {
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

impl Store {
    /// Opens (creating if missing) the database at `url`, such as `sqlite://breakthrough.db`, and
    /// applies the migrations. WAL, foreign keys on, 5 s busy timeout, `synchronous = NORMAL`:
    /// a committed transaction survives the process being killed (it is in the WAL before
    /// `COMMIT` returns); only a power cut can take the last commits back.
    ///
    /// The writer never checkpoints (a checkpoint inside a commit stalls every write queued
    /// behind it); a background task on a connection of its own runs passive checkpoints, which
    /// go on beside the writer, every [`CHECKPOINT_EVERY`].
    pub async fn open(url: &str) -> Result<Store> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let mut write = connect_writer(options.clone().pragma("wal_autocheckpoint", "0")).await?;
        migrate(&mut write).await?;
        let write = Writer::new(write);
        let checkpoint = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await?;
        // A pooled SQLite connection is a file handle, not a socket: nothing to ping on acquire.
        let read = SqlitePoolOptions::new()
            .max_connections(4)
            .test_before_acquire(false)
            .connect_with(options.read_only(true))
            .await?;
        let alive = Arc::new(());
        spawn_checkpointer(checkpoint.clone(), Arc::downgrade(&alive));
        let cache = GameCache::default();
        let moves = {
            let (write, cache) = (write.clone(), cache.clone());
            Batcher::spawn(BATCH, move |batch| {
                apply_moves(write.clone(), cache.clone(), batch)
            })
        };
        let games = {
            let read = read.clone();
            Batcher::spawn(BATCH, move |ids| games_by_id(read.clone(), ids))
        };
        Ok(Store {
            read,
            write,
            checkpoint,
            moves,
            games,
            cache,
            _alive: alive,
        })
    }

    /// Caps the database at `pages` pages (at least its present size) and returns the cap in
    /// force: beyond it every write fails as on a full disk. For testing what a full disk does;
    /// a large number lifts the cap again.
    pub async fn limit_size(&self, pages: u64) -> Result<u64> {
        let mut held = self.write.lock().await?;
        let pages = i64::try_from(pages).unwrap_or(i64::MAX);
        // A pragma takes no bound parameters; the number is formatted from an integer.
        let sql = format!("PRAGMA max_page_count = {pages}");
        let cap: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(&mut held.conn)
            .await?;
        Ok(u64::try_from(cap).unwrap_or(0))
    }

    /// Closes the pools, waiting for work in flight.
    pub async fn close(&self) {
        self.write.close().await;
        self.read.close().await;
        self.checkpoint.close().await;
    }

    /// Starts a write transaction.
    pub async fn begin(&self) -> Result<WriteTx> {
        Ok(WriteTx {
            tx: self.write.begin().await?,
            cache: self.cache.clone(),
            touched: Touched::Nothing,
        })
    }

    /// Records the move of ply `m.ply` if the game is still active at that ply: the concurrency
    /// check. False (and nothing written) when another move got there first. Moves queued
    /// together are written by one statement, atomic on its own; the `moves` rows are written by
    /// the `games_record_move` trigger.
    pub async fn apply_move(&self, m: MoveWrite) -> Result<bool> {
        match self.moves.call(m).await {
            Some(answer) => answer.map_err(StoreError::Batch),
            None => Err(StoreError::Sqlx(sqlx::Error::PoolClosed)),
        }
    }

    /// A member's name as last seen in a server (0: direct messages).
    pub async fn member_name(&self, guild: u64, id: u64) -> Result<Option<String>> {
        Ok(
            sqlx::query_scalar(
                "SELECT name FROM member_names WHERE guild_id = ? AND member_id = ?",
            )
            .bind(to_db(guild))
            .bind(to_db(id))
            .fetch_optional(&self.read)
            .await?,
        )
    }

    pub async fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>> {
        Ok(sqlx::query_as(CHALLENGE_SELECT_BY_ID)
            .bind(id)
            .fetch_optional(&self.read)
            .await?)
    }

    /// Pending challenges `member` may answer in a channel: those aimed at them in the server,
    /// and open ones in the channel from someone else. Oldest first.
    pub async fn challenges_for(
        &self,
        guild: u64,
        channel: u64,
        member: u64,
    ) -> Result<Vec<ChallengeRow>> {
        Ok(sqlx::query_as(
            "SELECT * FROM challenges WHERE state = 'pending' AND guild_id = ?1
               AND (opponent_id = ?3 OR (opponent_id IS NULL AND channel_id = ?2 AND challenger_id <> ?3))
             ORDER BY id",
        )
        .bind(to_db(guild))
        .bind(to_db(channel))
        .bind(to_db(member))
        .fetch_all(&self.read)
        .await?)
    }

    /// Pending challenges `member` made in a server. Oldest first.
    pub async fn challenges_by(&self, guild: u64, member: u64) -> Result<Vec<ChallengeRow>> {
        Ok(sqlx::query_as(
            "SELECT * FROM challenges WHERE state = 'pending' AND guild_id = ? AND challenger_id = ?
             ORDER BY id",
        )
        .bind(to_db(guild))
        .bind(to_db(member))
        .fetch_all(&self.read)
        .await?)
    }

    /// A game, from the cache of active games when it is there (see `cache`).
    pub async fn game(&self, id: i64) -> Result<Option<GameRow>> {
        let generation = match self.cache.get(id) {
            Ok(row) => return Ok(Some(row)),
            Err(generation) => generation,
        };
        let row = match self.games.call(id).await {
            Some(answer) => answer.map_err(StoreError::Batch)?,
            None => return Err(StoreError::Sqlx(sqlx::Error::PoolClosed)),
        };
        if let Some(row) = &row {
            self.cache.fill(generation, row);
        }
        Ok(row)
    }

    /// Active games of a member, in a server when `guild` is given, in a channel when `channel`
    /// is given. Oldest first.
    pub async fn active_games(
        &self,
        member: u64,
        guild: Option<u64>,
        channel: Option<u64>,
    ) -> Result<Vec<GameRow>> {
        Ok(sqlx::query_as(game_select!(
            "WHERE g.state = 'active' AND (g.black_id = ?1 OR g.white_id = ?1)
                   AND (?2 IS NULL OR g.guild_id = ?2) AND (?3 IS NULL OR g.channel_id = ?3)
                 ORDER BY g.id"
        ))
        .bind(to_db(member))
        .bind(guild.map(to_db))
        .bind(channel.map(to_db))
        .fetch_all(&self.read)
        .await?)
    }

    /// Active games against the AI where the AI is to move and has been since `turn_began_by`
    /// or earlier (its turn began when its deadline was set: `deadline - time_limit`), in
    /// `servers`. Oldest first. Black moves at even plies, White at odd ones.
    pub async fn ai_games_to_move(&self, turn_began_by: i64, servers: Servers) -> Result<Vec<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT g.id FROM games g
             JOIN members b ON b.id = g.black_id JOIN members w ON w.id = g.white_id
             WHERE g.state = 'active' AND g.ai_level IS NOT NULL
               AND ((g.ply % 2 = 0 AND b.is_bot = 1) OR (g.ply % 2 = 1 AND w.is_bot = 1))
               AND g.deadline - g.time_limit <= ?1
               AND (?2 IS NULL OR g.guild_id = ?2) AND (?3 IS NULL OR g.guild_id <> ?3)
             ORDER BY g.id",
        )
        .bind(turn_began_by)
        .bind(servers.only())
        .bind(servers.left_out())
        .fetch_all(&self.read)
        .await?)
    }

    pub async fn moves(&self, game: i64) -> Result<Vec<MoveRow>> {
        Ok(
            sqlx::query_as("SELECT * FROM moves WHERE game_id = ? ORDER BY ply")
                .bind(game)
                .fetch_all(&self.read)
                .await?,
        )
    }

    pub async fn rating(&self, guild: u64, member: u64, size: &str) -> Result<Option<RatingRow>> {
        Ok(sqlx::query_as(
            "SELECT * FROM ratings WHERE guild_id = ? AND member_id = ? AND size = ?",
        )
        .bind(to_db(guild))
        .bind(to_db(member))
        .bind(size)
        .fetch_optional(&self.read)
        .await?)
    }

    /// Every rating on one board of a server, best first, with the member's name.
    pub async fn board_ratings(&self, guild: u64, size: &str) -> Result<Vec<(RatingRow, String)>> {
        let rows = sqlx::query(
            "SELECT r.*, COALESCE(n.name, 'member ' || r.member_id) AS name FROM ratings r
             LEFT JOIN member_names n ON n.guild_id = r.guild_id AND n.member_id = r.member_id
             WHERE r.guild_id = ? AND r.size = ? ORDER BY r.rating DESC, r.member_id",
        )
        .bind(to_db(guild))
        .bind(size)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    <RatingRow as sqlx::FromRow<SqliteRow>>::from_row(row)?,
                    row.try_get("name")?,
                ))
            })
            .collect::<sqlx::Result<_>>()
            .map_err(StoreError::from)
    }

    /// The latest finished rated games of a member on one board of a server, newest first.
    pub async fn recent_results(
        &self,
        guild: u64,
        member: u64,
        size: &str,
        limit: i64,
    ) -> Result<Vec<ResultRow>> {
        Ok(sqlx::query_as(
            "SELECT g.id, g.black_id, g.white_id, g.winner, g.end_reason, g.finished_at,
                    CASE WHEN g.black_id = ?2 THEN rc.black_rating_after - rc.black_rating
                         ELSE rc.white_rating_after - rc.white_rating END AS change
             FROM games g JOIN rating_changes rc ON rc.game_id = g.id
             WHERE g.guild_id = ?1 AND g.size = ?3 AND g.state = 'finished'
               AND (g.black_id = ?2 OR g.white_id = ?2)
             ORDER BY g.finished_at DESC, g.id DESC LIMIT ?4",
        )
        .bind(to_db(guild))
        .bind(to_db(member))
        .bind(size)
        .bind(limit)
        .fetch_all(&self.read)
        .await?)
    }

    /// The ratings of two members on one board of a server (each `None` if unrated).
    pub async fn rating_pair(
        &self,
        guild: u64,
        size: &str,
        a: u64,
        b: u64,
    ) -> Result<(Option<RatingRow>, Option<RatingRow>)> {
        let rows: Vec<RatingRow> = sqlx::query_as(
            "SELECT * FROM ratings WHERE guild_id = ? AND size = ? AND member_id IN (?, ?)",
        )
        .bind(to_db(guild))
        .bind(size)
        .bind(to_db(a))
        .bind(to_db(b))
        .fetch_all(&self.read)
        .await?;
        let find = |id: u64| rows.iter().find(|r| r.member_id == id).cloned();
        Ok((find(a), find(b)))
    }

    /// Active games in `servers` whose side to move has run out of time.
    pub async fn overdue_games(&self, now: i64, servers: Servers) -> Result<Vec<GameRow>> {
        Ok(sqlx::query_as(game_select!(
            "WHERE g.state = 'active' AND g.deadline <= ?1
               AND (?2 IS NULL OR g.guild_id = ?2) AND (?3 IS NULL OR g.guild_id <> ?3)
             ORDER BY g.deadline, g.id"
        ))
        .bind(now)
        .bind(servers.only())
        .bind(servers.left_out())
        .fetch_all(&self.read)
        .await?)
    }

    /// Ends a game in one statement (the `game_endings` trigger): the move that ended it if there
    /// is one, the result, and for a rated result both ratings and their before/after. Nothing
    /// is written when the game or a rating is no longer as the caller read it; the answer says
    /// which. With an announcement, the statement and the announcement's outbox row are one
    /// write transaction.
    pub async fn end_game(&self, e: &GameEnding) -> Result<Ended> {
        let r = e.rated.as_ref();
        let triple = |pick: fn(&RatedEnding) -> (f64, f64, f64)| r.map(pick);
        let [bb, wb, ba, wa] = [
            triple(|r| r.change.black_before),
            triple(|r| r.change.white_before),
            triple(|r| r.change.black_after),
            triple(|r| r.change.white_after),
        ];
        let mut q = sqlx::query(
            "INSERT INTO game_endings VALUES
                 (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(e.game)
        .bind(e.ply)
        .bind(e.last_move.as_ref().map(|(_, position)| position))
        .bind(e.last_move.as_ref().map(|(notation, _)| notation))
        .bind(e.now)
        .bind(e.winner)
        .bind(e.reason)
        .bind(r.is_some())
        .bind(r.and_then(|r| r.black_games))
        .bind(r.and_then(|r| r.white_games));
        for t in [bb, wb, ba, wa] {
            q = q
                .bind(t.map(|t| t.0))
                .bind(t.map(|t| t.1))
                .bind(t.map(|t| t.2));
        }
        let done = match &e.announce {
            None => {
                let mut held = self.write.lock().await?;
                q.execute(&mut held.conn).await.map(drop)
            }
            // With its announcement: both or neither. A refused ending rolls the transaction
            // back when `tx` is dropped.
            Some(row) => {
                let mut tx = self.write.begin().await?;
                match q.execute(tx.conn()).await {
                    Ok(_) => {
                        insert_outbox(tx.conn(), row).await?;
                        tx.commit().await
                    }
                    Err(e) => Err(e),
                }
            }
        };
        // Whatever happened, the cached row is no longer to be trusted.
        self.cache.forget(e.game);
        match done {
            Ok(_) => Ok(Ended::Done),
            Err(e) if refused(&e, GAME_MOVED_ON) => Ok(Ended::GameMovedOn),
            Err(e) if refused(&e, RATINGS_MOVED_ON) => Ok(Ended::RatingsMovedOn),
            Err(e) => Err(conflict_or(e)),
        }
    }

    /// Records a move like [`Store::apply_move`], and queues its announcement in the same write
    /// transaction: for the few moves that are announced later (the AI's answers the sweeper
    /// makes), off the grouped path of members' moves.
    pub async fn apply_move_announced(&self, m: MoveWrite, announce: &NewOutbox) -> Result<bool> {
        let mut tx = self.write.begin().await?;
        let applied = match moves_statement(&[&m]).execute(tx.conn()).await {
            Ok(done) => done.rows_affected() == 1,
            Err(e) if refused(&e, GAME_MOVED_ON) => false,
            Err(e) => {
                self.cache.forget(m.game);
                return Err(e.into());
            }
        };
        let done = if applied {
            match insert_outbox(tx.conn(), announce).await {
                Ok(()) => tx.commit().await.map_err(StoreError::from),
                Err(e) => Err(e),
            }
        } else {
            Ok(())
        };
        match done {
            Ok(()) if applied => self.cache.moved(&m),
            _ => self.cache.forget(m.game),
        }
        done.map(|()| applied)
    }

    /// Announcements in `servers` due at `now_ms` (unix milliseconds), oldest first, at most
    /// `limit`.
    pub async fn due_outbox(
        &self,
        now_ms: i64,
        servers: Servers,
        limit: i64,
    ) -> Result<Vec<OutboxRow>> {
        Ok(sqlx::query_as(
            "SELECT * FROM outbox WHERE next_attempt_at <= ?1
               AND (?2 IS NULL OR guild_id = ?2) AND (?3 IS NULL OR guild_id <> ?3)
             ORDER BY id LIMIT ?4",
        )
        .bind(now_ms)
        .bind(servers.only())
        .bind(servers.left_out())
        .bind(limit)
        .fetch_all(&self.read)
        .await?)
    }

    /// When the next announcement in `servers` is due (unix milliseconds), if any is waiting.
    pub async fn next_outbox_at(&self, servers: Servers) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT min(next_attempt_at) FROM outbox
             WHERE (?1 IS NULL OR guild_id = ?1) AND (?2 IS NULL OR guild_id <> ?2)",
        )
        .bind(servers.only())
        .bind(servers.left_out())
        .fetch_one(&self.read)
        .await?)
    }

    /// Removes an announcement: sent, or never to be.
    pub async fn delete_outbox(&self, id: i64) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query("DELETE FROM outbox WHERE id = ?")
            .bind(id)
            .execute(&mut held.conn)
            .await?;
        Ok(())
    }

    /// Records a failed post of an announcement, to be tried again at `at_ms`.
    pub async fn postpone_outbox(&self, id: i64, attempts: i64, at_ms: i64) -> Result<()> {
        let mut held = self.write.lock().await?;
        sqlx::query("UPDATE outbox SET attempts = ?, next_attempt_at = ? WHERE id = ?")
            .bind(attempts)
            .bind(at_ms)
            .bind(id)
            .execute(&mut held.conn)
            .await?;
        Ok(())
    }

    pub async fn rating_change(&self, game: i64) -> Result<Option<RatingChangeRow>> {
        Ok(
            sqlx::query_as("SELECT * FROM rating_changes WHERE game_id = ?")
                .bind(game)
                .fetch_optional(&self.read)
                .await?,
        )
    }
}

/// What [`WriteTx::challenges_to`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChallengesTo {
    pub count: i64,
    pub oldest: Option<i64>,
    pub declined_at: Option<i64>,
}

/// A move to record.
#[derive(Clone, Debug)]
pub struct MoveWrite {
    pub game: i64,
    /// The ply the move was validated against (0 = Black's first move).
    pub ply: i64,
    /// Canonical notation.
    pub notation: String,
    /// The position after the move, written out.
    pub position: String,
    /// When the side to move next runs out of time.
    pub deadline: i64,
    pub now: i64,
}

/// The messages of the triggers' checks (migrations 0003 and 0004).
const GAME_MOVED_ON: &str = "game moved on";
const RATINGS_MOVED_ON: &str = "ratings moved on";

/// How a game ends, for [`Store::end_game`].
#[derive(Clone, Debug)]
pub struct GameEnding {
    pub game: i64,
    /// The ply the game must still be at; `None`: any, as long as it is active.
    pub ply: Option<i64>,
    /// The move that ended the game (notation) and the position after it.
    pub last_move: Option<(String, String)>,
    pub now: i64,
    /// `"black"` or `"white"`; `None` aborts the game.
    pub winner: Option<&'static str>,
    pub reason: &'static str,
    /// The ratings to write, for a rated result.
    pub rated: Option<RatedEnding>,
    /// The announcement of the ending, queued with it.
    pub announce: Option<NewOutbox>,
}

/// The ratings a rated result writes.
#[derive(Clone, Debug)]
pub struct RatedEnding {
    /// Each player's count of rated games on the board as read (`None`: not rated yet). The
    /// ratings are written only if both still hold.
    pub black_games: Option<i64>,
    pub white_games: Option<i64>,
    /// Before (as of the end) and after; the players' new ratings are the `after` values.
    pub change: RatingChangeRow,
}

/// What [`Store::end_game`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    Done,
    /// The game was no longer active, or no longer at the ply asked for: nothing written.
    GameMovedOn,
    /// A player's rating changed since it was read: nothing written.
    RatingsMovedOn,
}

/// Records moves of many games at once, all or none: `ply` is set to the ply each move was
/// validated against plus one, and if any game moved on meanwhile, `games_ply_steps_by_one`
/// (migration 0004) refuses the whole statement. The statement for `rows` moves, `rows` a power
/// of two up to [`BATCH`]: a batch is padded with rows that match no game, so that a handful of
/// statements, each prepared once, serve every batch size. (Rows bound as values cost SQLite less
/// than the same rows read out of one JSON argument.)
fn apply_moves_sql(rows: usize) -> &'static str {
    static BY_ROWS: LazyLock<Vec<String>> = LazyLock::new(|| {
        (0..=BATCH.ilog2())
            .map(|k| {
                let values = vec!["(?, ?, ?, ?, ?, ?)"; 1 << k].join(", ");
                format!(
                    "UPDATE games SET ply = v.column2 + 1, position = v.column3,
                         last_move = v.column4, last_move_at = v.column5, deadline = v.column6,
                         reminded = 0
                     FROM (VALUES {values}) AS v
                     WHERE games.id = v.column1"
                )
            })
            .collect()
    });
    let k = rows.max(1).next_power_of_two().ilog2() as usize;
    BY_ROWS[k.min(BY_ROWS.len() - 1)].as_str()
}

/// Serves a batch of moves. A statement takes at most one move per game (SQLite would apply
/// an arbitrary one of several); further moves for the same game go in the next statement,
/// where the ply check turns them away.
async fn apply_moves(writer: Writer, cache: GameCache, batch: Vec<MoveWrite>) -> Vec<Shared<bool>> {
    let mut held = match writer.lock().await {
        Ok(held) => held,
        Err(e) => {
            let e = Arc::new(e);
            return batch.iter().map(|_| Err(Arc::clone(&e))).collect();
        }
    };
    let mut answers: Vec<Shared<bool>> = vec![Ok(false); batch.len()];
    let mut left: Vec<usize> = (0..batch.len()).collect();
    while !left.is_empty() {
        let mut seen = HashSet::new();
        let (now, later): (Vec<usize>, Vec<usize>) =
            left.into_iter().partition(|&i| seen.insert(batch[i].game));
        let group: Vec<&MoveWrite> = now.iter().map(|&i| &batch[i]).collect();
        let applied = apply_group(&mut held.conn, &group).await;
        for (k, &i) in now.iter().enumerate() {
            answers[i] = match &applied {
                Ok(applied) => Ok(applied[k]),
                Err(e) => Err(Arc::clone(e)),
            };
            match answers[i] {
                Ok(true) => cache.moved(&batch[i]),
                _ => cache.forget(batch[i].game),
            }
        }
        left = later;
    }
    answers
}

/// Writes a group of moves, one per game, and says which applied. The group goes as one
/// statement; only if a game in it moved on does each move go on its own, to find which.
async fn apply_group(conn: &mut SqliteConnection, group: &[&MoveWrite]) -> Shared<Vec<bool>> {
    match moves_statement(group).execute(&mut *conn).await {
        Ok(done) if done.rows_affected() == group.len() as u64 => Ok(vec![true; group.len()]),
        Err(e) if !refused(&e, GAME_MOVED_ON) => Err(Arc::new(e)),
        short_or_refused => {
            // Refused: nothing was written. Otherwise some game of the group does not exist
            // (the others applied), which no move validated against a stored game can meet.
            let wrote = short_or_refused.is_ok();
            let mut applied = Vec::with_capacity(group.len());
            for &m in group {
                applied.push(if wrote {
                    sqlx::query_scalar::<_, i64>("SELECT count(*) FROM games WHERE id = ?")
                        .bind(m.game)
                        .fetch_one(&mut *conn)
                        .await
                        .map_err(Arc::new)?
                        == 1
                } else {
                    match moves_statement(&[m]).execute(&mut *conn).await {
                        Ok(done) => done.rows_affected() == 1,
                        Err(e) if refused(&e, GAME_MOVED_ON) => false,
                        Err(e) => return Err(Arc::new(e)),
                    }
                });
            }
            Ok(applied)
        }
    }
}

/// The grouped move statement with `group` bound, padded as [`apply_moves_sql`] says.
fn moves_statement(group: &[&MoveWrite]) -> sqlx::query::Query<'static, Sqlite, SqliteArguments> {
    let mut q = sqlx::query(apply_moves_sql(group.len()));
    for m in group {
        q = q
            .bind(m.game)
            .bind(m.ply)
            .bind(m.position.clone())
            .bind(m.notation.clone())
            .bind(m.now)
            .bind(m.deadline);
    }
    for _ in group.len()..group.len().next_power_of_two() {
        q = q
            .bind(None::<i64>)
            .bind(None::<i64>)
            .bind(None::<String>)
            .bind(None::<String>)
            .bind(None::<i64>)
            .bind(None::<i64>);
    }
    q
}

/// Queues an announcement.
async fn insert_outbox(conn: &mut SqliteConnection, row: &NewOutbox) -> Result<()> {
    sqlx::query(
        "INSERT INTO outbox (guild_id, channel_id, announcement, created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, ?)",
    )
    .bind(to_db(row.guild_id))
    .bind(to_db(row.channel_id))
    .bind(&row.announcement)
    .bind(row.created_at)
    .bind(row.first_attempt_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether a write was refused by a trigger's check with the message `why`.
fn refused(e: &sqlx::Error, why: &str) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.message() == why)
}

/// Serves a batch of game reads by id.
async fn games_by_id(pool: SqlitePool, ids: Vec<i64>) -> Vec<Shared<Option<GameRow>>> {
    let list = serde_json::Value::from(ids.clone()).to_string();
    let rows = sqlx::query_as::<_, GameRow>(game_select!(
        "WHERE g.id IN (SELECT value FROM json_each(?))"
    ))
    .bind(list)
    .fetch_all(&pool)
    .await;
    match rows {
        Ok(rows) => {
            let by_id: HashMap<i64, GameRow> = rows.into_iter().map(|r| (r.id, r)).collect();
            ids.iter().map(|id| Ok(by_id.get(id).cloned())).collect()
        }
        Err(e) => {
            let e = Arc::new(e);
            ids.iter().map(|_| Err(Arc::clone(&e))).collect()
        }
    }
}

const CHALLENGE_SELECT_BY_ID: &str = "SELECT * FROM challenges WHERE id = ?";

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

    /// Records a member, or refreshes the name a known one has in `guild` (0: direct messages).
    /// The name is kept per server: a nickname in one is never shown in another.
    pub async fn upsert_member(
        &mut self,
        guild: u64,
        id: u64,
        name: &str,
        is_bot: bool,
        now: i64,
    ) -> Result<()> {
        self.touched.all();
        sqlx::query(
            "INSERT INTO members (id, is_bot, created_at) VALUES (?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET is_bot = excluded.is_bot",
        )
        .bind(to_db(id))
        .bind(is_bot)
        .bind(now)
        .execute(self.tx.conn())
        .await?;
        sqlx::query(
            "INSERT INTO member_names (guild_id, member_id, name) VALUES (?, ?, ?)
             ON CONFLICT (guild_id, member_id) DO UPDATE SET name = excluded.name",
        )
        .bind(to_db(guild))
        .bind(to_db(id))
        .bind(name)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    pub async fn member_is_bot(&mut self, id: u64) -> Result<bool> {
        Ok(
            sqlx::query_scalar::<_, bool>("SELECT is_bot FROM members WHERE id = ?")
                .bind(to_db(id))
                .fetch_optional(self.tx.conn())
                .await?
                .unwrap_or(false),
        )
    }

    /// Inserts a pending challenge. A second pending challenge between the same pair (or a
    /// second open one in a channel) is a [`StoreError::Conflict`].
    pub async fn insert_challenge(&mut self, c: &NewChallenge) -> Result<i64> {
        sqlx::query_scalar(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, size,
                 challenger_color, time_limit, rated, created_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(to_db(c.guild_id))
        .bind(to_db(c.channel_id))
        .bind(to_db(c.challenger_id))
        .bind(c.opponent_id.map(to_db))
        .bind(&c.size)
        .bind(&c.challenger_color)
        .bind(c.time_limit)
        .bind(c.rated)
        .bind(c.created_at)
        .bind(c.expires_at)
        .fetch_one(self.tx.conn())
        .await
        .map_err(conflict_or)
    }

    /// Challenges `from` made to `to`, in any server: how many since `made_since`, whatever
    /// became of them, the oldest of those, and when `to` last declined one, if after
    /// `declined_since`.
    pub async fn challenges_to(
        &mut self,
        from: u64,
        to: u64,
        made_since: i64,
        declined_since: i64,
    ) -> Result<ChallengesTo> {
        let (count, oldest, declined_at) = sqlx::query_as(
            "SELECT count(CASE WHEN created_at > ?3 THEN 1 END),
                    min(CASE WHEN created_at > ?3 THEN created_at END),
                    max(CASE WHEN state = 'declined' AND resolved_at > ?4 THEN resolved_at END)
             FROM challenges WHERE challenger_id = ?1 AND opponent_id = ?2",
        )
        .bind(to_db(from))
        .bind(to_db(to))
        .bind(made_since)
        .bind(declined_since)
        .fetch_one(self.tx.conn())
        .await?;
        Ok(ChallengesTo {
            count,
            oldest,
            declined_at,
        })
    }

    pub async fn count_pending_challenges_by(&mut self, member: u64) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "SELECT count(*) FROM challenges WHERE state = 'pending' AND challenger_id = ?",
        )
        .bind(to_db(member))
        .fetch_one(self.tx.conn())
        .await?)
    }

    pub async fn count_active_games(&mut self, member: u64) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "SELECT count(*) FROM games WHERE state = 'active' AND (black_id = ?1 OR white_id = ?1)",
        )
        .bind(to_db(member))
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Games against the AI in progress for a member.
    pub async fn count_active_ai_games(&mut self, member: u64) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "SELECT count(*) FROM games WHERE state = 'active' AND ai_level IS NOT NULL
               AND (black_id = ?1 OR white_id = ?1)",
        )
        .bind(to_db(member))
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Rated games between two members in a server created after `since`.
    pub async fn count_rated_games_between(
        &mut self,
        guild: u64,
        a: u64,
        b: u64,
        since: i64,
    ) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "SELECT count(*) FROM games WHERE guild_id = ?1 AND rated = 1 AND created_at > ?4
               AND ((black_id = ?2 AND white_id = ?3) OR (black_id = ?3 AND white_id = ?2))",
        )
        .bind(to_db(guild))
        .bind(to_db(a))
        .bind(to_db(b))
        .bind(since)
        .fetch_one(self.tx.conn())
        .await?)
    }

    pub async fn challenge(&mut self, id: i64) -> Result<Option<ChallengeRow>> {
        Ok(sqlx::query_as(CHALLENGE_SELECT_BY_ID)
            .bind(id)
            .fetch_optional(self.tx.conn())
            .await?)
    }

    /// Moves a pending challenge to `state`. False when it was no longer pending.
    pub async fn resolve_challenge(
        &mut self,
        id: i64,
        state: &str,
        now: i64,
        game: Option<i64>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE challenges SET state = ?, resolved_at = ?, game_id = ?
             WHERE id = ? AND state = 'pending'",
        )
        .bind(state)
        .bind(now)
        .bind(game)
        .bind(id)
        .execute(self.tx.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Marks every pending challenge in `servers` past its expiry as expired, and returns them.
    pub async fn expire_challenges(
        &mut self,
        now: i64,
        servers: Servers,
    ) -> Result<Vec<ChallengeRow>> {
        Ok(sqlx::query_as(
            "UPDATE challenges SET state = 'expired', resolved_at = ?1
             WHERE state = 'pending' AND expires_at <= ?1
               AND (?2 IS NULL OR guild_id = ?2) AND (?3 IS NULL OR guild_id <> ?3)
             RETURNING *",
        )
        .bind(now)
        .bind(servers.only())
        .bind(servers.left_out())
        .fetch_all(self.tx.conn())
        .await?)
    }

    pub async fn insert_game(&mut self, g: &NewGame) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "INSERT INTO games (guild_id, channel_id, black_id, white_id, size, time_limit, rated,
                 position, deadline, created_at, ai_level)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(to_db(g.guild_id))
        .bind(to_db(g.channel_id))
        .bind(to_db(g.black_id))
        .bind(to_db(g.white_id))
        .bind(&g.size)
        .bind(g.time_limit)
        .bind(g.rated)
        .bind(&g.position)
        .bind(g.deadline)
        .bind(g.created_at)
        .bind(g.ai_level)
        .fetch_one(self.tx.conn())
        .await?)
    }

    /// Marks the reminder as sent for every active game within `fraction` of its time limit of
    /// the deadline (and not yet reminded), in `servers`, and returns those games. The AI is
    /// never reminded: a game where it is to move is left as it is. Black moves at even plies.
    pub async fn take_due_reminders(
        &mut self,
        now: i64,
        fraction: f64,
        servers: Servers,
    ) -> Result<Vec<ReminderRow>> {
        let rows: Vec<ReminderRow> = sqlx::query_as(
            "UPDATE games SET reminded = 1
             WHERE state = 'active' AND reminded = 0 AND deadline > ?1
               AND deadline - CAST(time_limit * ?2 AS INTEGER) <= ?1
               AND (?3 IS NULL OR guild_id = ?3) AND (?4 IS NULL OR guild_id <> ?4)
               AND NOT EXISTS (SELECT 1 FROM members m WHERE m.is_bot = 1
                   AND m.id = iif(games.ply % 2 = 0, games.black_id, games.white_id))
             RETURNING id, guild_id, channel_id, deadline,
                       iif(ply % 2 = 0, black_id, white_id) AS to_move",
        )
        .bind(now)
        .bind(fraction)
        .bind(servers.only())
        .bind(servers.left_out())
        .fetch_all(self.tx.conn())
        .await?;
        for r in &rows {
            self.touched.game(r.id);
        }
        Ok(rows)
    }

    /// Queues an announcement with the change it announces.
    pub async fn insert_outbox(&mut self, row: &NewOutbox) -> Result<()> {
        insert_outbox(self.tx.conn(), row).await
    }

    /// When the process looking after `servers` last recorded that it was alive (unix seconds).
    pub async fn last_seen(&mut self, servers: Servers) -> Result<Option<i64>> {
        Ok(
            sqlx::query_scalar("SELECT seen_at FROM alive WHERE scope = ?")
                .bind(servers.key())
                .fetch_optional(self.tx.conn())
                .await?,
        )
    }

    /// Records that the process looking after `servers` is alive at `now`.
    pub async fn set_last_seen(&mut self, servers: Servers, now: i64) -> Result<()> {
        sqlx::query(
            "INSERT INTO alive (scope, seen_at) VALUES (?, ?)
             ON CONFLICT (scope) DO UPDATE SET seen_at = excluded.seen_at",
        )
        .bind(servers.key())
        .bind(now)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }

    /// Moves every active game's deadline and every pending challenge's expiry in `servers` on
    /// by `seconds`; returns how many games and challenges moved.
    pub async fn shift_clocks(&mut self, seconds: i64, servers: Servers) -> Result<(u64, u64)> {
        self.touched.all();
        let games = sqlx::query(
            "UPDATE games SET deadline = deadline + ?1 WHERE state = 'active'
               AND (?2 IS NULL OR guild_id = ?2) AND (?3 IS NULL OR guild_id <> ?3)",
        )
        .bind(seconds)
        .bind(servers.only())
        .bind(servers.left_out())
        .execute(self.tx.conn())
        .await?;
        let challenges = sqlx::query(
            "UPDATE challenges SET expires_at = expires_at + ?1 WHERE state = 'pending'
               AND (?2 IS NULL OR guild_id = ?2) AND (?3 IS NULL OR guild_id <> ?3)",
        )
        .bind(seconds)
        .bind(servers.only())
        .bind(servers.left_out())
        .execute(self.tx.conn())
        .await?;
        Ok((games.rows_affected(), challenges.rows_affected()))
    }

    pub async fn upsert_rating(&mut self, r: &RatingRow) -> Result<()> {
        sqlx::query(
            "INSERT INTO ratings (guild_id, member_id, size, rating, deviation, volatility, games,
                 wins, losses, last_active)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (guild_id, member_id, size) DO UPDATE SET
                 rating = excluded.rating, deviation = excluded.deviation,
                 volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,
                 losses = excluded.losses, last_active = excluded.last_active",
        )
        .bind(to_db(r.guild_id))
        .bind(to_db(r.member_id))
        .bind(&r.size)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(r.games)
        .bind(r.wins)
        .bind(r.losses)
        .bind(r.last_active)
        .execute(self.tx.conn())
        .await?;
        Ok(())
    }
}
