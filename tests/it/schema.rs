//! The two migration trees make one schema: `migrations/sqlite/` and `migrations/postgres/`,
//! each run by the store as the bot runs it, give the same tables, the same columns with the
//! same kind of type, nullability and defaults, and the same keys, indexes, foreign keys and
//! checks, as each database's own catalogue tells them. A column, key or check added to one tree
//! only fails here.
//!
//! Compared as far as the two catalogues can say the same thing: a type as its family (SQLite's
//! `INTEGER` and PostgreSQL's `BIGINT` are both integers), a default as whether there is one,
//! an index's expression as "an expression", and a check as the columns it names (SQLite keeps
//! no catalogue of checks: they are read from its `CREATE TABLE` text).

use std::collections::{BTreeMap, BTreeSet};

use sqlx::{Connection, PgConnection, SqliteConnection};

use breakthrough_bot::store::Store;

use crate::common::db::{Backend, TestDb};
use crate::common::postgres;

/// Tables one backend has on purpose, and why.
const ONLY_POSTGRES: &[(&str, &str)] = &[(
    "shard_leases",
    "processes on several machines share a PostgreSQL database and lease its gateway shards in \
     it; a SQLite file is claimed by lock files beside it (`store::instance`)",
)];
const ONLY_SQLITE: &[(&str, &str)] = &[];

/// A schema as the facts its catalogue tells, each beginning with its table's name, with how
/// many times each is told (two checks on the same columns are two).
type Facts = BTreeMap<String, usize>;

fn tell(facts: &mut Facts, fact: String) {
    *facts.entry(fact).or_default() += 1;
}

/// What one backend tells that the other does not, a line each.
fn told_only_by(one: &Facts, other: &Facts) -> Vec<String> {
    one.iter()
        .filter(|(fact, n)| other.get(*fact).unwrap_or(&0) < n)
        .map(|(fact, _)| fact.clone())
        .collect()
}

#[tokio::test]
async fn the_sqlite_and_postgresql_migrations_make_the_same_tables_columns_and_constraints() {
    if postgres::cluster().is_none() {
        return;
    }
    let mut sqlite = sqlite_schema(&migrated(Backend::Sqlite).await.url).await;
    let mut postgres = postgres_schema(&migrated(Backend::Postgres).await.url).await;

    // Each side is read for what it is, not found empty on both.
    for facts in [&sqlite, &postgres] {
        for fact in [
            "games: foreign key (black_id) to members (id), on update NO ACTION, on delete NO ACTION",
            "games: column ply integer, not null, with a default",
            "challenges: index challenges_one_pending_per_pair (guild_id, (expression), \
             (expression)), unique, partial",
            "moves: primary key (game_id, ply)",
            "game_endings: view",
        ] {
            assert!(facts.contains_key(fact), "{fact}: {facts:#?}");
        }
        let checks = facts.keys().filter(|f| f.starts_with("games: check on "));
        assert!(checks.count() >= 10, "{facts:#?}");
    }

    for (table, _why) in ONLY_POSTGRES {
        set_aside(table, &mut postgres, &sqlite);
    }
    for (table, _why) in ONLY_SQLITE {
        set_aside(table, &mut sqlite, &postgres);
    }
    let (only_sqlite, only_postgres) = (
        told_only_by(&sqlite, &postgres),
        told_only_by(&postgres, &sqlite),
    );
    assert!(
        only_sqlite.is_empty() && only_postgres.is_empty(),
        "only in SQLite's schema:\n  {}\nonly in PostgreSQL's:\n  {}",
        only_sqlite.join("\n  "),
        only_postgres.join("\n  ")
    );
}

/// Takes the facts of `table`, which one backend has on purpose, out of its schema `on`.
fn set_aside(table: &str, on: &mut Facts, other: &Facts) {
    let prefix = format!("{table}: ");
    assert!(
        on.contains_key(&format!("{prefix}table")),
        "{table} is gone"
    );
    assert!(
        !other.contains_key(&format!("{prefix}table")),
        "{table} is in both schemas now"
    );
    on.retain(|fact, _| !fact.starts_with(&prefix));
}

/// `column`'s fact: its type's family, whether it may be NULL, whether it has a default.
fn column(table: &str, name: &str, family: &str, not_null: bool, default: bool) -> String {
    format!(
        "{table}: column {name} {family}, {}{}",
        if not_null { "not null" } else { "null" },
        if default { ", with a default" } else { "" }
    )
}

fn index(table: &str, name: &str, unique: bool, partial: bool, columns: &[String]) -> String {
    format!(
        "{table}: index {name} ({}){}{}",
        columns.join(", "),
        if unique { ", unique" } else { "" },
        if partial { ", partial" } else { "" }
    )
}

/// A foreign key: its columns, the table and the columns they refer to, and what it does on an
/// update and on a delete of those.
type Reference = (Vec<String>, String, Vec<String>, String, String);

