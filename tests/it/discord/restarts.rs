//! The bot stopped and started again: clocks stop while it is down, a kill in a burst of
//! endings loses nothing, and two processes split the servers by shard.

use std::time::{Duration, Instant};

use breakthrough_bot::game::{GameId, GameState, Member};
use breakthrough_bot::rules::{MoveText, Position};
use breakthrough_bot::store::Store;
use sqlx::Row;

use super::{
    bot_with, database, embed_text, game_under_way, is_ephemeral, players, posted, scalar, service,
    set_deadline, unix_now, words, HERE,
};
use crate::common::fake_discord::{
    FakeDiscord, InteractionBuilder, RecordedRequest, CHANNEL_ID, GUILD_ID,
};

/// The bot is stopped for three hours, longer than the game's hour per move: after the
/// restart nobody has lost on time, and the deadline moved on by the time it was away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_stop_while_the_bot_is_down() {
    let (_dir, db) = database();
    let (alice, bob, _, _) = players();
    let (store, games) = service(&db).await;
    let id = game_under_way(&games, HERE, &alice, &bob).await;
    store.close().await;
    {
        let (fake, bot) = bot_with(&db, &[], |_| {}).await;
        fake.wait_for_commands(Some(GUILD_ID)).await;
        let deadline = Instant::now() + Duration::from_secs(10);
        while scalar(&db, "SELECT count(*) FROM alive").await == 0 {
            assert!(Instant::now() < deadline, "the bot never said it was alive");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        bot.kill();
    }
    // While it was away: three hours passed, and with them the game's deadline.
    let pool = sqlx::sqlite::SqlitePool::connect(&db).await.unwrap();
    sqlx::query("UPDATE alive SET seen_at = seen_at - 10800")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let old_deadline = unix_now() - 60;
    set_deadline(&db, id, old_deadline).await;
    let (fake, _bot) = bot_with(&db, &[], |_| {}).await;
    fake.wait_for_commands(Some(GUILD_ID)).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while scalar(&db, "SELECT min(seen_at) FROM alive").await < unix_now() - 60 {
        assert!(Instant::now() < deadline, "the bot never said it was back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    fake.assert_no_request("a time-out post", Duration::from_millis(1500), |r| {
        r.path.starts_with("/channels/")
    })
    .await;
    let store = Store::open(&db).await.unwrap();
    let game = store.game(id).await.unwrap().unwrap();
    assert_eq!(game.state, GameState::Active);
    assert!(
        game.deadline.unix_seconds() >= old_deadline + 10800,
        "deadline {:?} was {old_deadline}",
        game.deadline
    );
}

/// A stored game's moves replay to its stored position.
async fn assert_replays(store: &Store, id: GameId) {
    let row = store.game(id).await.unwrap().unwrap();
    let mut position = Position::new(row.size);
    for m in store.moves(id).await.unwrap() {
        let mv = m
            .notation
            .parse::<MoveText>()
            .unwrap()
            .resolve(&position)
            .unwrap();
        position = position.play(mv).unwrap();
    }
    assert_eq!(position.to_string(), row.position, "game {id}");
}

