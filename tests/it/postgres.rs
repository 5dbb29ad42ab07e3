//! PostgreSQL on its own: the throwaway cluster the tests start for themselves answers, and is
//! the tests' own (see `common::postgres`); shard leases; start-up that cannot reach it, or
//! finds no room for its connections; a database an earlier version made, upgraded in place.

use crate::common::postgres;

#[tokio::test]
async fn the_tests_start_a_postgresql_cluster_of_their_own_and_it_answers() {
    let Some(cluster) = postgres::cluster() else {
        return;
    };
    let url = cluster.database().await;
    let pool = sqlx::PgPool::connect(&url).await.expect("connect");
    let (one, version): (i32, String) = sqlx::query_as("SELECT 1, version()")
        .fetch_one(&pool)
        .await
        .expect("a query");
    assert_eq!(one, 1);
    assert!(version.starts_with("PostgreSQL "), "{version}");
    // Each test has a database of its own.
    let other = cluster.database().await;
    assert_ne!(url, other);
    pool.close().await;
}

/// Shard leases: a shard is served by one process at a time; a second claim names the holder;
/// a stopped process's shards are free at once, a dead one's once its lease has run out, and a
/// process whose lease was taken over learns it at its next renewal.
#[tokio::test]
async fn a_shard_is_leased_to_one_process_and_taken_over_once_its_lease_runs_out() {
    use breakthrough_bot::domain::Shards;
    use breakthrough_bot::store::{Store, StoreError};
    use std::time::Duration;

    let Some(cluster) = postgres::cluster() else {
        return;
    };
    let url = cluster.database().await;
    let (a, b) = (
        Store::open(&url).await.unwrap(),
        Store::open(&url).await.unwrap(),
    );
    let two = |first, last| {
        Some(Shards {
            count: 2,
            first,
            last,
        })
    };
    let long = Duration::from_secs(30);
    a.claim_shards(two(0, 0), "process A", long).await.unwrap();
    // Shard 0 is A's; a process for every shard overlaps it too.
    for (shards, shard) in [(two(0, 1), "0 of 2"), (None, "0 of 2")] {
        match b.claim_shards(shards, "process B", long).await {
            Err(StoreError::ShardsHeld { holder, shard: s }) => {
                assert_eq!((holder.as_str(), s.as_str()), ("process A", shard));
            }
            other => panic!("expected ShardsHeld, got {other:?}"),
        }
    }
    let refused = b
        .claim_shards(two(0, 0), "process B", long)
        .await
        .unwrap_err();
    assert!(
        refused.to_string().starts_with(
            "another bot process serves shard 0 of 2 of this database (process A): stop it first"
        ),
        "{refused}"
    );
    // Shard 1 is free beside it.
    b.claim_shards(two(1, 1), "process B", long).await.unwrap();
    b.renew_shards(two(1, 1), "process B", long).await.unwrap();
    // A stops: its shard is free at once.
    a.release_shards("process A").await.unwrap();
    b.release_shards("process B").await.unwrap();
    // C is open before B's short lease begins: its opening is not what runs the lease out.
    let c = Store::open(&url).await.unwrap();
    b.claim_shards(two(0, 1), "process B", Duration::from_millis(300))
        .await
        .unwrap();
    // B dies (it stops renewing): its lease runs out, then C takes both shards over.
    assert!(matches!(
        c.claim_shards(two(1, 1), "process C", long).await,
        Err(StoreError::ShardsHeld { .. })
    ));
    tokio::time::sleep(Duration::from_millis(400)).await;
    c.claim_shards(two(0, 1), "process C", long).await.unwrap();
    // B, were it only slow, finds out at its next renewal.
    assert!(matches!(
        b.renew_shards(two(0, 1), "process B", long).await,
        Err(StoreError::LeaseLost)
    ));
    c.renew_shards(two(0, 1), "process C", long).await.unwrap();
    for s in [a, b, c] {
        s.close().await;
    }
}