fn foreign_key(table: &str, (from, to, to_columns, on_update, on_delete): &Reference) -> String {
    format!(
        "{table}: foreign key ({}) to {to} ({}), on update {on_update}, on delete {on_delete}",
        from.join(", "),
        to_columns.join(", "),
    )
}

/// A fresh database of `backend` with the migrations applied, by the store as the bot opens it.
async fn migrated(backend: Backend) -> TestDb {
    let db = TestDb::new(backend).await;
    Store::open(&db.url).await.expect("open").close().await;
    db
}

async fn sqlite_schema(url: &str) -> Facts {
    let mut conn = SqliteConnection::connect(url).await.expect("connect");
    let mut facts = Facts::new();
    let tables: Vec<(String, String, bool)> = sqlx::query_as(
        "SELECT m.name, m.sql, l.wr FROM sqlite_master m
         JOIN pragma_table_list l ON l.name = m.name AND l.schema = 'main'
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'",
    )
    .fetch_all(&mut conn)
    .await
    .expect("tables");
    for (table, sql, without_rowid) in tables {
        tell(&mut facts, format!("{table}: table"));
        let columns: Vec<(String, String, bool, bool, i64)> = sqlx::query_as(
            "SELECT name, type, \"notnull\", dflt_value IS NOT NULL, pk
             FROM pragma_table_info($1) ORDER BY pk, cid",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .expect("columns");
        let keys: Vec<String> = columns
            .iter()
            .filter(|c| c.4 > 0)
            .map(|c| c.0.clone())
            .collect();
        if !keys.is_empty() {
            tell(
                &mut facts,
                format!("{table}: primary key ({})", keys.join(", ")),
            );
        }
        for (name, ty, not_null, default, pk) in &columns {
            // A key column may hold NULL in SQLite unless the table has no rowid or the column
            // is the rowid (a lone `INTEGER PRIMARY KEY`).
            let rowid = keys.len() == 1 && ty.eq_ignore_ascii_case("INTEGER");
            let not_null = *not_null || (*pk > 0 && (without_rowid || rowid));
            let fact = column(&table, name, sqlite_family(ty), not_null, *default);
            tell(&mut facts, fact);
        }
        let references: Vec<(i64, String, String, Option<String>, String, String)> =
            sqlx::query_as(
                "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete
                 FROM pragma_foreign_key_list($1) ORDER BY id, seq",
            )
            .bind(&table)
            .fetch_all(&mut conn)
            .await
            .expect("foreign keys");
        let mut by_id: BTreeMap<i64, Reference> = BTreeMap::new();
        for (id, to, from, to_column, on_update, on_delete) in references {
            let key = by_id.entry(id).or_insert_with(|| {
                let to = to.to_lowercase();
                (Vec::new(), to, Vec::new(), on_update, on_delete)
            });
            key.0.push(from);
            key.2.extend(to_column);
        }
        for mut key in by_id.into_values() {
            if key.2.is_empty() {
                // `REFERENCES t` alone: t's primary key.
                key.2 = sqlx::query_scalar(
                    "SELECT name FROM pragma_table_info($1) WHERE pk > 0 ORDER BY pk",
                )
                .bind(&key.1)
                .fetch_all(&mut conn)
                .await
                .expect("referenced key");
            }
            tell(&mut facts, foreign_key(&table, &key));
        }
        let indexes: Vec<(String, bool, String, bool)> = sqlx::query_as(
            "SELECT name, \"unique\", origin, partial FROM pragma_index_list($1)
             WHERE origin <> 'pk'",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .expect("indexes");
        for (name, unique, origin, partial) in indexes {
            let columns: Vec<Option<String>> =
                sqlx::query_scalar("SELECT name FROM pragma_index_info($1) ORDER BY seqno")
                    .bind(&name)
                    .fetch_all(&mut conn)
                    .await
                    .expect("index columns");
            let columns: Vec<String> = columns
                .into_iter()
                .map(|c| c.unwrap_or_else(|| "(expression)".into()))
                .collect();
            // A unique constraint's index is named by each database its own way.
            let name = if origin == "u" {
                "(unique constraint)"
            } else {
                &name
            };
            tell(&mut facts, index(&table, name, unique, partial, &columns));
        }
        let names: BTreeSet<&str> = columns.iter().map(|c| c.0.as_str()).collect();
        for check in sqlite_checks(&sql, &names) {
            tell(
                &mut facts,
                format!("{table}: check on ({})", check.join(", ")),
            );
        }
    }
    let views: Vec<String> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'view'")
            .fetch_all(&mut conn)
            .await
            .expect("views");
    for view in views {
        tell(&mut facts, format!("{view}: view"));
    }
    facts
}

/// The family of a SQLite column's declared type, by SQLite's own rules for its affinity.
fn sqlite_family(ty: &str) -> &'static str {
    let ty = ty.to_ascii_uppercase();
    if ty.contains("INT") {
        "integer"
    } else if ["CHAR", "CLOB", "TEXT"].iter().any(|t| ty.contains(t)) {
        "text"
    } else if ["REAL", "FLOA", "DOUB"].iter().any(|t| ty.contains(t)) {
        "real"
    } else if ty.contains("BOOL") {
        "bool"
    } else {
        "other"
    }
}

/// The columns (of `columns`) each `CHECK (…)` in a SQLite `CREATE TABLE` names, sorted, read
/// from its text without its comments and quoted strings.
fn sqlite_checks(sql: &str, columns: &BTreeSet<&str>) -> Vec<Vec<String>> {
    let mut text = String::new();
    for line in sql.lines() {
        let mut quoted = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\'' {
                quoted = !quoted;
            } else if quoted {
                continue;
            } else if c == '-' && chars.peek() == Some(&'-') {
                break;
            } else {
                text.push(c.to_ascii_lowercase());
            }
        }
        text.push('\n');
    }
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut checks = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("check").map(|i| from + i) {
        from = at + "check".len();
        let rest = text[from..].trim_start();
        if text[..at].chars().next_back().is_some_and(word) || !rest.starts_with('(') {
            continue;
        }
        let open = text.len() - rest.len();
        let mut depth = 0;
        let close = text[open..]
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map(|(i, _)| open + i)
            .expect("a check's closing parenthesis");
        let named: BTreeSet<&str> = text[open..close]
            .split(|c: char| !word(c))
            .filter(|w| columns.contains(w))
            .collect();
        checks.push(named.into_iter().map(str::to_string).collect());
        from = close;
    }
    checks
}

