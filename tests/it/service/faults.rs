//! The store failing: writes cut off half way, a full disk, dropped PostgreSQL connections,
//! row locks and deadlocks with another writer, and a stored value that does not read back.

use breakthrough_bot::game::{
    Error, Failure, GameId, GameRef, Limits, Member, MemberId, PlayRefusal, Services,
};
use breakthrough_bot::i18n::Lang;
use breakthrough_bot::store::Store;
use breakthrough_bot::text::AnyError;
use breakthrough_bot::text::Plain;

use super::{
    alice, bob, carol, play_all, refused, request, started, started_between, world, PLACE, T0,
};
use crate::common::db::{execute, execute_unchecked, Backend};

pub(super) async fn a_write_cut_off_half_way_changes_nothing_and_holds_up_no_one(b: Backend) {
    let w = world(b).await;
    // A request dropped in the middle of its transaction (a caller that stopped waiting).
    let mut tx = w.store.begin().await.unwrap();
    tx.upsert_member(PLACE.guild, MemberId::new(4242), "ghost", T0)
        .await
        .unwrap();
    drop(tx);

    // Another process can write: the database's write lock was let go (it would otherwise
    // refuse after its busy timeout).
    let other = Store::open(&w.url).await.unwrap();
    let mut tx = other.begin().await.unwrap();
    tx.upsert_member(PLACE.guild, MemberId::new(4343), "elsewhere", T0)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    // This process goes on writing, and only the committed change is there.
    started(&w).await;
    assert_eq!(
        w.store
            .member_name(PLACE.guild, MemberId::new(4242))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        w.store
            .member_name(PLACE.guild, MemberId::new(4343))
            .await
            .unwrap()
            .as_deref(),
        Some("elsewhere")
    );
    other.close().await;
}

/// SQLite only: its size cap stands in for a full disk. PostgreSQL's disk cannot be filled from a
/// test without a file system of the test's own; its `disk_full` error is read the same way
/// (`StoreError::is_full`).
#[tokio::test]
async fn a_full_disk_refuses_clearly_changes_nothing_and_service_comes_back() {
    use sqlx::Connection;
    let w = world(Backend::Sqlite).await;
    let id = started(&w).await;
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .expect("a move with room");
    // The database may not grow any more: challenges keep coming until one needs a new page.
    w.store
        .limit_size(1)
        .await
        .expect("cap the size")
        .expect("SQLite");
    let challenger = |i: u64| Member::new(5_000 + i, format!("m{i}"));
    let mut refused = None;
    for i in 0..2_000 {
        match w
            .games
            .challenges
            .challenge(request(&challenger(i), Some(&carol()), "8x8"))
            .await
        {
            Ok(_) => {}
            Err(e) => {
                refused = Some((i, e));
                break;
            }
        }
    }
    let (i, e) = refused.expect("the full database refused a write");
    assert!(matches!(e, Error::Failed(Failure::StorageFull)), "{e:?}");
    // A readiness check says so until a write commits again.
    let answer = w.games.database_answers().await;
    assert!(matches!(answer, Err(Failure::StorageFull)), "{answer:?}");
    assert_eq!(
        e.to_string(),
        "the bot's storage is full, so nothing was changed: please tell the server's admin, and \
         try again later"
    );
    // Nothing of the refused challenge is kept, and the file is sound.
    assert!(w
        .store
        .challenges_by(PLACE.guild, MemberId::new(5_000 + i))
        .await
        .unwrap()
        .is_empty());
    let mut check = sqlx::SqliteConnection::connect(&w.url).await.unwrap();
    let verdict: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut check)
        .await
        .unwrap();
    assert_eq!(verdict, "ok");
    check.close().await.unwrap();
    // Space freed: the same challenge and the game go on.
    w.store
        .limit_size(1 << 30)
        .await
        .expect("lift the cap")
        .expect("SQLite");
    w.games
        .challenges
        .challenge(request(&challenger(i), Some(&carol()), "8x8"))
        .await
        .expect("the same challenge once there is room");
    w.games
        .database_answers()
        .await
        .expect("ready once a write committed");
    let played = w
        .games
        .play
        .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
        .await
        .expect("the game goes on");
    assert_eq!(played.game.ply, 2);
}

