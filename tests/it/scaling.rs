//! Scaling out: several bot processes on one PostgreSQL database, each serving some gateway
//! shards of one (fake) Discord application, as a deployment of the bot on several machines
//! would. Every interaction goes through the session of its server's shard, so only the process
//! of that shard can answer it; each process is given an API base of its own, so the fake tells
//! whose requests are whose.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::fake_discord::{
    BotProcess, FakeDiscord, InteractionBuilder, RecordedRequest, SentInteraction, TestUser,
    CHANNEL_ID, GUILD_ID,
};
use crate::common::{db, postgres};

const BOT: &str = env!("CARGO_BIN_EXE_breakthrough-bot");

/// The shortest lease the bot takes (`SHARD_LEASE_SECS`): how long a dead process's shards wait.
const LEASE_SECS: &str = "3";

/// A server on shard 0 of 2 ([`GUILD_ID`] is on shard 1), and its channel.
const GUILD_0: u64 = 900_000_000_004_194_314;
const CHANNEL_0: u64 = 900_000_000_004_194_400;

/// A server and the channel the games are played in.
#[derive(Clone, Copy)]
struct Server {
    guild: u64,
    channel: u64,
    shard: u64,
}

const SHARD_0: Server = Server {
    guild: GUILD_0,
    channel: CHANNEL_0,
    shard: 0,
};
const SHARD_1: Server = Server {
    guild: GUILD_ID,
    channel: CHANNEL_ID,
    shard: 1,
};

