//! What the store can fail with, and how a database's refusal is told apart: a uniqueness rule,
//! a trigger's check, a full disk.

use std::sync::Arc;

/// What the store can fail with. Each keeps its cause as its `source`, and its message already
/// says that cause (PostgreSQL's refusals in the server's own words, without sqlx's wrapping):
/// whoever prints an error's causes need print none past this one.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A uniqueness rule refused the write: which one, by the name the schema gives it.
    #[error("conflict with {0}")]
    Conflict(Unique),
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
    /// The last write found the disk full, and none has committed since.
    #[error("the last write found the disk full: free some space")]
    DiskFull,
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
            StoreError::DiskFull => return true,
            StoreError::Sqlx(e) => e,
            StoreError::Batch(e) => e.as_ref(),
            _ => return false,
        };
        is_full(e)
    }

    /// Whether the database could not be reached: the connection broke or timed out, or the
    /// server is restarting or away. Nothing of the failed write was kept; the same write
    /// passes once it is back.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Sqlx(e) => connection_failed(e),
            StoreError::Batch(e) => connection_failed(e),
            StoreError::Unreachable { .. } => true,
            _ => false,
        }
    }
}

/// Whether `e` says the connection, rather than the statement, failed: it broke or timed out, or
/// the server is going away or not there.
pub(super) fn connection_failed(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::PoolTimedOut => true,
        // PostgreSQL's connection exceptions (class 08) and shut-downs (57P01 to 57P05).
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
        _ => false,
    }
}

/// Whether `e` says the database could not grow: SQLITE_FULL, or PostgreSQL's disk_full.
pub(super) fn is_full(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("13" | "53100")))
}

/// A uniqueness rule of the schema, by its name (the same in both migration trees).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unique {
    /// `challenges_one_pending_per_pair`: one pending challenge per pair of members in a server.
    PendingChallengePerPair,
    /// `challenges_one_open_per_channel`: one pending open challenge per member and channel.
    OpenChallengePerChannel,
    /// Another, by its name, or SQLite's message where it gives no name.
    Other(String),
}

impl Unique {
    /// Its name in the schema.
    fn name(&self) -> &str {
        match self {
            Unique::PendingChallengePerPair => "challenges_one_pending_per_pair",
            Unique::OpenChallengePerChannel => "challenges_one_open_per_channel",
            Unique::Other(name) => name,
        }
    }

    fn named(name: &str) -> Unique {
        [
            Unique::PendingChallengePerPair,
            Unique::OpenChallengePerChannel,
        ]
        .into_iter()
        .find(|rule| rule.name() == name)
        .unwrap_or_else(|| Unique::Other(name.to_string()))
    }
}

impl std::fmt::Display for Unique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The unique indexes SQLite names only by their columns (an index on plain columns: "UNIQUE
/// constraint failed: challenges.channel_id, challenges.challenger_id"), with their names. An
/// index on expressions it names itself ("… failed: index 'name'"); PostgreSQL names every one.
const SQLITE_UNIQUE_COLUMNS: &[(&str, &str)] = &[(
    "challenges.channel_id, challenges.challenger_id",
    "challenges_one_open_per_channel",
)];

/// The name of the uniqueness rule that refused a write.
fn unique_of(db: &dyn sqlx::error::DatabaseError) -> Unique {
    if let Some(name) = db.constraint() {
        return Unique::named(name);
    }
    let message = db.message();
    let failed = message
        .strip_prefix("UNIQUE constraint failed: ")
        .unwrap_or(message);
    if let Some(index) = failed
        .strip_prefix("index '")
        .and_then(|rest| rest.strip_suffix('\''))
    {
        return Unique::named(index);
    }
    SQLITE_UNIQUE_COLUMNS
        .iter()
        .find(|(columns, _)| *columns == failed)
        .map_or_else(
            || Unique::Other(message.to_string()),
            |(_, name)| Unique::named(name),
        )
}

pub(super) fn conflict_or(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(db) = &e {
        if db.is_unique_violation() {
            return StoreError::Conflict(unique_of(db.as_ref()));
        }
    }
    // Through `From`, as every other failed statement, so a broken connection is noted.
    e.into()
}

/// Why PostgreSQL refused a connection, in its own words (the server's message, without sqlx's
/// wrapping), or what else went wrong.
fn refusal(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Database(db) => db.message().to_string(),
        other => other.to_string(),
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
pub(super) fn refused_by_trigger(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db)
        if matches!(db.code().as_deref(), Some(CONSTRAINT_TRIGGER | RAISE_EXCEPTION)))
}