/// PostgreSQL only: the server drops every connection of the bot (a restart, a fail-over, an
/// admin's `pg_terminate_backend`). A connection in use a moment before is trusted, so the first
/// request after the drop may fail; its member is told to try again in a moment, nothing of it
/// is kept, and every later request
/// gets a connection that works. A connection unused for a second is checked before it is used,
/// so after a quiet second no request fails at all, writes and reads alike.
#[tokio::test]
async fn connections_postgresql_dropped_cost_at_most_one_request_and_keep_nothing_of_it() {
    use std::time::Duration;
    if crate::common::postgres::cluster().is_none() {
        return;
    }
    const DROP_ALL: &str = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                            WHERE datname = current_database() AND pid <> pg_backend_pid()";
    let w = world(Backend::Postgres).await;
    let id = started(&w).await;
    w.games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
        .await
        .expect("a move before the drop");
    execute(&w.url, DROP_ALL, &[]).await;
    let mut failed = 0;
    let played = loop {
        match w
            .games
            .play
            .play(&bob(), PLACE, GameRef::Id(id), "c2-c3")
            .await
        {
            Ok(played) => break played,
            Err(e) => {
                failed += 1;
                assert!(failed <= 1, "a second request failed too: {e:?}");
                assert!(matches!(e, Error::Failed(Failure::Unavailable(_))), "{e:?}");
                assert_eq!(
                    e.localized(Lang::En, &Plain),
                    "the bot cannot reach its database just now, so nothing was changed: please \
                     try again in a moment"
                );
                let game = w.store.game(id).await.unwrap().expect("the game");
                assert_eq!(game.ply, 1, "the failed move was not kept");
            }
        }
    };
    assert_eq!(played.game.ply, 2);

    // After a quiet second, a drop costs nothing: each connection is checked before use.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    execute(&w.url, DROP_ALL, &[]).await;
    let played = w
        .games
        .play
        .play(&alice(), PLACE, GameRef::Id(id), "b4-b3")
        .await
        .expect("the first move after a quiet second and a drop");
    assert_eq!(played.game.ply, 3);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    execute(&w.url, DROP_ALL, &[]).await;
    let moves = w
        .store
        .moves(id)
        .await
        .expect("the first read after a drop");
    assert_eq!(
        moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>(),
        ["a4-a3", "c2-c3", "b4-b3"]
    );
}

/// PostgreSQL only: moves that wait for game rows another process holds are checked against what
/// that process left. The move it made stale meanwhile is turned away alone; the other applies.
#[tokio::test]
async fn moves_waiting_for_rows_another_process_holds_are_checked_against_what_it_left() {
    use sqlx::Connection;
    use std::time::Duration;
    if crate::common::postgres::cluster().is_none() {
        return;
    }
    let w = world(Backend::Postgres).await;
    let stale = started(&w).await;
    let fresh = started_between(&w, &carol(), &alice()).await;
    play_all(&w, stale, &["a4-a3"]).await;
    let size = w.games.play.game(stale).await.unwrap().size;

    let mut other = sqlx::PgConnection::connect(&w.url).await.expect("connect");
    let mut tx = other.begin().await.expect("begin");
    sqlx::query("SELECT id FROM games WHERE id IN ($1, $2) FOR UPDATE")
        .bind(stale.get())
        .bind(fresh.get())
        .fetch_all(&mut *tx)
        .await
        .expect("lock both games");
    let play = |who: Member, id: GameId, mv: &'static str| {
        let games = w.games.clone();
        tokio::spawn(async move { games.play.play(&who, PLACE, GameRef::Id(id), mv).await })
    };
    let late = play(bob(), stale, "b2-b3");
    let on_time = play(carol(), fresh, "a4-a3");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !late.is_finished() && !on_time.is_finished(),
        "both wait for the rows"
    );

    // Meanwhile the other process moves for bob in the first game, then lets both rows go.
    let position = breakthrough_bot::rules::replay(size, ["a4-a3", "c2-c3"])
        .unwrap()
        .0;
    sqlx::query(
        "UPDATE games SET ply = 2, position = $1, last_move = 'c2-c3', last_move_at = $2
         WHERE id = $3",
    )
    .bind(position.to_string())
    .bind(T0.unix_seconds())
    .bind(stale.get())
    .execute(&mut *tx)
    .await
    .expect("the other process's move");
    tx.commit().await.expect("commit");

    refused!(late.await.unwrap(), PlayRefusal::PositionChanged);
    assert_eq!(on_time.await.unwrap().unwrap().game.ply, 1);
    assert_eq!(
        w.games.standings.history(PLACE, fresh).await.unwrap().moves,
        ["a4-a3"]
    );
    let h = w.games.standings.history(PLACE, stale).await.unwrap();
    assert_eq!(h.moves, ["a4-a3", "c2-c3"]);
    assert_eq!(h.game.position, position);
}