/// kill -9 while 32 rated games end on time and members' moves come in; after a restart,
/// every game replays to its position, every rating counts its rating changes, every
/// acknowledged move is there, and every owed announcement is posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_in_a_burst_of_endings_loses_nothing() {
    let (_dir, db) = database();
    let (store, games) = service(&db).await;
    let mut ending = Vec::new();
    for i in 0..32u64 {
        let black = Member::new(400_000_000_000_000_000 + 2 * i, format!("b{i}"));
        let white = Member::new(400_000_000_000_000_001 + 2 * i, format!("w{i}"));
        ending.push(game_under_way(&games, HERE, &black, &white).await);
    }
    let (alice, bob, carol, dave) = players();
    let moving = [
        game_under_way(&games, HERE, &alice, &bob).await,
        game_under_way(&games, HERE, &carol, &dave).await,
    ];
    store.close().await;
    for &id in &ending {
        set_deadline(&db, id, unix_now() - 60).await;
    }
    let (fake, bot) = bot_with(&db, &[], |_| {}).await;
    fake.wait_for_commands(Some(GUILD_ID)).await;
    // Black (alice, carol) moves in both games while the endings are written; the bot is
    // killed a few endings in.
    let mut sent = Vec::new();
    for (&id, who) in moving.iter().zip([super::alice(), super::carol()]) {
        let move_ = fake
            .send_interaction(
                InteractionBuilder::slash("move")
                    .by(&who)
                    .string("move", "b4-b3")
                    .integer("game", id.get()),
            )
            .await;
        sent.push((id, move_.id));
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while scalar(&db, "SELECT count(*) FROM games WHERE state = 'finished'").await < 4 {
        assert!(Instant::now() < deadline, "no game ended");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    bot.kill();
    // A move is acknowledged when the bot answered it with the board.
    let acknowledged: Vec<(GameId, &str)> = sent
        .iter()
        .filter(|(_, interaction)| {
            fake.requests().iter().any(|r| {
                r.path.starts_with(&format!("/interactions/{interaction}/"))
                    && r.status == 204
                    && r.body.as_ref().is_some_and(|b| !is_ephemeral(b))
            })
        })
        .map(|&(id, _)| (id, "b4-b3"))
        .collect();
    let before: Vec<RecordedRequest> = fake.requests();
    drop(fake);

    let (fake, _bot) = bot_with(&db, &[], |_| {}).await;
    fake.wait_for_commands(Some(GUILD_ID)).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let finished = scalar(&db, "SELECT count(*) FROM games WHERE state = 'finished'").await;
        let queued = scalar(&db, "SELECT count(*) FROM outbox").await;
        if finished == 32 && queued == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{finished} finished, {queued} queued"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let store = Store::open(&db).await.unwrap();
    for id in ending.iter().chain(&moving) {
        assert_replays(&store, *id).await;
    }
    for (id, mv) in acknowledged {
        let moves = store.moves(id).await.unwrap();
        assert_eq!(
            moves.get(2).map(|m| m.notation.as_str()),
            Some(mv),
            "game {id}"
        );
    }
    let pool = sqlx::sqlite::SqlitePool::connect(&db).await.unwrap();
    for row in sqlx::query("SELECT guild_id, member_id, size, games FROM ratings")
        .fetch_all(&pool)
        .await
        .unwrap()
    {
        let (guild, member, size, games): (i64, i64, String, i64) =
            (row.get(0), row.get(1), row.get(2), row.get(3));
        let changes: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM rating_changes rc JOIN games g ON g.id = rc.game_id
             WHERE g.guild_id = ? AND g.size = ? AND (g.black_id = ?3 OR g.white_id = ?3)",
        )
        .bind(guild)
        .bind(&size)
        .bind(member)
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(games, changes, "member {member}");
    }
    pool.close().await;
    // Every ending announced; at most the one post in flight at the kill twice, with the
    // same nonce (Discord keeps one of the two).
    let mut all = before;
    all.extend(fake.requests());
    let mut twice = 0;
    for i in 0..32 {
        let posts: Vec<&RecordedRequest> = all
            .iter()
            .filter(|r| {
                posted(r, CHANNEL_ID) && words(r).contains(&format!("b{i} ran out of time"))
            })
            .collect();
        assert!(!posts.is_empty(), "game of b{i} never announced");
        if posts.len() > 1 {
            twice += 1;
            assert_eq!(posts[0].at("/nonce"), posts[1].at("/nonce"));
        }
    }
    assert!(twice <= 1, "{twice} announcements posted twice");
}

