//! What members look up: history, leaderboard, rating, games and help, in a server and in a
//! direct message, and a game acted on only in its channel and seen only from its server.

use breakthrough_bot::game::{GameId, GameState, GuildId, Timestamp};
use breakthrough_bot::rules::BoardSize;
use serde_json::Value;

use super::{alice, bob, carol, embed_text, is_ephemeral, start, start_with, unix_now, Bot};
use crate::common::fake_discord::{InteractionBuilder, CHANNEL_ID, GUILD_ID};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_leaderboard_rating_games_and_help() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "a4-a3").await;
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("history")
                .by(&carol())
                .integer("game", 1),
        )
        .await;
    let request = bot.fake.callback_request_for(sent.id).await;
    let file = request
        .file("breakthrough-game-1.txt")
        .expect("the move list as a file");
    assert!(file.text().contains("1. a4-a3"), "{}", file.text());
    let games = bot
        .slash(
            InteractionBuilder::slash("games")
                .by(&carol())
                .user("user", &alice()),
        )
        .await;
    assert!(
        embed_text(&games["data"]).contains("#1 against bob"),
        "{games}"
    );
    let lb = bot
        .slash(
            InteractionBuilder::slash("leaderboard")
                .by(&carol())
                .string("size", "3x5"),
        )
        .await;
    assert!(embed_text(&lb["data"]).contains("page 1/1"), "{lb}");
    // A game in progress rates no one yet.
    assert!(
        embed_text(&lb["data"]).contains("No rated games yet."),
        "{lb}"
    );
    let (next, _) = bot.click(&carol(), "leaderboard:3x5:2").await;
    assert_eq!(next["type"], 7);
    let rating = bot
        .slash(InteractionBuilder::slash("rating").by(&carol()))
        .await;
    assert!(embed_text(&rating["data"]).contains("1500?"), "{rating}");
    let help = bot
        .slash(InteractionBuilder::slash("help").by(&carol()))
        .await;
    assert!(is_ephemeral(&help));
    assert!(help["data"]["content"]
        .as_str()
        .unwrap()
        .contains("/challenge"));
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn direct_messages_offer_the_read_only_commands() {
    let bot = start_with(false, &[]).await;
    let dm = bot.fake.next_id();
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&alice())
                .dm(dm)
                .user("opponent", &bob()),
        )
        .await;
    assert!(is_ephemeral(&r));
    assert!(
        r["data"]["content"]
            .as_str()
            .unwrap()
            .contains("server channel"),
        "{r}"
    );
    let help = bot
        .slash(InteractionBuilder::slash("help").by(&alice()).dm(dm))
        .await;
    assert_eq!(help["type"], 4);
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_acted_on_in_its_channel_and_seen_only_from_its_server() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let elsewhere = bot.fake.next_id();
    let r = bot
        .slash(
            InteractionBuilder::slash("move")
                .by(&alice())
                .in_channel(elsewhere)
                .string("move", "a4-a3")
                .integer("game", 1),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(
        r["data"]["content"],
        format!("game #1 is played in <#{CHANNEL_ID}>; make your move there")
    );
    let r = bot
        .slash(
            InteractionBuilder::slash("abort")
                .by(&alice())
                .dm(bot.fake.next_id())
                .integer("game", 1),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(
        r["data"]["content"],
        format!("game #1 is played in <#{CHANNEL_ID}>; abort it there")
    );
    // The autocomplete offers nothing for it elsewhere, and its moves in its channel.
    let typed = |channel: u64| {
        InteractionBuilder::autocomplete("move")
            .by(&alice())
            .in_channel(channel)
            .integer("game", 1)
            .focused("move", "a4")
    };
    let r = bot.slash(typed(elsewhere)).await;
    assert_eq!(r["data"]["choices"], serde_json::json!([]));
    let r = bot.slash(typed(CHANNEL_ID)).await;
    assert_eq!(r["data"]["choices"].as_array().unwrap().len(), 2, "{r}");
    // Anyone in the server may look from any channel; from another server nothing shows.
    let r = bot
        .slash(
            InteractionBuilder::slash("board")
                .by(&carol())
                .in_channel(elsewhere)
                .integer("game", 1),
        )
        .await;
    assert!(!is_ephemeral(&r));
    assert!(embed_text(&r["data"]).contains("Game #1 · 3x5"), "{r}");
    let other_server = bot.fake.next_id();
    for command in ["board", "history"] {
        let r = bot
            .slash(
                InteractionBuilder::slash(command)
                    .by(&alice())
                    .in_guild(other_server)
                    .in_channel(bot.fake.next_id())
                    .integer("game", 1),
            )
            .await;
        assert!(is_ephemeral(&r), "{r}");
        assert_eq!(r["data"]["content"], "there is no game #1 here");
        assert!(r["data"]["embeds"].as_array().is_none_or(|e| e.is_empty()));
        assert!(!r.to_string().contains("bob"), "{r}");
    }
    let store = bot.store().await;
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!((game.state, game.ply), (GameState::Active, 0));
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direct_message_shows_only_the_callers_own_games() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let dm = bot.fake.next_id();
    let r = bot
        .slash(
            InteractionBuilder::slash("games")
                .by(&carol())
                .dm(dm)
                .user("user", &alice()),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(
        r["data"]["content"],
        "in a direct message you can see your own games only: ask in a server for someone else's"
    );
    assert!(!r.to_string().contains("bob"), "{r}");
    for user in [None, Some(alice())] {
        let mut b = InteractionBuilder::slash("games").by(&alice()).dm(dm);
        if let Some(u) = &user {
            b = b.user("user", u);
        }
        let r = bot.slash(b).await;
        let text = embed_text(&r["data"]);
        assert!(text.contains("#1 against bob"), "{text}");
    }
    let r = bot
        .slash(
            InteractionBuilder::slash("rating")
                .by(&carol())
                .dm(dm)
                .user("user", &alice()),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(
        r["data"]["content"],
        "ratings belong to a server: ask in one"
    );
    // In another server, someone's games there are listed, not this one's.
    let r = bot
        .slash(
            InteractionBuilder::slash("games")
                .by(&bob())
                .user("user", &alice())
                .in_guild(bot.fake.next_id())
                .in_channel(bot.fake.next_id()),
        )
        .await;
    let text = embed_text(&r["data"]);
    assert!(text.contains("alice has no game in progress."), "{text}");
    bot.finish();
}

const PROVISIONAL: &str = "Provisional (a few more rated games earn a rank):";

/// The labels of a leaderboard message's buttons, and whether each is disabled.
fn page_buttons(message: &Value) -> Vec<(String, String, bool)> {
    message["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["label"].as_str().unwrap().to_string(),
                b["custom_id"].as_str().unwrap().to_string(),
                b["disabled"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

/// On a new server the first rated game's two players are provisional: the leaderboard lists
/// them, marked, instead of standing empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_servers_leaderboard_lists_its_provisional_players() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    for (mv, by) in [
        ("a4-a3", alice()),
        ("c2-c3", bob()),
        ("a3xb2", alice()),
        ("c3xb4", bob()),
        ("b2xa1", alice()),
    ] {
        bot.play(&by, mv).await;
    }
    let lb = bot
        .slash(
            InteractionBuilder::slash("leaderboard")
                .by(&carol())
                .string("size", "3x5"),
        )
        .await;
    assert!(!is_ephemeral(&lb), "{lb}");
    assert_eq!(
        lb["data"]["embeds"][0]["description"],
        format!(
            "Leaderboard 3x5 · page 1/1\n{PROVISIONAL}\n· alice 1662? (1-0)\n· bob 1338? (0-1)"
        )
    );
    assert_eq!(
        page_buttons(&lb["data"]),
        [
            ("Previous".into(), "leaderboard:3x5:1".into(), true),
            ("Next".into(), "leaderboard:3x5:2".into(), true)
        ]
    );
    bot.finish();
}

/// Three established ratings and nine provisional ones in the test server, rated just now on
/// the default board.
async fn seed_ratings(bot: &Bot) {
    let now = Timestamp::from_unix_seconds(unix_now());
    let store = bot.store().await;
    crate::common::seeded::seed_leaderboard(&store, GuildId::new(GUILD_ID), now).await;
    store.close().await;
}

/// Ranked players first, then the provisional ones under their heading, ten to a page; Next
/// turns to a page of provisional players only, headed again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_ranks_the_established_then_pages_through_the_provisional() {
    let bot = start().await;
    seed_ratings(&bot).await;
    let size = BoardSize::DEFAULT;
    let lb = bot
        .slash(InteractionBuilder::slash("leaderboard").by(&carol()))
        .await;
    assert_eq!(
        lb["data"]["embeds"][0]["description"],
        format!(
            "Leaderboard {size} · page 1/2\n\
             1. ben 1700 (2-1)\n\
             2. ann 1600 (2-1)\n\
             3. cy 1550 (2-1)\n\
             {PROVISIONAL}\n\
             · n1 1950? (2-1)\n\
             · n2 1900? (2-1)\n\
             · n3 1850? (2-1)\n\
             · n4 1800? (2-1)\n\
             · n5 1750? (2-1)\n\
             · n6 1700? (2-1)\n\
             · n7 1650? (2-1)"
        )
    );
    let next = format!("leaderboard:{size}:2");
    assert_eq!(
        page_buttons(&lb["data"]),
        [
            ("Previous".into(), format!("leaderboard:{size}:1"), true),
            ("Next".into(), next.clone(), false)
        ]
    );
    let (page2, _) = bot.click(&alice(), &next).await;
    assert_eq!(page2["type"], 7, "{page2}");
    assert_eq!(
        page2["data"]["embeds"][0]["description"],
        format!(
            "Leaderboard {size} · page 2/2\n\
             {PROVISIONAL}\n\
             · n8 1600? (2-1)\n\
             · n9 1550? (2-1)"
        )
    );
    assert_eq!(
        page_buttons(&page2["data"]),
        [
            ("Previous".into(), format!("leaderboard:{size}:1"), false),
            ("Next".into(), format!("leaderboard:{size}:3"), true)
        ]
    );
    bot.finish();
}

/// `/rating` without a size shows the sizes the member has a rating on, not 8x8; `/history` and
/// `/analyze` without a game take the member's game in the channel (the one that ended last
/// when none is in progress), and without one say so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rating_history_and_analyze_find_what_the_member_played() {
    let bot = start().await;
    let nothing = bot
        .slash(InteractionBuilder::slash("history").by(&alice()))
        .await;
    assert!(is_ephemeral(&nothing), "{nothing}");
    assert_eq!(
        nothing["data"]["content"],
        "you have no game here: say which game with its number (game:12)"
    );
    // A rated game on 3x5 that alice (Black) wins.
    bot.start_game(&alice(), &bob(), "3x5").await;
    for (who, mv) in [
        (alice(), "a4-a3"),
        (bob(), "c2-c3"),
        (alice(), "a3xb2"),
        (bob(), "c3xb4"),
        (alice(), "b2xa1"),
    ] {
        bot.play(&who, mv).await;
    }
    let rating = bot
        .slash(InteractionBuilder::slash("rating").by(&alice()))
        .await;
    let embeds = rating["data"]["embeds"].as_array().expect("embeds");
    assert_eq!(embeds.len(), 1, "{rating}");
    assert_eq!(embeds[0]["title"], "alice · 3x5", "{rating}");
    let card = embed_text(&rating["data"]);
    assert!(card.contains("1 game, 1 win, 0 losses"), "{card}");
    assert!(card.contains("alice's puzzle rating"), "{card}");
    // Asked for a size, that size.
    let rating = bot
        .slash(
            InteractionBuilder::slash("rating")
                .by(&carol())
                .user("user", &alice())
                .string("size", "8x8"),
        )
        .await;
    assert_eq!(rating["data"]["embeds"][0]["title"], "alice · 8x8");
    let sent = bot
        .fake
        .send_interaction(InteractionBuilder::slash("history").by(&bob()))
        .await;
    let request = bot.fake.callback_request_for(sent.id).await;
    let file = request
        .file("breakthrough-game-1.txt")
        .expect("the move list of bob's game here");
    assert!(file.text().contains("3. b2xa1"), "{}", file.text());
    bot.finish();
}

/// `/games` alone: the member's own list, for them alone, in every server and direct message:
/// the games where it is their turn first, soonest deadline first, each with when its time runs
/// out and a link to its board; then the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn your_games_list_your_moves_first_in_every_server() {
    let bot = start().await;
    // #1: alice to move; #2: carol to move; #3: alice to move, against the AI in a DM.
    bot.start_game(&alice(), &bob(), "5x5").await;
    bot.start_game(&carol(), &alice(), "5x5").await;
    let dm = bot.fake.next_id();
    bot.slash(
        InteractionBuilder::slash("challenge")
            .by(&alice())
            .dm(dm)
            .user("opponent", &super::the_bot())
            .string("size", "5x5")
            .integer("color", 0),
    )
    .await;
    let r = bot
        .slash(
            InteractionBuilder::slash("games")
                .by(&alice())
                .in_guild(bot.fake.next_id())
                .in_channel(bot.fake.next_id()),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    let text = embed_text(&r["data"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Your games", "{text}");
    assert_eq!(lines[1], "**Your move**", "{text}");
    assert!(
        lines[2].starts_with("#1 against bob · 5x5 · time runs out <t:")
            // The board's message once it is recorded (read back after the reply), else its
            // channel.
            && lines[2].contains(&format!(
                " · [board](https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}"
            )),
        "{text}"
    );
    assert!(
        lines[3].starts_with("#3 against ")
            && lines[3].contains("time runs out <t:")
            && lines[3].contains(&format!("(https://discord.com/channels/@me/{dm}")),
        "{text}"
    );
    assert_eq!(lines[4], "");
    assert_eq!(lines[5], "**Waiting for your opponent**", "{text}");
    assert!(
        lines[6].starts_with("#2 against carol · 5x5 · Move 1 · Black to move: carol"),
        "{text}"
    );
    bot.finish();
}