/// A process opens all its connections at start-up: where PostgreSQL has no room for them all,
/// start-up ends with one line saying how many it got and what to change, rather than the bot
/// starting and failing later, under load; with room, they are all open before it serves.
#[test]
fn a_postgresql_without_room_for_the_connections_of_a_process_says_so_at_start_up() {
    use breakthrough_bot::store::{Store, POSTGRES_CONNECTIONS};

    let Some(cluster) = postgres::cluster() else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let url = runtime.block_on(cluster.database());
    let name = url.rsplit('/').next().unwrap().to_string();
    // Connection limits do not hold for superusers: the bot connects as a role of its own, which
    // owns the database and may open 5 connections to it.
    let role = format!("{name}_bot");
    runtime.block_on(async {
        let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
            .await
            .unwrap();
        let setup = format!(
            "CREATE ROLE {role} LOGIN CONNECTION LIMIT 5; ALTER DATABASE {name} OWNER TO {role}"
        );
        sqlx::raw_sql(sqlx::AssertSqlSafe(setup))
            .execute(&mut admin)
            .await
            .unwrap();
    });
    let limited = url.replacen("postgres://postgres@", &format!("postgres://{role}@"), 1);
    let line = start_up_failure(&limited);
    let line = line.as_str();
    let at = limited.rsplit('@').next().unwrap();
    let (opened, rest) = line
        .strip_prefix(&format!("error: PostgreSQL at {at} let this process open "))
        .and_then(|rest| rest.split_once(' '))
        .unwrap_or_else(|| panic!("{line}"));
    // Connections opened at once may turn each other away: at most the limit got in.
    let opened: u32 = opened.parse().unwrap_or_else(|_| panic!("{line}"));
    assert!((1..=5).contains(&opened), "{line}");
    assert_eq!(
        rest,
        format!(
            "of the {POSTGRES_CONNECTIONS} connections it keeps (too many connections for role \
             \"{role}\"): raise PostgreSQL's max_connections (or the role's or database's \
             connection limit), or run fewer bot processes on it"
        )
    );

    // With room for them, every connection is open once the store is.
    runtime.block_on(async {
        let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
            .await
            .unwrap();
        let count = format!("SELECT count(*) FROM pg_stat_activity WHERE usename = '{role}'");
        let open = || sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(count.clone()));
        // The refused process's connections are gone with it (their server processes end a
        // moment after it).
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while open().fetch_one(&mut admin).await.unwrap() > 0 {
            assert!(
                std::time::Instant::now() < until,
                "its connections are still open"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let raise = format!("ALTER ROLE {role} CONNECTION LIMIT {POSTGRES_CONNECTIONS}");
        sqlx::raw_sql(sqlx::AssertSqlSafe(raise))
            .execute(&mut admin)
            .await
            .unwrap();
        let store = Store::open(&limited).await.unwrap();
        assert_eq!(
            open().fetch_one(&mut admin).await.unwrap(),
            i64::from(POSTGRES_CONNECTIONS)
        );
        store.close().await;
    });
}

/// A PostgreSQL that cannot be reached, or that refuses the bot, ends start-up with one line
/// saying where and why, without the URL's password.
#[test]
fn an_unreachable_or_refusing_postgresql_says_where_and_why_at_start_up() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap();
    let mut cases = vec![(
        format!("postgres://bot:secret@127.0.0.1:{closed}/games"),
        format!("cannot connect to PostgreSQL at 127.0.0.1:{closed}/games: "),
        "Connection refused",
    )];
    if let Some(cluster) = postgres::cluster() {
        let url = tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(cluster.database());
        let refused = url.replacen("postgres://postgres@", "postgres://nobody:secret@", 1);
        let at = refused.rsplit('@').next().unwrap().to_string();
        cases.push((
            refused,
            format!("cannot connect to PostgreSQL at {at}: "),
            "role \"nobody\" does not exist",
        ));
    }
    for (url, begins, why) in cases {
        let line = start_up_failure(&url);
        let line = line.as_str();
        assert!(line.starts_with(&format!("error: {begins}")), "{line}");
        assert!(line.contains(why), "{line}");
        assert!(
            !line.contains("secret") && line.lines().count() == 1,
            "{line}"
        );
    }
}

/// What the bot, started on the database of `url`, says on stderr as it gives up (exit code 1).
fn start_up_failure(url: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_breakthrough-bot"))
        .args(["console", "--db", url])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    stderr.trim().to_string()
}

/// A database made by an earlier version, when each game's move was recorded by a trigger run of
/// its own, is upgraded in place when the bot starts on it: the moves made before are kept, the
/// moves made after are recorded at their plies, and writes that move no game record nothing.
#[tokio::test]
async fn a_database_from_before_moves_were_recorded_per_statement_keeps_its_history() {
    use breakthrough_bot::domain::GameId;
    use breakthrough_bot::store::Store;
    use sqlx::Connection;

    let Some(cluster) = postgres::cluster() else {
        return;
    };
    let url = cluster.database().await;
    let mut old = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::migrate!("./migrations/postgres")
        .run_to(1, &mut old)
        .await
        .unwrap();
    let exec = |sql: &'static str| sqlx::raw_sql(sql);
    exec(
        "INSERT INTO members (id, created_at) VALUES (1, 0), (2, 0), (3, 0), (4, 0);
         INSERT INTO games (id, guild_id, channel_id, black_id, white_id, size, time_limit, rated,
                            position, deadline, created_at)
         VALUES (1, 1, 1, 1, 2, '3x5', 86400, 0, 'p0', 0, 0),
                (2, 1, 1, 3, 4, '3x5', 86400, 0, 'q0', 0, 0);
         UPDATE games SET ply = 1, position = 'p1', last_move = 'a4-a3', last_move_at = 10
         WHERE id = 1;",
    )
    .execute(&mut old)
    .await
    .unwrap();
    old.close().await.unwrap();

    // The bot's store brings the schema up to date.
    let store = Store::open(&url).await.unwrap();
    store.close().await;
    let mut new = sqlx::PgConnection::connect(&url).await.unwrap();
    exec(
        "UPDATE games SET ply = ply + 1, position = position || 'x', last_move = 'c2-c3',
                          last_move_at = 20
         WHERE id IN (1, 2);
         UPDATE games SET reminded = 1;",
    )
    .execute(&mut new)
    .await
    .unwrap();
    new.close().await.unwrap();

    let store = Store::open(&url).await.unwrap();
    let history = |rows: Vec<breakthrough_bot::store::MoveRow>| {
        rows.into_iter()
            .map(|m| (m.ply, m.notation, m.played_at.unix_seconds()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        history(store.moves(GameId::new(1)).await.unwrap()),
        [(0, "a4-a3".to_string(), 10), (1, "c2-c3".to_string(), 20)]
    );
    assert_eq!(
        history(store.moves(GameId::new(2)).await.unwrap()),
        [(0, "c2-c3".to_string(), 20)]
    );
    store.close().await;
}
