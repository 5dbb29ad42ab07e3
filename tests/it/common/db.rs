//! The databases the tests run on: a SQLite file in a temporary directory, or a database of its
//! own in the test process's PostgreSQL cluster (see `postgres`). A test written once runs on
//! both through [`on_both_backends!`], with the backend as its parameter.

use sqlx::Connection;

/// Which database a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A fresh, empty database, kept while this lives.
#[derive(Debug)]
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub async fn new(backend: Backend) -> TestDb {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("test.db").display());
                TestDb {
                    url,
                    _dir: Some(dir),
                }
            }
            Backend::Postgres => {
                let cluster = super::postgres::cluster()
                    .expect("PostgreSQL tests run only where the cluster starts");
                TestDb {
                    url: cluster.database().await,
                    _dir: None,
                }
            }
        }
    }
}

async fn connect(url: &str) -> sqlx::AnyConnection {
    sqlx::any::install_default_drivers();
    sqlx::AnyConnection::connect(url)
        .await
        .expect("connect behind the store's back")
}

/// Runs one statement (`$1` parameters, each an integer) on the database at `url`, behind the
/// store's back; returns the rows it changed.
pub async fn execute(url: &str, sql: &'static str, args: &[i64]) -> u64 {
    let mut conn = connect(url).await;
    run(&mut conn, sql, args).await
}

/// Runs `sql` with `args` bound on `conn`; returns the rows it changed.
async fn run(conn: &mut sqlx::AnyConnection, sql: &'static str, args: &[i64]) -> u64 {
    let mut q = sqlx::query(sql);
    for &a in args {
        q = q.bind(a);
    }
    q.execute(conn).await.expect(sql).rows_affected()
}

/// Like [`execute`], past the schema's CHECK constraints on `table`: SQLite ignores them on this
/// connection; PostgreSQL's are dropped from the table (the database is the test's own).
pub async fn execute_unchecked(url: &str, table: &str, sql: &'static str, args: &[i64]) -> u64 {
    let mut conn = connect(url).await;
    if url.starts_with("postgres") {
        let checks: Vec<String> = sqlx::query_scalar(
            "SELECT conname::text FROM pg_constraint
             WHERE contype = 'c' AND conrelid = $1::text::regclass",
        )
        .bind(table)
        .fetch_all(&mut conn)
        .await
        .expect("the table's checks");
        for check in checks {
            let drop = format!("ALTER TABLE {table} DROP CONSTRAINT {check}");
            sqlx::raw_sql(sqlx::AssertSqlSafe(drop))
                .execute(&mut conn)
                .await
                .expect("drop a check");
        }
    } else {
        sqlx::raw_sql("PRAGMA ignore_check_constraints = ON")
            .execute(&mut conn)
            .await
            .expect("pragma");
    }
    run(&mut conn, sql, args).await
}

/// Runs each test of the list (written `async fn name(b: Backend)`) on SQLite, as
/// `sqlite::name`, and on PostgreSQL, as `postgres::name`; each entry carries its test attribute.
/// Where PostgreSQL's binaries are missing (never under CI) the PostgreSQL runs pass at once, and
/// `common::postgres` says once why.
macro_rules! on_both_backends {
    ($( #[$attr:meta] $name:ident ),* $(,)?) => {
        mod sqlite {
            $(
                #[$attr]
                async fn $name() {
                    super::$name(crate::common::db::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[$attr]
                async fn $name() {
                    if crate::common::postgres::cluster().is_some() {
                        super::$name(crate::common::db::Backend::Postgres).await
                    }
                }
            )*
        }
    };
}
pub(crate) use on_both_backends;
