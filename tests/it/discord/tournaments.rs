//! `/tournament` against the fake Discord: a round robin of three created by a member who may
//! manage the server, entered with the sign-up message's buttons, started, its games posted with
//! their players mentioned, played to an end by resignation, its standings shown and its winner
//! named.

use std::time::{Duration, Instant};

use serde_json::Value;

use breakthrough_bot::game::{Game, RoundNumber, TournamentId};

use super::{
    alice, bob, carol, embed_text, is_ephemeral, posted, service, start, start_with, Bot, EPHEMERAL,
};
use crate::common::fake_discord::{
    InteractionBuilder, TestUser, CHANNEL_ID, DEFAULT_MEMBER_PERMISSIONS,
};

/// Discord's Manage Server permission bit.
const MANAGE_GUILD: u64 = 1 << 5;
/// Fixed choices travel as their index: `format:round-robin`.
const ROUND_ROBIN: i64 = 0;

fn dave() -> TestUser {
    TestUser::new(300_000_000_000_000_004, "dave")
}

fn content(reply: &Value) -> &str {
    reply["data"]["content"].as_str().unwrap_or_default()
}

fn tournament(sub: &str, who: &TestUser) -> InteractionBuilder {
    InteractionBuilder::slash("tournament")
        .by(who)
        .subcommand(&[sub])
}

fn create(who: &TestUser) -> InteractionBuilder {
    tournament("create", who)
        .string("name", "Spring Cup")
        .integer("format", ROUND_ROBIN)
        .string("size", "3x5")
}

