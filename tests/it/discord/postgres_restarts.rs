//! PostgreSQL restarted under the running bot, cleanly (`-m fast`) and as a crash or a fail-over
//! does (`-m immediate`): while it is away members are told to try again in a moment and
//! `/readyz` says 503; once it is back the bot goes on by itself, every move it acknowledged is
//! there, and it still holds its shard's lease.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{alice, bob, embed_text, is_ephemeral, BOT, GUILD_ID};
use crate::common::fake_discord::{BotProcess, FakeDiscord, InteractionBuilder, TestUser};
use crate::common::postgres::Cluster;

/// `GET /readyz` on `addr`, `None` while nothing answers.
async fn readiness(addr: &str) -> Option<(u16, String)> {
    let answer = reqwest::get(format!("http://{addr}/readyz")).await.ok()?;
    let status = answer.status().as_u16();
    Some((status, answer.text().await.unwrap_or_default()))
}

/// Waits until `/readyz` answers `status`.
async fn wait_readiness(addr: &str, status: u16, bot: &BotProcess) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some((got, why)) = readiness(addr).await {
            if got == status {
                return why;
            }
        }
        assert!(
            Instant::now() < deadline,
            "/readyz never answered {status}:\n{}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn send(fake: &FakeDiscord, b: InteractionBuilder) -> Value {
    let sent = fake.send_interaction(b).await;
    fake.callback_for(sent.id).await
}

async fn play(fake: &FakeDiscord, who: &TestUser, mv: &str) -> Value {
    send(
        fake,
        InteractionBuilder::slash("move").by(who).string("move", mv),
    )
    .await
}

/// Whether the answer to `/move` says that `mv` was played.
fn played(answer: &Value, mv: &str) -> bool {
    answer["type"] == 4 && !is_ephemeral(answer) && embed_text(&answer["data"]).contains(mv)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgresql_restarted_under_the_bot_loses_no_acknowledged_move_and_play_goes_on() {
    let Some(cluster) = Cluster::own() else {
        return;
    };
    let url = cluster.database().await;
    let addr = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        listener.local_addr().expect("its address").to_string()
    };
    let fake = FakeDiscord::start().await;
    let guild = GUILD_ID.to_string();
    let bot = BotProcess::spawn(
        BOT,
        &fake,
        &[
            ("DATABASE_URL", url.as_str()),
            ("DISCORD_GUILD_ID", guild.as_str()),
            ("HEALTH_ADDR", addr.as_str()),
        ],
    );
    fake.wait_for_commands(Some(GUILD_ID)).await;
    fake.wait_ready().await;
    wait_readiness(&addr, 200, &bot).await;
    send(
        &fake,
        InteractionBuilder::slash("challenge")
            .by(&alice())
            .string("size", "8x8")
            .integer("color", 0)
            .user("opponent", &bob()),
    )
    .await;
    send(&fake, InteractionBuilder::slash("accept").by(&bob())).await;

    // Sixteen quiet moves: Black (alice) a7-a6 … h7-h6, White (bob) a2-a3 … h2-h3.
    let moves: Vec<(TestUser, String)> = "abcdefgh"
        .chars()
        .flat_map(|c| {
            [
                (alice(), format!("{c}7-{c}6")),
                (bob(), format!("{c}2-{c}3")),
            ]
        })
        .collect();
    let mut acknowledged = Vec::new();
    play_on(&fake, &bot, &moves, 4, &mut acknowledged).await;

    for mode in ["fast", "immediate"] {
        cluster.stop(mode);
        // Not ready: a read waits up to 5 s for a connection, so the check may time out first.
        let why = wait_readiness(&addr, 503, &bot).await;
        assert!(why.starts_with("the database d"), "{why}");
        // A move while it is away: told, privately, to try again, and not played. Its answer is
        // deferred when the wait for a connection outlasts the first part of Discord's window.
        let (who, mv) = &moves[acknowledged.len()];
        let sent = fake
            .send_interaction(InteractionBuilder::slash("move").by(who).string("move", mv))
            .await;
        let answer = fake.callback_for(sent.id).await;
        assert!(is_ephemeral(&answer), "{mode}: {answer}");
        let said = if answer["type"] == 5 {
            fake.wait_original_edit(&sent.token)
                .await
                .str_at("/content")
                .map(str::to_string)
        } else {
            answer["data"]["content"].as_str().map(str::to_string)
        };
        assert_eq!(
            said.as_deref(),
            Some(
                "the bot cannot reach its database just now, so nothing was changed: please \
                 try again in a moment"
            ),
            "{mode}: {answer}"
        );
        cluster.start_again();
        wait_readiness(&addr, 200, &bot).await;
        // Back by itself: the same move, then more, are played.
        play_on(&fake, &bot, &moves, 6, &mut acknowledged).await;
        assert!(bot.is_running(), "{}", bot.log());
    }
    assert_eq!(acknowledged.len(), 16);

    // Every acknowledged move is in the database, once, in order; the bot still holds its lease.
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .expect("connect");
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT notation FROM moves WHERE game_id = 1 ORDER BY ply")
            .fetch_all(&mut conn)
            .await
            .expect("the moves");
    assert_eq!(stored, acknowledged);
    let holders: Vec<String> = sqlx::query_scalar("SELECT holder FROM shard_leases")
        .fetch_all(&mut conn)
        .await
        .expect("the leases");
    let pid = format!("pid={} ", bot.id());
    assert!(
        !holders.is_empty() && holders.iter().all(|h| h.contains(&pid)),
        "{holders:?}"
    );
    fake.assert_spec_ok();
}

/// Plays the next `n` of `moves` after those `acknowledged`, each of which must be played.
async fn play_on(
    fake: &FakeDiscord,
    bot: &BotProcess,
    moves: &[(TestUser, String)],
    n: usize,
    acknowledged: &mut Vec<String>,
) {
    for (who, mv) in moves.iter().skip(acknowledged.len()).take(n) {
        let answer = play(fake, who, mv).await;
        assert!(played(&answer, mv), "{mv}: {answer}\n{}", bot.log());
        acknowledged.push(mv.clone());
    }
}