async fn postgres_schema(url: &str) -> Facts {
    let mut conn = PgConnection::connect(url).await.expect("connect");
    let mut facts = Facts::new();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
           AND table_name <> '_sqlx_migrations'",
    )
    .fetch_all(&mut conn)
    .await
    .expect("tables");
    for table in tables {
        tell(&mut facts, format!("{table}: table"));
        let columns: Vec<(String, String, bool, bool)> = sqlx::query_as(
            "SELECT column_name::text, data_type::text, is_nullable = 'NO',
                    column_default IS NOT NULL
             FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .expect("columns");
        for (name, ty, not_null, default) in columns {
            let family = match ty.as_str() {
                "smallint" | "integer" | "bigint" => "integer",
                "text" | "character varying" | "character" => "text",
                "real" | "double precision" => "real",
                "boolean" => "bool",
                _ => "other",
            };
            tell(&mut facts, column(&table, &name, family, not_null, default));
        }
        let keys: Vec<String> = sqlx::query_scalar(
            "SELECT a.attname::text
             FROM pg_index x CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY k (attnum, n)
             JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
             WHERE x.indrelid = $1::text::regclass AND x.indisprimary
             ORDER BY k.n",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .expect("primary key");
        if !keys.is_empty() {
            tell(
                &mut facts,
                format!("{table}: primary key ({})", keys.join(", ")),
            );
        }
        let references: Vec<Reference> = sqlx::query_as(
            "SELECT
                 array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k (attnum, n)
                       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                       ORDER BY k.n),
                 c.confrelid::regclass::text,
                 array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k (attnum, n)
                       JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum
                       ORDER BY k.n),
                 c.confupdtype::text, c.confdeltype::text
             FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = $1::text::regclass",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .expect("foreign keys");
        let action = |code: &str| {
            match code {
                "a" => "NO ACTION",
                "r" => "RESTRICT",
                "c" => "CASCADE",
                "n" => "SET NULL",
                "d" => "SET DEFAULT",
                other => panic!("a foreign key action {other}"),
            }
            .to_string()
        };
        for (from, to, to_columns, on_update, on_delete) in references {
            let key = (from, to, to_columns, action(&on_update), action(&on_delete));
            tell(&mut facts, foreign_key(&table, &key));
        }
        let indexes: Vec<(String, bool, bool, bool, Vec<String>)> = sqlx::query_as(
            "SELECT i.relname::text, x.indisunique, x.indpred IS NOT NULL,
                    EXISTS (SELECT 1 FROM pg_constraint c
                            WHERE c.conindid = x.indexrelid AND c.contype = 'u'),
                    array(SELECT coalesce(a.attname::text, '(expression)')
                          FROM unnest(x.indkey) WITH ORDINALITY k (attnum, n)
                          LEFT JOIN pg_attribute a
                              ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                          WHERE k.n <= x.indnkeyatts ORDER BY k.n)
             FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
             WHERE x.indrelid = $1::text::regclass AND NOT x.indisprimary",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .expect("indexes");
        for (name, unique, partial, constraint, columns) in indexes {
            let name = if constraint {
                "(unique constraint)"
            } else {
                &name
            };
            tell(&mut facts, index(&table, name, unique, partial, &columns));
        }
        let checks: Vec<Vec<String>> = sqlx::query_scalar(
            "SELECT array(SELECT a.attname::text FROM unnest(c.conkey) k (attnum)
                          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                          ORDER BY 1)
             FROM pg_constraint c WHERE c.contype = 'c' AND c.conrelid = $1::text::regclass",
        )
        .bind(&table)
        .fetch_all(&mut conn)
        .await
        .expect("checks");
        for check in checks {
            tell(
                &mut facts,
                format!("{table}: check on ({})", check.join(", ")),
            );
        }
    }
    let views: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.views WHERE table_schema = 'public'",
    )
    .fetch_all(&mut conn)
    .await
    .expect("views");
    for view in views {
        tell(&mut facts, format!("{view}: view"));
    }
    facts
}

