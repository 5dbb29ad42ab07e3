//! Discord failing: 5xx at start-up, 403, 404 and 401 that end it saying what to fix, gateway
//! drops, an answer window missed, 5xx and time-outs on posts, and a 429 on a post.

use std::time::{Duration, Instant};

use breakthrough_bot::game::GameId;
use breakthrough_bot::store::Store;

use super::{
    alice, answers_help, bob, bot_on, bot_with, count_posts, database, embed_text, exit_and_log,
    game_under_way, is_ephemeral, players, posted, service, set_deadline, start, unix_now,
    wait_outbox_empty, BOT, HERE,
};
use crate::common::fake_discord::{
    BotProcess, FakeDiscord, InteractionBuilder, StubAnswer, CHANNEL_ID, GUILD_ID,
};
use crate::common::{fake_discord, overdue};

/// A bot on a fresh database in the fake's server, not waited for.
fn spawn_on_fresh_db(fake: &FakeDiscord, dir: &tempfile::TempDir) -> BotProcess {
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let guild_id = GUILD_ID.to_string();
    BotProcess::spawn(
        BOT,
        fake,
        &[
            ("DATABASE_URL", db.as_str()),
            ("DISCORD_GUILD_ID", guild_id.as_str()),
        ],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transient_failures_at_start_up_are_retried_and_the_bot_serves() {
    let fake = FakeDiscord::start().await;
    fake.add_stub("GET", "/users/@me", StubAnswer::rate_limited(0.2).times(1));
    fake.add_stub(
        "PUT",
        "/applications/{app}/guilds/{guild}/commands",
        StubAnswer::server_error().times(2),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let _bot = spawn_on_fresh_db(&fake, &dir);
    fake.wait_for_commands(Some(GUILD_ID)).await;
    let puts: Vec<u16> = fake
        .requests_to("PUT", "/applications/")
        .iter()
        .map(|r| r.status)
        .collect();
    assert_eq!(puts, [500, 500, 200]);
    answers_help(&fake).await;
    fake.assert_spec_ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_the_bot_cannot_access_ends_start_up_saying_what_to_fix() {
    let fake = FakeDiscord::start().await;
    fake.add_stub(
        "PUT",
        "/applications/{app}/guilds/{guild}/commands",
        StubAnswer::missing_access(),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = spawn_on_fresh_db(&fake, &dir);
    let log = exit_and_log(&bot);
    assert!(
        log.contains(&format!(
            "error: the bot cannot access the server DISCORD_GUILD_ID={GUILD_ID} (403 Missing Access)"
        )),
        "{log}"
    );
    assert_eq!(fake.gateway_stats().connections, 0, "it went online anyway");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_server_ends_start_up_saying_what_to_fix() {
    let fake = FakeDiscord::start().await;
    fake.add_stub(
        "PUT",
        "/applications/{app}/guilds/{guild}/commands",
        StubAnswer::new(
            404,
            Some(serde_json::json!({"message": "Unknown Guild", "code": 10004})),
        ),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let log = exit_and_log(&spawn_on_fresh_db(&fake, &dir));
    assert!(
        log.contains(&format!(
            "error: Discord knows no server DISCORD_GUILD_ID={GUILD_ID}"
        )),
        "{log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_ends_start_up_saying_what_to_fix() {
    let fake = FakeDiscord::start().await;
    fake.add_stub("GET", "/users/@me", StubAnswer::unauthorized());
    let dir = tempfile::tempdir().expect("temp dir");
    let log = exit_and_log(&spawn_on_fresh_db(&fake, &dir));
    assert!(
        log.contains("error: Discord rejected DISCORD_TOKEN (401 Unauthorized)"),
        "{log}"
    );
    assert!(fake.requests_to("PUT", "/applications/").is_empty());
    assert_eq!(fake.gateway_stats().connections, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_gateway_drops_and_is_invalidated_commands_are_answered_and_results_posted_once()
{
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let (fake, _process) = bot_on(&db).await;
    fake.wait_for_commands(Some(GUILD_ID)).await;
    fake.wait_ready().await;
    fake.close_gateway_connection();
    fake.wait_gateway("the bot resumed", |g| g.resumes >= 1)
        .await;
    answers_help(&fake).await;
    fake.invalidate_session();
    fake.wait_gateway("a new READY", |g| g.readies >= 2).await;
    answers_help(&fake).await;
    // A game whose clock ran out while all that happened: announced once.
    let store = Store::open(&db).await.expect("open");
    let games = overdue::games_back_then(&store);
    let here = breakthrough_bot::game::Place::new(GUILD_ID, CHANNEL_ID);
    let (zelda, yusuf) = (
        breakthrough_bot::game::Member::new(9001, "zelda"),
        breakthrough_bot::game::Member::new(9002, "yusuf"),
    );
    let c = games
        .challenges
        .challenge(overdue::request(here, &zelda, &yusuf))
        .await
        .expect("challenge");
    games
        .challenges
        .accept(
            &yusuf,
            breakthrough_bot::game::ChallengeRef::Id(c.place, c.id),
        )
        .await
        .expect("accept");
    store.close().await;
    let posted = fake.wait_channel_message(CHANNEL_ID).await;
    assert!(embed_text(posted.body.as_ref().unwrap()).contains("Aborted"));
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    assert_eq!(fake.channel_messages(CHANNEL_ID).len(), 1);
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_commits_after_the_answer_window_still_reaches_the_channel() {
    use sqlx::{Connection, Executor};
    let bot = start().await;
    bot.challenge(&alice(), Some(&bob()), "5x5").await;
    bot.click(&bob(), "challenge:accept:1").await;
    // Another process holds the database's write lock past Discord's 3 seconds.
    let mut other = sqlx::SqliteConnection::connect(&bot.db)
        .await
        .expect("connect");
    other.execute("BEGIN IMMEDIATE").await.expect("lock");
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("move")
                .by(&alice())
                .string("move", "a4-a3"),
        )
        .await;
    let lock_for = fake_discord::ANSWER_WINDOW + std::time::Duration::from_millis(300);
    tokio::time::sleep(lock_for).await;
    other.execute("COMMIT").await.expect("unlock");
    // Deferred in time, privately; the board in the channel; the note completes the answer.
    let reply = bot.fake.callback_for(sent.id).await;
    assert_eq!(reply["type"], 5, "{reply}");
    assert!(is_ephemeral(&reply));
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    assert!(
        posted
            .str_at("/content")
            .is_some_and(|c| c.starts_with(&bob().mention())),
        "{}",
        posted.summary()
    );
    assert!(embed_text(posted.body.as_ref().unwrap()).contains("a4-a3"));
    let note = bot.fake.wait_original_edit(&sent.token).await;
    assert_eq!(
        note.str_at("/content"),
        Some("Your move a4-a3 in game #1 is played; the board is posted in the channel.")
    );
    let store = bot.store().await;
    let moves = store.moves(GameId::new(1)).await.expect("moves");
    assert_eq!(moves.len(), 1);
    store.close().await;
    bot.finish();
}

/// Discord answers 500 twice, then does not answer in time twice: the time-out result and
/// the reminder are posted once it answers again, once each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn announcements_outlast_discord_failing_and_timing_out() {
    let (_dir, db) = database();
    let (alice, bob, carol, dave) = players();
    let (store, games) = service(&db).await;
    let lost = game_under_way(&games, HERE, &alice, &bob).await;
    let reminded = game_under_way(&games, HERE, &carol, &dave).await;
    store.close().await;
    set_deadline(&db, lost, unix_now() - 10).await;
    set_deadline(&db, reminded, unix_now() + 600).await;
    let route = format!("/channels/{CHANNEL_ID}/messages");
    let (fake, _bot) = bot_with(&db, &[], |fake| {
        // Newest first: two 500s, then two answers later than the bot waits.
        fake.add_stub(
            "POST",
            &route,
            StubAnswer::server_error()
                .delay(Duration::from_secs(3))
                .times(2),
        );
        fake.add_stub("POST", &route, StubAnswer::server_error().times(2));
    })
    .await;
    fake.wait_for_n(
        "two posts that went through",
        2,
        Duration::from_secs(15),
        |r| posted(r, CHANNEL_ID),
    )
    .await;
    wait_outbox_empty(&db).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(count_posts(&fake, CHANNEL_ID, "alice ran out of time"), 1);
    assert_eq!(
        count_posts(&fake, CHANNEL_ID, &format!("your move in game #{reminded}")),
        1
    );
    assert_eq!(
        fake.channel_messages(CHANNEL_ID).len(),
        6,
        "4 failed, 2 posted"
    );
    fake.assert_spec_ok();
}

/// A rate-limited post is tried again after a pause, and arrives once. (With
/// `DISCORD_API_BASE` set serenity's rate limiter is off, and the error it hands on keeps
/// neither the 429's `retry_after` nor its headers: the pause is the outbox's first, a quarter
/// of a second. Against Discord itself, serenity's rate limiter waits `retry_after` out.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_post_is_tried_again_after_a_pause() {
    let (_dir, db) = database();
    let (alice, bob, _, _) = players();
    let (store, games) = service(&db).await;
    let lost = game_under_way(&games, HERE, &alice, &bob).await;
    store.close().await;
    set_deadline(&db, lost, unix_now() - 10).await;
    let route = format!("/channels/{CHANNEL_ID}/messages");
    let (fake, _bot) = bot_with(&db, &[], |fake| {
        fake.add_stub("POST", &route, StubAnswer::rate_limited(2.0).times(1));
    })
    .await;
    fake.wait_for("a rate-limited post", Duration::from_secs(10), |r| {
        r.path == route && r.status == 429
    })
    .await;
    let limited = Instant::now();
    fake.wait_for("the post again", Duration::from_secs(10), |r| {
        posted(r, CHANNEL_ID)
    })
    .await;
    let waited = limited.elapsed();
    assert!(
        waited >= Duration::from_millis(150),
        "retried after {waited:?}"
    );
    assert_eq!(fake.channel_messages(CHANNEL_ID).len(), 2);
    assert_eq!(count_posts(&fake, CHANNEL_ID, "alice ran out of time"), 1);
}
