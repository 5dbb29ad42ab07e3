//! The sweeper and the outbox: time-outs announced in the channel, the console's server left to
//! the console, a gone channel, a locked database, and AI games that hold up no reminder.

use std::time::{Duration, Instant};

use breakthrough_bot::game::{GameId, GameState, Member, Place, TimeControl};
use breakthrough_bot::rules::{Color, Position};
use breakthrough_bot::store::Store;
use serde_json::json;
use sqlx::Row;

use super::{
    alice, bob, bot_on, bot_with, count_posts, database, embed_text, game_under_way, players,
    posted, service, set_deadline, start_with, unix_now, wait_outbox_empty, words, HERE,
};
use crate::common::fake_discord::{InteractionBuilder, CHANNEL_ID, GUILD_ID};
use crate::common::{fake_discord, overdue};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweeper_announces_a_time_out_in_the_channel() {
    let bot = start_with(true, &[("SWEEP_INTERVAL_SECS", "1")]).await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "a4-a3").await;
    bot.play(&bob(), "c2-c3").await;
    // alice's clock runs out: deadlines live in the database.
    let pool = sqlx::sqlite::SqlitePool::connect(&bot.db).await.unwrap();
    sqlx::query("UPDATE games SET deadline = 0 WHERE id = 1")
        .execute(&pool)
        .await
        .unwrap();
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let text = embed_text(posted.body.as_ref().unwrap());
    assert!(
        text.contains("White (bob) wins: alice ran out of time"),
        "{text}"
    );
    assert!(text.contains("Ratings"), "{text}");
    let store = bot.store().await;
    assert_eq!(
        store
            .game(GameId::new(1))
            .await
            .unwrap()
            .unwrap()
            .end_reason
            .map(|r| r.as_str()),
        Some("timeout")
    );
    bot.finish();
}

/// The console can share the bot's database: the bot's sweeper leaves the console's local server
/// alone (its clocks, challenges and AI replies are the console's), while it looks after its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweeper_leaves_the_console_server_to_the_console() {
    use breakthrough_bot::game::{ChallengeRef, Member, Place, LOCAL_SERVER};
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let local = Place::new(LOCAL_SERVER.get(), 1);
    let seeded = overdue::seed(
        &db,
        local,
        Member::new(fake_discord::BOT_USER_ID, "fake-bot"),
    )
    .await;
    // And a game of the bot's own server, as overdue.
    let ours = {
        let store = Store::open(&db).await.unwrap();
        let games = overdue::games_back_then(&store);
        let here = Place::new(GUILD_ID, CHANNEL_ID);
        let (zelda, yusuf) = (Member::new(9001, "zelda"), Member::new(9002, "yusuf"));
        let c = games
            .challenges
            .challenge(overdue::request(here, &zelda, &yusuf))
            .await
            .unwrap();
        let game = games
            .challenges
            .accept(&yusuf, ChallengeRef::Id(c.place, c.id))
            .await
            .unwrap()
            .game;
        store.close().await;
        game.id
    };
    let (fake, _process) = bot_on(&db).await;
    // The sweep that ends the bot's own game has looked at everything.
    let posted = fake.wait_channel_message(CHANNEL_ID).await;
    let text = embed_text(posted.body.as_ref().unwrap());
    assert!(text.contains("Aborted"), "{text}");
    let store = Store::open(&db).await.unwrap();
    assert_eq!(
        store.game(ours).await.unwrap().unwrap().state,
        GameState::Aborted
    );
    store.close().await;
    overdue::assert_untouched(&db, &seeded).await;
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

/// A post to a channel that is gone is dropped with a log line; the other channel's
/// announcement still arrives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_to_a_gone_channel_is_dropped_and_the_rest_arrive() {
    let gone = CHANNEL_ID + 1;
    let (_dir, db) = database();
    let (alice, bob, carol, dave) = players();
    let (store, games) = service(&db).await;
    let there = Place::new(GUILD_ID, gone);
    let first = game_under_way(&games, there, &alice, &bob).await;
    let second = game_under_way(&games, HERE, &carol, &dave).await;
    store.close().await;
    set_deadline(&db, first, unix_now() - 10).await;
    set_deadline(&db, second, unix_now() - 10).await;
    let (fake, bot) = bot_with(&db, &[], |fake| {
        fake.stub(
            "POST",
            &format!("/channels/{gone}/messages"),
            404,
            Some(json!({"message": "Unknown Channel", "code": 10003})),
        );
    })
    .await;
    let post = fake.wait_channel_message(CHANNEL_ID).await;
    assert!(
        words(&post).contains("carol ran out of time"),
        "{}",
        words(&post)
    );
    wait_outbox_empty(&db).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        fake.channel_messages(gone).len(),
        1,
        "tried once, then dropped"
    );
    let log = bot.log();
    assert!(
        log.contains("dropping an announcement Discord will not accept"),
        "{log}"
    );
}