/// Two bot processes on one database, shard 0 and shard 1 of 2, each against the gateway of its
/// own shards: each ends and announces only the games of its own servers. A third process that
/// claims a shard already held refuses to start and names the holder; once the holder is killed,
/// its replacement starts at once and takes its games over. Nothing is posted twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_split_the_servers_by_shard_and_a_replacement_takes_over() {
    use breakthrough_bot::game::{Member, Place, Shards};
    use std::time::Duration;

    // GUILD_ID is on shard 1 of 2; this server on shard 0.
    let there = Place::new(900_000_000_004_194_314, 31);
    let here = Place::new(GUILD_ID, CHANNEL_ID);
    assert_eq!(
        (Shards::of(there.guild, 2), Shards::of(here.guild, 2)),
        (0, 1)
    );
    let (_dir, db) = database();
    let (store, games) = service(&db).await;
    let (a, b) = (Member::new(401, "ann"), Member::new(402, "ben"));
    let (c, d) = (Member::new(403, "cid"), Member::new(404, "dee"));
    let on_0 = game_under_way(&games, there, &a, &b).await;
    let on_1 = game_under_way(&games, here, &c, &d).await;
    store.close().await;
    for id in [on_0, on_1] {
        set_deadline(&db, id, unix_now() - 60).await;
    }
    let shard = |n: &'static str| [("SHARD_COUNT", "2"), ("SHARDS", n)];
    let (fake0, _p0) = bot_with(&db, &shard("0"), |f| f.set_shard_count(2)).await;
    let (fake1, p1) = bot_with(&db, &shard("1"), |f| f.set_shard_count(2)).await;
    fake0.wait_for_commands(Some(GUILD_ID)).await;
    fake1.wait_for_commands(Some(GUILD_ID)).await;
    async fn lost(fake: &FakeDiscord, channel: u64) -> String {
        let posted = fake.wait_channel_message(channel).await;
        embed_text(posted.body.as_ref().unwrap())
    }
    assert!(lost(&fake0, there.channel.get())
        .await
        .contains("ann ran out of time"));
    assert!(lost(&fake1, CHANNEL_ID)
        .await
        .contains("cid ran out of time"));

    // A second process for shard 1 refuses, naming the first.
    let (fake_x, px) = bot_with(&db, &shard("1"), |f| f.set_shard_count(2)).await;
    let status = px.wait_exit(Duration::from_secs(20)).expect("it stops");
    assert!(!status.success());
    let log = px.log();
    assert!(log.contains("shard-1-of-2"), "{log}");
    assert!(log.contains(&format!("process {}", p1.id())), "{log}");
    drop(fake_x);

    // Shard 1's process dies; a game of its server runs out of time meanwhile; the replacement
    // starts at once and ends it.
    p1.kill();
    let (store, games) = service(&db).await;
    let (e, f) = (Member::new(405, "eve"), Member::new(406, "fay"));
    let later = game_under_way(&games, here, &e, &f).await;
    store.close().await;
    set_deadline(&db, later, unix_now() - 60).await;
    let (fake2, _p2) = bot_with(&db, &shard("1"), |f| f.set_shard_count(2)).await;
    fake2.wait_for_commands(Some(GUILD_ID)).await;
    assert!(lost(&fake2, CHANNEL_ID)
        .await
        .contains("eve ran out of time"));
    // Each announcement was posted once, by its own shard's process.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let posts = |fake: &FakeDiscord, channel: u64| {
        fake.requests_to("POST", &format!("/channels/{channel}/messages"))
            .len()
    };
    assert_eq!(posts(&fake0, there.channel.get()), 1);
    assert_eq!(posts(&fake0, CHANNEL_ID), 0);
    assert_eq!(posts(&fake1, CHANNEL_ID), 1);
    assert_eq!(posts(&fake1, there.channel.get()), 0);
    assert_eq!(posts(&fake2, CHANNEL_ID), 1);
    fake0.assert_spec_ok();
    fake2.assert_spec_ok();
}
