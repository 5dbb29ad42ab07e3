//! What members look up: history, leaderboard, rating, games and help, in a server and in a
//! direct message, and a game acted on only in its channel and seen only from its server.

use breakthrough_bot::game::{GameId, GameState};

use super::{alice, bob, carol, embed_text, is_ephemeral, start, start_with};
use crate::common::fake_discord::{InteractionBuilder, CHANNEL_ID};

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
    // In another server, the game is not listed.
    let r = bot
        .slash(
            InteractionBuilder::slash("games")
                .by(&alice())
                .in_guild(bot.fake.next_id())
                .in_channel(bot.fake.next_id()),
        )
        .await;
    let text = embed_text(&r["data"]);
    assert!(text.contains("alice has no game in progress."), "{text}");
    bot.finish();
}