/// Another process holds the database's write lock while reminders and time-outs fall due:
/// once it lets go, everything is posted, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_database_delays_the_sweep_and_loses_nothing() {
    use sqlx::Connection;
    let (_dir, db) = database();
    let (alice, bob, carol, dave) = players();
    let (store, games) = service(&db).await;
    let lost = game_under_way(&games, HERE, &alice, &bob).await;
    let reminded = game_under_way(&games, HERE, &carol, &dave).await;
    store.close().await;
    let (fake, _bot) = bot_with(&db, &[], |_| {}).await;
    fake.wait_for_commands(Some(GUILD_ID)).await;
    // Both games fall due two seconds from now, while the lock is held: alice's time-out (she
    // was reminded earlier) and carol's reminder.
    let mut lock = sqlx::sqlite::SqliteConnection::connect(&db).await.unwrap();
    let soon = unix_now() + 2;
    for (id, deadline, reminded) in [(lost, soon, 1), (reminded, soon + 720, 0)] {
        sqlx::query("UPDATE games SET deadline = ?, reminded = ? WHERE id = ?")
            .bind(deadline)
            .bind(reminded)
            .bind(id.get())
            .execute(&mut lock)
            .await
            .unwrap();
    }
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut lock)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1800)).await;
    sqlx::query("COMMIT").execute(&mut lock).await.unwrap();
    lock.close().await.unwrap();
    fake.wait_for_n("two posts", 2, Duration::from_secs(10), |r| {
        posted(r, CHANNEL_ID)
    })
    .await;
    wait_outbox_empty(&db).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(count_posts(&fake, CHANNEL_ID, "alice ran out of time"), 1);
    let reminder = format!("your move in game #{reminded}");
    assert_eq!(count_posts(&fake, CHANNEL_ID, &reminder), 1, "{reminder}");
    assert_eq!(fake.channel_messages(CHANNEL_ID).len(), 2);
}

/// One member plays three level-5 AI games as fast as they can (and a restart left all
/// three waiting for the AI): a reminder in another server is still posted within a sweep
/// interval of falling due.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_games_do_not_hold_up_another_servers_reminder() {
    use breakthrough_bot::engine::Level;
    use breakthrough_bot::game::AiRequest;
    let elsewhere = Place::new(GUILD_ID + 1, CHANNEL_ID + 1);
    let (_dir, db) = database();
    let (alice, _, carol, dave) = players();
    let (store, games) = service(&db).await;
    let mut ai_games = Vec::new();
    for _ in 0..3 {
        let g = games
            .challenges
            .challenge_ai(AiRequest {
                place: HERE,
                challenger: alice.clone(),
                ai: Member::new(fake_discord::BOT_USER_ID, "fake-bot"),
                level: Level::new(5).unwrap().into(),
                size: "8x8".parse().unwrap(),
                color: Some(Color::White),
                time: TimeControl::OneHour,
                reach: breakthrough_bot::game::Reach::Posts,
            })
            .await
            .unwrap();
        ai_games.push(g.id);
    }
    let reminded = game_under_way(&games, elsewhere, &carol, &dave).await;
    store.close().await;
    let pool = sqlx::sqlite::SqlitePool::connect(&db).await.unwrap();
    // The AI's turns began a minute ago.
    sqlx::query("UPDATE games SET deadline = deadline - 60 WHERE ai_level IS NOT NULL")
        .execute(&pool)
        .await
        .unwrap();
    let (fake, _bot) = bot_with(&db, &[], |_| {}).await;
    fake.wait_for_commands(Some(GUILD_ID)).await;
    let due = unix_now() + 3;
    set_deadline(&db, reminded, due + 720).await;
    let mut sent: Vec<(GameId, i64)> = Vec::new();
    let limit = Instant::now() + Duration::from_secs(15);
    let mut posted_at = None;
    // Until the reminder is posted and the AI has answered alice at least once (on a slow
    // or busy machine its first answer may come after the reminder is due).
    let posted_at = loop {
        if posted_at.is_none()
            && fake
                .channel_messages(elsewhere.channel.get())
                .iter()
                .any(|r| posted(r, elsewhere.channel.get()))
        {
            posted_at = Some(unix_now_f64());
        }
        if let Some(at) = posted_at.filter(|_| !sent.is_empty()) {
            break at;
        }
        assert!(
            Instant::now() < limit,
            "the reminder was never posted, or alice never got to move"
        );
        // alice (White) moves wherever it is her turn.
        for &id in &ai_games {
            let row = sqlx::query("SELECT ply, position, state FROM games WHERE id = ?")
                .bind(id.get())
                .fetch_one(&pool)
                .await
                .unwrap();
            let (ply, position, state): (i64, String, String) =
                (row.get(0), row.get(1), row.get(2));
            if state != "active" || ply % 2 == 0 || sent.contains(&(id, ply)) {
                continue;
            }
            let position: Position = position.parse().unwrap();
            let mv = position.legal_moves()[0].to_string();
            fake.send_interaction(
                InteractionBuilder::slash("move")
                    .by(&super::alice())
                    .string("move", &mv)
                    .integer("game", id.get()),
            )
            .await;
            sent.push((id, ply));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    pool.close().await;
    let late = posted_at - due as f64;
    assert!(late <= 1.5, "posted {late:.2} s after it was due");
}

fn unix_now_f64() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}
