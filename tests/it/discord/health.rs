//! `HEALTH_ADDR`: the bot answers `/healthz` from the start and `/readyz` once its gateway shard
//! is connected and its database answers; `breakthrough-bot health` asks it for a supervisor.

use std::process::Command;
use std::time::{Duration, Instant};

use super::{BOT, GUILD_ID};
use crate::common::fake_discord::{BotProcess, FakeDiscord};

/// An address on this machine that nothing listens on.
fn free_addr() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").to_string()
}

/// The status and body of `GET http://addr/path`; `None` while nothing answers.
async fn get(addr: &str, path: &str) -> Option<(u16, String)> {
    let answer = reqwest::get(format!("http://{addr}{path}")).await.ok()?;
    let status = answer.status().as_u16();
    Some((status, answer.text().await.unwrap_or_default()))
}

/// `breakthrough-bot health --addr addr`: its exit code and what it said.
fn health(addr: &str) -> (i32, String) {
    let out = Command::new(BOT)
        .args(["health", "--addr", addr])
        .env_remove("HEALTH_ADDR")
        .output()
        .expect("the binary runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), said)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_is_up_at_once_and_ready_once_its_gateway_is_connected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let addr = free_addr();
    let fake = FakeDiscord::start().await;
    // Discord fails the token check three times: the bot waits and tries again (0.5 s, 1 s,
    // 2 s), up but not ready.
    fake.stub_times("GET", "/users/@me", 500, None, 3);
    let guild = GUILD_ID.to_string();
    let bot = BotProcess::spawn(
        BOT,
        &fake,
        &[
            ("DATABASE_URL", db.as_str()),
            ("DISCORD_GUILD_ID", guild.as_str()),
            ("HEALTH_ADDR", addr.as_str()),
        ],
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let up = loop {
        if let Some(answer) = get(&addr, "/healthz").await {
            break answer;
        }
        assert!(
            Instant::now() < deadline,
            "no health listener:\n{}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(up, (200, "ok\n".to_string()));
    let (status, why) = get(&addr, "/readyz").await.expect("an answer");
    assert_eq!(
        (status, why.as_str()),
        (503, "not connected to Discord yet\n")
    );
    let (code, said) = tokio::task::spawn_blocking({
        let addr = addr.clone();
        move || health(&addr)
    })
    .await
    .unwrap();
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("not ready: not connected to Discord yet"),
        "{said}"
    );

    // Once its shard is connected: ready.
    fake.wait_for_commands(Some(GUILD_ID)).await;
    fake.wait_ready().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answer = get(&addr, "/readyz").await.expect("an answer");
        if answer == (200, "ready\n".to_string()) {
            break;
        }
        assert!(Instant::now() < deadline, "never ready: {answer:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (code, said) = tokio::task::spawn_blocking({
        let addr = addr.clone();
        move || health(&addr)
    })
    .await
    .unwrap();
    assert_eq!((code, said.trim()), (0, "ready"));
    assert_eq!(get(&addr, "/other").await.map(|a| a.0), Some(404));
    bot.kill();

    // Nothing listening: the check fails, and says so.
    let (code, said) = health(&free_addr());
    assert_eq!(code, 1);
    assert!(said.contains("no answer from the bot at"), "{said}");
    fake.assert_spec_ok();
}

/// Every line of a `/metrics` answer, read as Prometheus reads it: none may be one it ignores.
/// The samples, by name and labels (`name{a="1",b="2"}`, labels sorted), and their values.
fn scrape(text: &str) -> std::collections::BTreeMap<String, f64> {
    use prometheus_parse::{LineInfo, Scrape, Value};
    for line in text.lines() {
        assert!(
            !matches!(LineInfo::parse(line), LineInfo::Ignored),
            "not Prometheus text: {line:?}\n{text}"
        );
    }
    let lines = text.lines().map(|l| Ok(l.to_string()));
    let scrape = Scrape::parse(lines).expect("Prometheus text");
    let mut samples = std::collections::BTreeMap::new();
    for s in scrape.samples {
        let mut labels: Vec<String> = s
            .labels
            .iter()
            .map(|(k, v)| format!("{k}=\"{v}\""))
            .collect();
        labels.sort();
        let key = if labels.is_empty() {
            s.metric.clone()
        } else {
            format!("{}{{{}}}", s.metric, labels.join(","))
        };
        let value = match s.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => v,
            Value::Histogram(buckets) => buckets.last().map_or(0.0, |b| b.count),
            Value::Summary(_) => continue,
        };
        samples.insert(key, value);
    }
    samples
}

/// The samples of `GET /metrics` on `addr`.
async fn metrics(addr: &str) -> (String, std::collections::BTreeMap<String, f64>) {
    let (status, text) = get(addr, "/metrics").await.expect("an answer");
    assert_eq!(status, 200, "{text}");
    let samples = scrape(&text);
    (text, samples)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_count_commands_taps_moves_and_posts_as_prometheus_text() {
    use super::{alice, bob, set_deadline, start_with, InteractionBuilder, CHANNEL_ID};
    use crate::common::fake_discord::StubAnswer;
    let addr = free_addr();
    let bot = start_with(
        true,
        &[
            ("HEALTH_ADDR", addr.as_str()),
            ("SWEEP_INTERVAL_SECS", "1"),
            ("POST_TIMEOUT_MS", "300"),
        ],
    )
    .await;
    bot.slash(InteractionBuilder::slash("help").by(&alice()))
        .await;
    // No game yet: refused.
    bot.play(&alice(), "a4-a3").await;
    bot.start_game(&alice(), &bob(), "5x5").await;
    bot.play(&alice(), "a4-a3").await;
    bot.click(&bob(), "game:move:1").await;
    let (text, m) = metrics(&addr).await;
    let count = |key: &str| {
        m.get(key)
            .copied()
            .unwrap_or_else(|| panic!("no {key}:\n{text}"))
    };
    assert_eq!(
        count("breakthrough_commands_total{command=\"help\",outcome=\"ok\"}"),
        1.0
    );
    assert_eq!(
        count("breakthrough_commands_total{command=\"move\",outcome=\"refused\"}"),
        1.0
    );
    assert_eq!(
        count("breakthrough_commands_total{command=\"move\",outcome=\"ok\"}"),
        1.0
    );
    assert_eq!(
        count("breakthrough_commands_total{command=\"challenge\",outcome=\"ok\"}"),
        1.0
    );
    assert_eq!(
        count("breakthrough_commands_total{command=\"accept\",outcome=\"ok\"}"),
        1.0
    );
    assert_eq!(
        count("breakthrough_commands_total{command=\"tap:game:move\",outcome=\"ok\"}"),
        1.0
    );
    // Each command's time, one sample each.
    assert_eq!(count("breakthrough_command_seconds{command=\"help\"}"), 1.0);
    assert_eq!(count("breakthrough_command_seconds{command=\"move\"}"), 2.0);
    assert_eq!(count("breakthrough_moves_total{by=\"member\"}"), 1.0);
    assert_eq!(count("breakthrough_games_in_progress"), 1.0);
    assert_eq!(count("breakthrough_outbox_depth"), 0.0);
    assert_eq!(count("breakthrough_outbox_oldest_seconds"), 0.0);
    // The challenge, the game and the move were written, each timed.
    assert!(
        count("breakthrough_database_write_seconds") >= 3.0,
        "{text}"
    );
    assert!(
        text.contains("# TYPE breakthrough_commands_total counter"),
        "{text}"
    );
    assert!(
        text.contains("# TYPE breakthrough_database_write_seconds histogram"),
        "{text}"
    );
    for outcome in ["2xx", "4xx", "429", "5xx", "no_answer"] {
        assert_eq!(
            count(&format!(
                "breakthrough_posts_total{{outcome=\"{outcome}\"}}"
            )),
            0.0
        );
    }

    assert_eq!(count("breakthrough_interactions_late_total"), 0.0);
    assert_eq!(count("breakthrough_interactions_unanswered_total"), 0.0);

    // Another process holds the database's write lock past the first part of Discord's window:
    // bob's move is answered late.
    {
        use sqlx::{Connection, Executor};
        let mut other = sqlx::SqliteConnection::connect(&bot.db)
            .await
            .expect("connect");
        other.execute("BEGIN IMMEDIATE").await.expect("lock");
        let sent = bot
            .fake
            .send_interaction(
                InteractionBuilder::slash("move")
                    .by(&bob())
                    .string("move", "c2-c3"),
            )
            .await;
        let answer = bot.fake.callback_for(sent.id).await;
        assert_eq!(answer["type"], 5, "deferred: {answer}");
        other.execute("COMMIT").await.expect("unlock");
        bot.fake.wait_original_edit(&sent.token).await;
        // Its board goes to the channel as a post of the outbox.
        bot.fake.wait_channel_message(CHANNEL_ID).await;
    }
    // Discord refuses a command's answer, and the apology after it: unanswered.
    bot.fake
        .stub_times("POST", "/interactions/{id}/{token}/callback", 500, None, 2);
    bot.slash(InteractionBuilder::slash("help").by(&alice()))
        .await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let (text, m) = loop {
        let (text, m) = metrics(&addr).await;
        // Counted once each answer is in: the fake records a request before it answers.
        if m.get("breakthrough_interactions_unanswered_total") == Some(&1.0)
            && m.get("breakthrough_posts_total{outcome=\"2xx\"}") == Some(&1.0)
        {
            break (text, m);
        }
        assert!(
            Instant::now() < deadline,
            "no unanswered help or posted board:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let count = |key: &str| {
        m.get(key)
            .copied()
            .unwrap_or_else(|| panic!("no {key}:\n{text}"))
    };
    assert_eq!(count("breakthrough_interactions_late_total"), 1.0);
    assert_eq!(count("breakthrough_interactions_unanswered_total"), 1.0);
    assert_eq!(count("breakthrough_posts_total{outcome=\"2xx\"}"), 1.0);
    assert_eq!(
        count("breakthrough_commands_total{command=\"help\",outcome=\"failed\"}"),
        1.0
    );
    assert_eq!(
        count("breakthrough_commands_total{command=\"move\",outcome=\"ok\"}"),
        2.0
    );
    assert_eq!(count("breakthrough_moves_total{by=\"member\"}"), 2.0);

    // Alice runs out of time; Discord fails the first post of it with a 500.
    bot.fake.add_stub(
        "POST",
        &format!("/channels/{CHANNEL_ID}/messages"),
        StubAnswer::server_error().times(1),
    );
    set_deadline(&bot.db, breakthrough_bot::game::GameId::new(1), 1).await;
    bot.fake.wait_channel_messages(CHANNEL_ID, 3).await;
    super::wait_outbox_empty(&bot.db).await;
    let (text, m) = metrics(&addr).await;
    let count = |key: &str| {
        m.get(key)
            .copied()
            .unwrap_or_else(|| panic!("no {key}:\n{text}"))
    };
    assert_eq!(count("breakthrough_posts_total{outcome=\"5xx\"}"), 1.0);
    assert_eq!(count("breakthrough_posts_total{outcome=\"2xx\"}"), 2.0);
    assert_eq!(count("breakthrough_games_in_progress"), 0.0);
    assert_eq!(count("breakthrough_moves_total{by=\"member\"}"), 2.0);
    bot.fake.assert_spec_ok();
}

/// Waits until `GET /readyz` answers `status` with a body that starts with `why`.
async fn wait_readiness(addr: &str, status: u16, why: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let answer = get(addr, "/readyz").await.expect("an answer");
        if answer.0 == status && answer.1.starts_with(why) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "never {status} {why:?}: {answer:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_ready_while_the_gateway_is_down_or_the_database_is_locked() {
    use sqlx::{Connection, Executor};
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    let addr = free_addr();
    let (fake, _bot) = super::bot_with(&db, &[("HEALTH_ADDR", addr.as_str())], |fake| {
        fake.set_heartbeat_interval(Duration::from_millis(300));
    })
    .await;
    fake.wait_ready().await;
    wait_readiness(&addr, 200, "ready").await;
    // A heartbeat acknowledged: its latency is graphed.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (text, m) = metrics(&addr).await;
        if let Some(latency) = m.get("breakthrough_gateway_latency_seconds{shard=\"0\"}") {
            assert!((0.0..5.0).contains(latency), "{text}");
            break;
        }
        assert!(Instant::now() < deadline, "no gateway latency:\n{text}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The gateway drops and does not take the bot back: not ready, until it does.
    fake.hold_gateway(true);
    fake.close_gateway_connection();
    wait_readiness(&addr, 503, "gateway shard 0 is ").await;
    fake.hold_gateway(false);
    wait_readiness(&addr, 200, "ready").await;

    // Another process holds the database's write lock: not ready, until it lets go.
    let mut other = sqlx::SqliteConnection::connect(&db).await.expect("connect");
    other.execute("BEGIN IMMEDIATE").await.expect("lock");
    wait_readiness(&addr, 503, "the database did not answer within 2 s").await;
    other.execute("COMMIT").await.expect("unlock");
    wait_readiness(&addr, 200, "ready").await;
    fake.assert_spec_ok();
}