/// What a bot process of shard `shard` of 2 on `db` is started with; its requests and its
/// gateway session are labelled `label`.
fn settings(fake: &FakeDiscord, db: &str, shard: &str, label: &str) -> Vec<(String, String)> {
    let rust_log = std::env::var("RUST_LOG").unwrap_or_else(|_| "info".to_string());
    [
        ("DISCORD_TOKEN", "fake-token"),
        ("DISCORD_API_BASE", fake.api_base_as(label).as_str()),
        ("RUST_LOG", rust_log.as_str()),
        ("DATABASE_URL", db),
        ("DISCORD_GUILD_ID", GUILD_ID.to_string().as_str()),
        ("SWEEP_INTERVAL_SECS", "1"),
        ("POST_TIMEOUT_MS", "300"),
        ("SHARD_COUNT", "2"),
        ("SHARDS", shard),
        ("SHARD_LEASE_SECS", LEASE_SECS),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// Starts a bot process that the fake does not watch (it may be refused and stop).
fn spawn(fake: &FakeDiscord, db: &str, shard: &str, label: &str) -> BotProcess {
    let env = settings(fake, db, shard, label);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    BotProcess::spawn_with_env(BOT, &env)
}

/// Starts a bot process that must stay up: the fake's waits fail at once should it stop.
async fn serving(fake: &FakeDiscord, db: &str, server: Server, label: &str) -> BotProcess {
    let process = spawn(fake, db, &server.shard.to_string(), label);
    fake.watch_bot(&process);
    fake.wait_shard_live(server.shard, Some(label)).await;
    process
}

/// Asserts that `process` stops by itself, refused, because the process `holder` serves `shard`.
fn assert_refused(process: &BotProcess, shard: u64, holder: u32) {
    let status = process
        .wait_exit(Duration::from_secs(20))
        .unwrap_or_else(|| panic!("it should have stopped:\n{}", process.log()));
    assert!(!status.success(), "{status}");
    let log = process.log();
    assert!(
        log.contains(&format!(
            "another bot process serves shard {shard} of 2 of this database"
        )),
        "{log}"
    );
    assert!(log.contains(&format!("pid={holder} ")), "{log}");
}

/// Asserts that `process` stops by itself, with exit 1 and the line that says Discord refused its
/// gateway shard `shard` ("1 of 2").
fn assert_stops_refused_by_discord(process: &BotProcess, shard: &str) {
    let status = process
        .wait_exit(Duration::from_secs(20))
        .unwrap_or_else(|| panic!("it should have stopped:\n{}", process.log()));
    assert_eq!(status.code(), Some(1), "{status}");
    let log = process.log();
    assert!(
        log.contains(&format!(
            "error: Discord refused gateway shard {shard} (close code 4010, invalid shard): every \
             process of the bot must have the same SHARD_COUNT, and SHARDS within it"
        )),
        "{log}"
    );
}

/// Sends an interaction through the session of its server's shard, held by the process
/// `label`, and returns it with its callback, which that process must have sent.
async fn answered(
    fake: &FakeDiscord,
    server: Server,
    label: &str,
    b: InteractionBuilder,
) -> (SentInteraction, RecordedRequest) {
    let b = b.in_guild(server.guild).in_channel(server.channel);
    assert_eq!(
        fake.session_label(server.shard),
        Some(Some(label.to_string())),
        "shard {} should be served by {label}\n{}",
        server.shard,
        fake.report()
    );
    let sent = fake.send_interaction(b).await;
    assert_eq!(sent.shard, server.shard);
    let callback = fake.callback_request_for(sent.id).await;
    assert_eq!(
        callback.via.as_deref(),
        Some(label),
        "{}",
        callback.summary()
    );
    (sent, callback)
}

/// `/move` in `server` by `who`, answered with a message by `label`.
async fn play(fake: &FakeDiscord, server: Server, label: &str, who: &TestUser, mv: &str) {
    let b = InteractionBuilder::slash("move").by(who).string("move", mv);
    let (_, callback) = answered(fake, server, label, b).await;
    assert_eq!(callback.at("/type"), 4, "{}", callback.summary());
    // Not a refusal (those are ephemeral).
    let flags = callback.at("/data/flags").as_u64().unwrap_or(0);
    assert_eq!(flags & (1 << 6), 0, "{}", callback.summary());
}

/// `black` challenges `white` on 3x5 in `server` with `/challenge`, `white` accepts with the
/// button, and `moves` are played in turn from Black's; everything is answered by `label`.
/// Returns the game's id.
async fn game(
    fake: &FakeDiscord,
    server: Server,
    label: &str,
    (black, white): (&TestUser, &TestUser),
    moves: &[&str],
) -> i64 {
    let challenge = InteractionBuilder::slash("challenge")
        .by(black)
        .user("opponent", white)
        .string("size", "3x5")
        // Fixed choices travel as their index: 0 is black.
        .integer("color", 0);
    let (sent, callback) = answered(fake, server, label, challenge).await;
    assert_eq!(callback.at("/type"), 4, "{}", callback.summary());
    let accept = callback
        .at("/data/components/0/components")
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["custom_id"].as_str())
        .find(|id| id.starts_with("challenge:accept:"))
        .unwrap_or_else(|| panic!("no Accept button: {}", callback.summary()))
        .to_string();
    let message = fake
        .original_message(&sent.token)
        .expect("the challenge message");
    let click = InteractionBuilder::button(&accept)
        .by(white)
        .on_message(&message);
    let (click, callback) = answered(fake, server, label, click).await;
    assert_eq!(callback.at("/type"), 7, "{}", callback.summary());
    let board = fake.wait_followups(&click.token, 1).await.remove(0);
    assert_eq!(board.via.as_deref(), Some(label), "{}", board.summary());
    let text = board
        .body
        .as_ref()
        .map(Value::to_string)
        .unwrap_or_default();
    let id = text
        .split_once("Game #")
        .map(|(_, t)| {
            t.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game number in {}", board.summary()));
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { black } else { white };
        play(fake, server, label, who, mv).await;
    }
    id
}

/// Messages posted to a channel (the sweeper's announcements).
fn posts(fake: &FakeDiscord, channel: u64) -> Vec<RecordedRequest> {
    fake.channel_messages(channel)
}

fn words(r: &RecordedRequest) -> String {
    let body = r.body.clone().unwrap_or_default();
    let embed = &body["embeds"][0];
    format!(
        "{}\n{}\n{}",
        body["content"].as_str().unwrap_or(""),
        embed["title"].as_str().unwrap_or(""),
        embed["description"].as_str().unwrap_or("")
    )
}

/// Waits for the announcement in `channel` that `who` ran out of time, posted by `label`.
async fn timed_out(fake: &FakeDiscord, channel: u64, who: &str, label: &str) {
    let needle = format!("{who} ran out of time");
    let r = fake
        .wait_for(
            &format!("{needle} in channel {channel}"),
            Duration::from_secs(10),
            |r| {
                r.method == "POST"
                    && r.path == format!("/channels/{channel}/messages")
                    && words(r).contains(&needle)
            },
        )
        .await;
    assert_eq!(r.via.as_deref(), Some(label), "{}", r.summary());
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

async fn expire(db: &str, game: i64) {
    let changed = db::execute(
        db,
        "UPDATE games SET deadline = $1 WHERE id = $2",
        &[unix_now() - 60, game],
    )
    .await;
    assert_eq!(changed, 1);
}

/// Two bot processes on one PostgreSQL database, for shard 0 and shard 1 of 2 of one Discord
/// application: each answers the slash commands and buttons of its own servers only (they come
/// through its shard's session) and announces only its own servers' time-outs. A second process
/// for a held shard refuses to start, naming the holder; when the holder dies (kill -9), its
/// replacement is refused while the dead one's lease lasts and takes over once it has run out:
/// it announces what ran out of time meanwhile and answers the server's commands. Then a rolling
/// restart of shard 0: stopped with SIGTERM, its process gives its lease up and its replacement
/// starts at once. Nothing is posted twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_postgresql_split_the_shards_and_a_replacement_takes_over_after_the_lease()
{
    let Some(cluster) = postgres::cluster() else {
        return;
    };
    let began = Instant::now();
    let db = cluster.database().await;
    let fake = FakeDiscord::start_sharded(2).await;
    assert_eq!(
        (fake.shard_of(Some(GUILD_0)), fake.shard_of(Some(GUILD_ID))),
        (0, 1)
    );
    let user = |n: u64, name: &str| TestUser::new(300_000_000_000_000_000 + n, name);
    let (ann, ben, cid, dee) = (
        user(1, "ann"),
        user(2, "ben"),
        user(3, "cid"),
        user(4, "dee"),
    );
    let (eve, fay, gus, hal) = (
        user(5, "eve"),
        user(6, "fay"),
        user(7, "gus"),
        user(8, "hal"),
    );
    let (ivy, jon) = (user(9, "ivy"), user(10, "jon"));

    let p0 = serving(&fake, &db, SHARD_0, "p0").await;
    let p1 = serving(&fake, &db, SHARD_1, "p1").await;
    // Each identified as its own shard of 2, and was told so in READY.
    let mut shards: Vec<Value> = fake
        .identify_payloads()
        .iter()
        .map(|p| p["d"]["shard"].clone())
        .collect();
    shards.sort_by_key(|s| s[0].as_u64());
    assert_eq!(
        shards,
        [serde_json::json!([0, 2]), serde_json::json!([1, 2])]
    );

    // Games in both servers, each played through its own shard's process.
    let on_0 = game(&fake, SHARD_0, "p0", (&ann, &ben), &["a4-a3", "c2-c3"]).await;
    let on_1 = game(&fake, SHARD_1, "p1", (&cid, &dee), &["a4-a3", "c2-c3"]).await;
    let later = game(&fake, SHARD_1, "p1", (&eve, &fay), &["a4-a3", "c2-c3"]).await;
    game(&fake, SHARD_1, "p1", (&gus, &hal), &["a4-a3"]).await;
    game(&fake, SHARD_0, "p0", (&ivy, &jon), &["a4-a3"]).await;

    // Each server's time-out is announced in its own channel, by its own shard's process.
    expire(&db, on_0).await;
    expire(&db, on_1).await;
    timed_out(&fake, CHANNEL_0, "ann", "p0").await;
    timed_out(&fake, CHANNEL_ID, "cid", "p1").await;

    // A second process for shard 1 refuses to start, naming the first.
    let second = spawn(&fake, &db, "1", "p1-second");
    assert_refused(&second, 1, p1.id());

    // Shard 1's process dies; its replacement is refused while the lease lasts...
    let dead = p1.id();
    p1.kill();
    fake.watch_bot(&p0);
    expire(&db, later).await;
    let early = spawn(&fake, &db, "1", "p1-early");
    assert_refused(&early, 1, dead);
    // ...and takes over once it has run out.
    let until = Instant::now() + Duration::from_secs(10);
    let p1b = loop {
        let process = spawn(&fake, &db, "1", "p1b");
        let up = loop {
            if fake.session_label(1) == Some(Some("p1b".to_string())) {
                break true;
            }
            if !process.is_running() {
                break false;
            }
            assert!(
                Instant::now() < until,
                "the replacement never took over:\n{}",
                process.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        if up {
            break process;
        }
        assert_refused(&process, 1, dead);
        assert!(
            Instant::now() < until,
            "the replacement was still refused 10 s after the holder died:\n{}",
            process.log()
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    fake.watch_bot(&p1b);
    let took_over = began.elapsed();
    timed_out(&fake, CHANNEL_ID, "eve", "p1b").await;
    play(&fake, SHARD_1, "p1b", &hal, "c2-c3").await;
    // Shard 0 went on being served throughout.
    play(&fake, SHARD_0, "p0", &jon, "c2-c3").await;

    // A rolling restart of shard 0: stopped (SIGTERM), its process gives its lease up, and its
    // replacement starts at once and serves the server's games.
    p0.terminate();
    let status = p0.wait_exit(Duration::from_secs(20)).expect("it stops");
    assert!(status.success(), "{}", p0.log());
    let p0b = spawn(&fake, &db, "0", "p0b");
    let restarted = Instant::now();
    fake.wait_shard_live(0, Some("p0b")).await;
    assert!(
        restarted.elapsed() < Duration::from_secs(3),
        "the replacement waited for a lease that was given up"
    );
    play(&fake, SHARD_0, "p0b", &ivy, "a3xb2").await;

    // Nothing was posted twice: let a few more sweeps pass, then count.
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let count = |channel: u64, who: &str| {
        posts(&fake, channel)
            .iter()
            .filter(|r| words(r).contains(&format!("{who} ran out of time")))
            .count()
    };
    assert_eq!(count(CHANNEL_0, "ann"), 1, "{}", fake.report());
    assert_eq!(count(CHANNEL_ID, "cid"), 1, "{}", fake.report());
    assert_eq!(count(CHANNEL_ID, "eve"), 1, "{}", fake.report());
    assert_eq!(posts(&fake, CHANNEL_0).len(), 1, "{}", fake.report());
    assert_eq!(posts(&fake, CHANNEL_ID).len(), 2, "{}", fake.report());
    // No process touched the other shard's server: its channel, or its interactions' callbacks
    // and follow-ups.
    for r in fake.requests() {
        let s = r.segments();
        let token = match s.as_slice() {
            ["interactions", _, token, "callback"] | ["webhooks", _, token, ..] => Some(*token),
            _ => None,
        };
        let shard = if r.path.contains(&CHANNEL_0.to_string()) {
            Some(0)
        } else if r.path.contains(&CHANNEL_ID.to_string()) {
            Some(1)
        } else {
            token.and_then(|t| fake.interaction_shard(t))
        };
        let label = r.via.as_deref().unwrap_or("?");
        match (label, shard) {
            (_, None) | ("p0" | "p0b", Some(0)) | ("p1" | "p1b", Some(1)) => {}
            _ => panic!("{label} served shard {shard:?}: {}", r.summary()),
        }
        assert!(
            ["p0", "p0b", "p1", "p1b"].contains(&label),
            "a request from no serving process: {}",
            r.summary()
        );
    }
    assert!(p0b.is_running() && p1b.is_running());
    fake.assert_spec_ok();
    fake.assert_no_problems();
    eprintln!(
        "scaling: the replacement took over {:.1} s in, the test took {:.1} s",
        took_over.as_secs_f64(),
        began.elapsed().as_secs_f64()
    );
}

/// Waits until the fake has recorded a problem that contains `text`.
async fn problem(fake: &FakeDiscord, text: &str) {
    let until = Instant::now() + Duration::from_secs(10);
    while !fake.problems().iter().any(|p| p.contains(text)) {
        assert!(
            Instant::now() < until,
            "no problem {text:?} recorded:\n{}",
            fake.report()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The fake holds the bot to Discord's sharding rules: a process that identifies as a shard
/// another live session serves, or as a shard of another count, is recorded as a problem and
/// closed with 4010 (invalid shard); the session of the shard stays with its holder. The refused
/// process stops (exit 1) with a line that says which shard Discord refused and what to check,
/// rather than running on without its shard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_refuses_a_shard_already_served_or_of_another_count() {
    let fake = FakeDiscord::start_sharded(2).await;
    let dirs: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let url = |i: usize| format!("sqlite://{}", dirs[i].path().join("bot.db").display());
    let first = serving(&fake, &url(0), SHARD_1, "first").await;
    // Another database, so no lock stops it before Discord does.
    let again = spawn(&fake, &url(1), "1", "again");
    problem(
        &fake,
        "the bot identified as shard [1, 2], which another live session already serves",
    )
    .await;
    assert_stops_refused_by_discord(&again, "1 of 2");
    assert_eq!(fake.session_label(1), Some(Some("first".to_string())));
    let mut env = settings(&fake, &url(2), "2", "three");
    env.iter_mut()
        .filter(|(k, _)| k == "SHARD_COUNT")
        .for_each(|(_, v)| *v = "3".to_string());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let wrong = BotProcess::spawn_with_env(BOT, &env);
    problem(
        &fake,
        "the bot identified with shard [2,3], but the fake serves 2 shard(s)",
    )
    .await;
    assert_stops_refused_by_discord(&wrong, "2 of 3");
    assert_eq!(fake.session_label(0), None);
    assert_eq!(fake.session_label(1), Some(Some("first".to_string())));
    assert!(first.is_running());
    let stats = fake.gateway_stats();
    assert_eq!(
        (stats.readies, stats.live_shards, stats.live),
        (1, 1, false)
    );
}
