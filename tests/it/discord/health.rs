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