/// PostgreSQL only: a group of moves that deadlocks with another writer of the database (one
/// that holds a game of the group, then asks for another the group holds) is tried again, so no
/// move is lost and the other writer goes on as well.
#[tokio::test]
async fn a_group_of_moves_that_deadlocks_with_another_writer_is_tried_again() {
    use breakthrough_bot::store::POSTGRES_GROUPS_IN_FLIGHT;
    use sqlx::Connection;
    use std::time::{Duration, Instant};
    if crate::common::postgres::cluster().is_none() {
        return;
    }
    let w = world(Backend::Postgres).await;
    let busy: Vec<GameId> = {
        let mut ids = Vec::new();
        for _ in 0..POSTGRES_GROUPS_IN_FLIGHT {
            ids.push(started(&w).await);
        }
        ids
    };
    let (a, b) = (started(&w).await, started(&w).await);
    let play = |id: GameId| {
        let games = w.games.clone();
        tokio::spawn(async move {
            games
                .play
                .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
                .await
        })
    };

    // Every group in flight is held up on a `busy` game while the moves of `a` and `b` queue up
    // behind them.
    let mut watch = sqlx::PgConnection::connect(&w.url).await.expect("connect");
    let mut first = sqlx::PgConnection::connect(&w.url).await.expect("connect");
    let mut holds_busy = first.begin().await.expect("begin");
    sqlx::query("SELECT id FROM games WHERE id = ANY($1) FOR UPDATE")
        .bind(busy.iter().map(|id| id.get()).collect::<Vec<i64>>())
        .fetch_all(&mut *holds_busy)
        .await
        .expect("lock");
    let mut on_busy = Vec::new();
    for (n, &id) in busy.iter().enumerate() {
        on_busy.push((id, play(id)));
        waiting_for(
            &mut watch,
            &mut holds_busy,
            n as i64 + 1,
            "the moves of busy",
        )
        .await;
    }
    let (on_a, on_b) = (play(a), play(b));
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Another writer holds `b`; once `busy` is let go, the group of `a` and `b` takes `a`
    // and waits for `b`.
    let mut second = sqlx::PgConnection::connect(&w.url).await.expect("connect");
    // The backend that waits longest past its deadlock_timeout breaks the deadlock by aborting
    // its own statement: the other writer's is long, so on a busy machine it is still the
    // group's statement that is aborted, never this one.
    sqlx::query("SET deadlock_timeout = '30s'")
        .execute(&mut second)
        .await
        .expect("set deadlock_timeout");
    let mut other = second.begin().await.expect("begin");
    const TOUCH: &str = "UPDATE games SET reminded = reminded WHERE id = $1";
    sqlx::query(TOUCH)
        .bind(b.get())
        .execute(&mut *other)
        .await
        .expect("hold b");
    holds_busy.commit().await.expect("commit");
    waiting_for(&mut watch, &mut other, 1, "the group of a and b").await;

    // Now the other writer asks for `a`: a deadlock, which PostgreSQL breaks after a second by
    // aborting the group's statement (it has waited longer).
    let asked = Instant::now();
    sqlx::query(TOUCH)
        .bind(a.get())
        .execute(&mut *other)
        .await
        .expect("the other writer goes on");
    assert!(
        asked.elapsed() >= Duration::from_millis(500),
        "the other writer was held up by the group, not let through: {:?}",
        asked.elapsed()
    );
    other.commit().await.expect("commit");

    on_busy.extend([(a, on_a), (b, on_b)]);
    for (id, played) in on_busy {
        let played = played
            .await
            .unwrap()
            .unwrap_or_else(|e| panic!("{id}: {e:?}"));
        assert_eq!(played.game.ply, 1);
        assert_eq!(
            w.games.standings.history(PLACE, id).await.unwrap().moves,
            ["a4-a3"]
        );
    }
}

