//! Opening a SQLite file: each connection's set-up, the one writing connection, migrations two
//! processes may race to apply, and the checkpointer that runs beside the writer.

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyConnection, AnyPool};
use sqlx::{ConnectOptions, Connection};

use super::statements::statement;
use super::{Result, CHECKPOINT_EVERY};

pub(super) fn spawn_checkpointer(pool: AnyPool, alive: std::sync::Weak<()>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if alive.upgrade().is_none() || pool.is_closed() {
                break;
            }
            if let Err(e) = sqlx::query(statement!(Sqlite, "PRAGMA wal_checkpoint(PASSIVE)"))
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
pub(super) async fn migrate_sqlite(conn: &mut AnyConnection) -> Result<()> {
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
pub(super) async fn connect_writer(options: &AnyConnectOptions) -> Result<AnyConnection> {
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
pub(super) async fn sqlite_pool(options: &SqliteConnectOptions, size: u32) -> Result<AnyPool> {
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

/// Copies the SQLite database at `url` into `to`, a file that must not exist yet: one
/// consistent snapshot (`VACUUM INTO`), taken while the bot goes on writing, the source opened
/// read-only. The copy is a database of its own, ready to open where the original was.
pub async fn backup(url: &str, to: &std::path::Path) -> Result<()> {
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(false)
        .read_only(true);
    let mut conn = options.connect().await?;
    sqlx::query(statement!(Sqlite, "VACUUM INTO $1"))
        .bind(to.to_string_lossy().into_owned())
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    Ok(())
}