/// Every statement the store registers (`store::statements`) prepares on each database it runs
/// on, against the schema its migrations make: a table, column or syntax one database lacks
/// fails here, though no other test runs the statement. A failure names each statement, where it
/// is written, and the database's error.
#[tokio::test]
async fn every_statement_of_the_store_prepares_on_sqlite_and_postgresql() {
    use breakthrough_bot::store::statements::{all, On};
    use sqlx::{AssertSqlSafe, Executor, SqlSafeStr};

    let registered = all();
    // The register is read, not found empty: every file of the store writes statements.
    assert!(registered.len() > 100, "{} statements", registered.len());
    let mut failed = Vec::new();
    let mut prepared = 0;

    let sqlite = migrated(Backend::Sqlite).await;
    let mut conn = SqliteConnection::connect(&sqlite.url)
        .await
        .expect("connect");
    for s in registered.iter().filter(|s| s.on != On::Postgres) {
        for text in s.texts() {
            match conn
                .prepare(AssertSqlSafe(text.as_str()).into_sql_str())
                .await
            {
                Ok(_) => prepared += 1,
                Err(e) => failed.push(format!("SQLite, {}: {e}\n{text}", s.at)),
            }
        }
    }

    if postgres::cluster().is_some() {
        let pg = migrated(Backend::Postgres).await;
        let mut conn = PgConnection::connect(&pg.url).await.expect("connect");
        for s in registered.iter().filter(|s| s.on != On::Sqlite) {
            for text in s.texts() {
                match conn
                    .prepare(AssertSqlSafe(text.as_str()).into_sql_str())
                    .await
                {
                    Ok(_) => prepared += 1,
                    Err(e) => failed.push(format!("PostgreSQL, {}: {e}\n{text}", s.at)),
                }
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    assert!(prepared > registered.len(), "{prepared} prepared");
}

/// Every statement of the store is written through `statement!` (or built by a function whose
/// every kind is registered, run with sqlx's `*_with`), so the test above sees it: a call of
/// `sqlx::query`, `query_as` or `query_scalar` on a bare text fails here, naming its file and
/// line.
#[test]
fn every_statement_of_the_store_is_registered() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    // A constant's name, as an argument: it must be defined as `statement!(…)`.
    let constant = |arg: &str| {
        arg.split(|c: char| !(c.is_ascii_uppercase() || c == '_'))
            .next()
            .filter(|name| name.len() > 2 && !arg[name.len()..].starts_with('('))
            .map(str::to_string)
    };
    // A pragma sized from a number, run only by the tests' full-disk helper.
    let allowed = ["sqlx::AssertSqlSafe(sql)"];
    let mut bare = Vec::new();
    let mut calls = 0;
    for entry in std::fs::read_dir(&dir).expect("src/store") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".rs") || name == "statements.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        let mut used = Vec::new();
        for call in ["sqlx::query(", "sqlx::query_as(", "sqlx::query_scalar("] {
            for (at, _) in code.match_indices(call) {
                calls += 1;
                let arg = code[at + call.len()..].trim_start();
                if let Some(name) = constant(arg) {
                    used.push(name);
                    continue;
                }
                if arg.starts_with("statement!(") || allowed.iter().any(|a| arg.starts_with(a)) {
                    continue;
                }
                let line = code[..at].lines().count() + 1;
                bare.push(format!(
                    "src/store/{name}:{line}: {}",
                    &arg[..arg.len().min(60)]
                ));
            }
        }
        for name in &used {
            if !code.contains(&format!("const {name}: &str = statement!(")) {
                bare.push(format!(
                    "src/store/{name}: constant {name} not written with statement!"
                ));
            }
        }
    }
    assert!(calls > 100, "{calls} calls found");
    assert!(
        bare.is_empty(),
        "statements not registered:\n{}",
        bare.join("\n")
    );
}