/// Waits until `n` statements of other connections wait for the transaction `tx` (PostgreSQL),
/// as `pg_locks` shows it, asked on `watch`; fails after 5 seconds, saying `who` never did.
async fn waiting_for(
    watch: &mut sqlx::PgConnection,
    tx: &mut sqlx::PgConnection,
    n: i64,
    who: &str,
) {
    use std::time::{Duration, Instant};
    let xid: String = sqlx::query_scalar("SELECT pg_current_xact_id()::xid::text")
        .fetch_one(&mut *tx)
        .await
        .expect("the transaction's id");
    let since = Instant::now();
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_locks
             WHERE NOT granted AND locktype = 'transactionid' AND transactionid::text = $1",
        )
        .bind(&xid)
        .fetch_one(&mut *watch)
        .await
        .expect("pg_locks");
        if waiting >= n {
            return;
        }
        assert!(
            since.elapsed() < Duration::from_secs(5),
            "{who} never waited"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A write transaction dropped before it commits (its request failed, or was cancelled half-way)
/// keeps nothing and holds up no one: another connection may write the same rows at once, and
/// the process's next write commits only its own.
pub(super) async fn a_write_transaction_dropped_half_way_keeps_nothing_and_holds_up_no_one(
    b: Backend,
) {
    use std::time::Duration;
    let w = world(b).await;
    started(&w).await;
    let dave = Member::new(1004, "dave");
    let mut tx = w.store.begin().await.unwrap();
    tx.upsert_member(PLACE.guild, alice().id, "ghost", T0)
        .await
        .unwrap();
    tx.upsert_member(PLACE.guild, dave.id, dave.name.as_str(), T0)
        .await
        .unwrap();
    drop(tx);
    // The row the dropped transaction changed is free for a writer elsewhere.
    tokio::time::timeout(
        Duration::from_secs(5),
        execute(
            &w.url,
            "UPDATE member_names SET name = name WHERE member_id = $1",
            &[1001],
        ),
    )
    .await
    .expect("another connection wrote alice's row within 5 s");
    tokio::time::timeout(
        Duration::from_secs(5),
        w.games
            .challenges
            .challenge(request(&alice(), Some(&carol()), "8x8")),
    )
    .await
    .expect("the next write went through within 5 s")
    .expect("alice challenges carol");
    let name = |id| w.store.member_name(PLACE.guild, id);
    assert_eq!(name(alice().id).await.unwrap().as_deref(), Some("alice"));
    assert_eq!(
        name(dave.id).await.unwrap(),
        None,
        "nothing of the dropped transaction is kept"
    );
}

pub(super) async fn a_stored_value_that_does_not_read_back_is_an_internal_error_not_a_panic(
    b: Backend,
) {
    let w = world(b).await;
    let id = started(&w).await;
    let c = w
        .games
        .challenges
        .challenge(request(&carol(), Some(&bob()), "3x5"))
        .await
        .unwrap();
    // A time limit that is no time control, and (past the schema's checks) a state no version
    // wrote.
    execute(
        &w.url,
        "UPDATE games SET time_limit = 1234 WHERE id = $1",
        &[id.get()],
    )
    .await;
    execute_unchecked(
        &w.url,
        "challenges",
        "UPDATE challenges SET state = 'paused' WHERE id = $1",
        &[c.id.get()],
    )
    .await;
    // A fresh service on the file, so no game is remembered from before.
    let store = Store::open(&w.url).await.unwrap();
    let games = Services::new(store.clone(), w.clock.clone(), Limits::default());
    for e in [
        AnyError::from(games.play.game(id).await.unwrap_err()),
        AnyError::from(
            games
                .play
                .play(&alice(), PLACE, GameRef::Id(id), "a4-a3")
                .await
                .unwrap_err(),
        ),
        AnyError::from(games.challenges.challenge_view(c.id).await.unwrap_err()),
    ] {
        assert!(e.is_internal(), "{e:?}");
        assert_eq!(
            e.to_string(),
            "something went wrong on our side; please try again"
        );
    }
    store.close().await;
}