/// The users a posted message may ping.
fn pinged(body: &Value) -> Vec<String> {
    body["allowed_mentions"]["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str().map(String::from))
        .collect()
}

/// The channel post whose words contain `needle`, once the outbox has made it.
async fn post_with(bot: &Bot, needle: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = bot
            .fake
            .requests()
            .into_iter()
            .filter(|r| posted(r, CHANNEL_ID))
            .filter_map(|r| r.body)
            .find(|b| format!("{}\n{}", b["content"], embed_text(b)).contains(needle));
        if let Some(body) = found {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "no post with {needle}:\n{}",
            bot.fake.report()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `loser` resigns `game` with the command and its confirming button.
async fn resign(bot: &Bot, loser: &TestUser, game: &Game) {
    let asked = bot
        .slash(
            InteractionBuilder::slash("resign")
                .by(loser)
                .integer("game", game.id.get()),
        )
        .await;
    assert!(is_ephemeral(&asked), "{asked}");
    let (done, _) = bot.click(loser, &format!("resign:yes:{}", game.id)).await;
    assert_eq!(done["type"], 7, "{done}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_is_created_entered_by_buttons_played_and_won() {
    // Its members send more commands in a few seconds than the rate limit lets through; that
    // limit has tests of its own.
    let bot = start_with(
        true,
        &[("SWEEP_INTERVAL_SECS", "1"), ("RATE_LIMIT_COMMANDS", "40")],
    )
    .await;
    // Without Manage Server, creating is refused privately.
    let refused = bot.slash(create(&bob())).await;
    assert!(is_ephemeral(&refused), "{refused}");
    assert!(
        content(&refused).contains("only a member who can manage the server"),
        "{refused}"
    );
    // With it, the sign-up is posted for everyone, with Join and Leave.
    let admin = alice().with_permissions(DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD);
    let signup = bot.slash(create(&admin)).await;
    assert_eq!(signup["type"], 4, "{signup}");
    assert_eq!(signup["data"]["flags"].as_u64().unwrap_or(0) & EPHEMERAL, 0);
    let text = embed_text(&signup["data"]);
    assert!(text.contains("Spring Cup (#1)"), "{text}");
    assert!(text.contains("Organized by alice"), "{text}");
    let buttons = signup["data"]["components"].to_string();
    assert!(
        buttons.contains("tournament:join:1") && buttons.contains("tournament:leave:1"),
        "{buttons}"
    );

    // The tournament option offers the server's tournaments by name and number.
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::autocomplete("tournament")
                .by(&bob())
                .subcommand(&["join"])
                .focused_of_type("tournament", 4, "spring"),
        )
        .await;
    let offered = bot.fake.callback_for(sent.id).await;
    assert_eq!(offered["type"], 8, "{offered}");
    assert_eq!(offered["data"]["choices"][0]["name"], "Spring Cup (#1)");
    assert_eq!(offered["data"]["choices"][0]["value"], 1);

    // Four members click Join: the message shows them as they come; one clicks Leave.
    for (who, n) in [(alice(), 1), (bob(), 2), (carol(), 3), (dave(), 4)] {
        let (answer, _) = bot.click(&who, "tournament:join:1").await;
        assert_eq!(answer["type"], 7, "{answer}");
        let text = embed_text(&answer["data"]);
        assert!(text.contains(&format!("Entrants: {n}/32")), "{text}");
        assert!(text.contains(&format!("{n}. {}", who.username)), "{text}");
    }
    let (again, _) = bot.click(&bob(), "tournament:join:1").await;
    assert!(is_ephemeral(&again), "{again}");
    assert!(content(&again).contains("already in"), "{again}");
    let (left, _) = bot.click(&dave(), "tournament:leave:1").await;
    assert_eq!(left["type"], 7, "{left}");
    let text = embed_text(&left["data"]);
    assert!(
        text.contains("Entrants: 3/32") && !text.contains("dave"),
        "{text}"
    );

    // The command joins too, privately, and the sign-up message follows.
    let joined = bot.slash(tournament("join", &dave())).await;
    assert!(is_ephemeral(&joined), "{joined}");
    assert!(content(&joined).contains("You are in Spring Cup (#1)"));
    let message = bot
        .fake
        .message_with_component("tournament:join:1")
        .expect("the sign-up message");
    assert!(
        embed_text(&message).contains("4. dave"),
        "{message}\n{}",
        bot.fake.report()
    );
    let out = bot.slash(tournament("leave", &dave())).await;
    assert!(content(&out).contains("You left Spring Cup (#1)"), "{out}");

    // Only its organizer or Manage Server starts it.
    let not_yours = bot.slash(tournament("start", &bob())).await;
    assert!(is_ephemeral(&not_yours), "{not_yours}");
    let started = bot.slash(tournament("start", &alice())).await;
    assert!(!is_ephemeral(&started), "{started}");
    // The answer is the sign-up, under way and without its buttons; the games follow once.
    let said = embed_text(&started["data"]);
    assert!(said.contains("Spring Cup (#1)** · under way"), "{started}");
    assert!(said.contains("Entrants: 3/"), "{started}");
    assert!(!said.contains("has started"), "{started}");
    assert!(
        !started["data"].to_string().contains("tournament:join"),
        "{started}"
    );
    // The round's news in the channel pings its three players, and no one else.
    let news = post_with(&bot, "has started: 3 games").await;
    let mut players = pinged(&news);
    players.sort();
    let mut expected: Vec<String> = [alice(), bob(), carol()]
        .iter()
        .map(|u| u.id.to_string())
        .collect();
    expected.sort();
    assert_eq!(players, expected, "{news}");
    for u in [alice(), bob(), carol()] {
        assert!(news["content"].as_str().unwrap().contains(&u.mention()));
    }

    // alice wins both her games, bob beats carol: each loser resigns.
    let (_store, games) = service(&bot.db).await;
    let round = games
        .tournaments
        .round_games(TournamentId::new(1), RoundNumber::FIRST)
        .await
        .unwrap();
    assert_eq!(round.games.len(), 3);
    let member = |id: u64| {
        [alice(), bob(), carol()]
            .into_iter()
            .find(|u| u.id == id)
            .unwrap()
    };
    for game in &round.games {
        let ids = [game.players.black.id.get(), game.players.white.id.get()];
        let loser = if ids.contains(&alice().id) {
            ids.into_iter().find(|&id| id != alice().id).unwrap()
        } else {
            carol().id
        };
        resign(&bot, &member(loser), game).await;
    }

    // The final post names the winner and pings her alone.
    let end = post_with(&bot, "The winner: alice").await;
    assert_eq!(pinged(&end), vec![alice().id.to_string()], "{end}");
    assert!(
        end["content"]
            .as_str()
            .unwrap()
            .contains(&alice().mention()),
        "{end}"
    );
    // Over, it is no longer the one meant by default: its number says which.
    let standings = bot
        .slash(tournament("standings", &carol()).integer("tournament", 1))
        .await;
    assert!(!is_ephemeral(&standings), "{standings}");
    let table = embed_text(&standings["data"]);
    assert!(
        table.contains("1. alice 2 pts · 2 played, 0 left"),
        "{table}"
    );
    assert!(table.contains("2. bob 1 pt · 2 played, 0 left"), "{table}");
    assert!(
        table.contains("3. carol 0 pts · 2 played, 0 left"),
        "{table}"
    );
    let pairings = bot
        .slash(tournament("pairings", &carol()).integer("tournament", 1))
        .await;
    let list = embed_text(&pairings["data"]);
    assert_eq!(list.matches(" won").count(), 3, "{pairings}");
    bot.finish();
}

/// A tournament that starts by itself shows its start as a Discord timestamp, in each reader's
/// own zone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_start_is_shown_in_each_readers_zone() {
    let bot = start().await;
    let admin = alice().with_permissions(DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD);
    let signup = bot.slash(create(&admin).string("starts_in", "2h")).await;
    let text = embed_text(&signup["data"]);
    let start = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 7_200;
    let shown: u64 = text
        .split("Starts <t:")
        .nth(1)
        .and_then(|rest| rest.split(":f>").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no start as a timestamp in {text}"));
    assert!((start - 10..=start).contains(&shown), "{shown} vs {start}");
    assert!(!text.contains("UTC"), "{text}");
    bot.finish();
}
