//! Games against the AI: each move answered in a deferred response, the AI opening in a direct
//! message, and the sweeper answering a game left waiting by a restart.

use breakthrough_bot::game::{GameId, GameState};
use breakthrough_bot::store::Store;

use super::{alice, bob, bot_on, carol, embed_text, is_ephemeral, start, start_with, the_bot};
use crate::common::fake_discord;
use crate::common::fake_discord::{InteractionBuilder, CHANNEL_ID, GUILD_ID};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_ai_answers_each_move_in_a_deferred_response() {
    let bot = start().await;
    let commands = bot.fake.commands(Some(GUILD_ID));
    let level = commands
        .iter()
        .find(|c| c["name"] == "challenge")
        .and_then(|c| c["options"].as_array())
        .and_then(|o| o.iter().find(|o| o["name"] == "level"))
        .cloned()
        .expect("a level option");
    assert_eq!(level["type"], 4);
    assert_eq!(level["min_value"].as_f64(), Some(1.0));
    assert_eq!(level["max_value"].as_f64(), Some(5.0));

    // alice takes Black against the bot at level 2: the board at once, with only the button
    // that plays her move by taps.
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&alice())
                .user("opponent", &the_bot())
                .string("size", "5x5")
                .integer("color", 0)
                .integer("level", 2),
        )
        .await;
    assert_eq!(r["type"], 4, "{r}");
    assert!(!is_ephemeral(&r));
    assert_eq!(
        r["data"]["components"],
        serde_json::json!([{"type": 1, "components": [
            {"type": 2, "custom_id": "game:move:1", "label": "Move", "style": 1, "disabled": false}
        ]}]),
        "{r}"
    );
    assert!(
        r["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with(&alice().mention()),
        "{r}"
    );
    let text = embed_text(&r["data"]);
    assert!(
        text.contains("Game #1 · 5x5 · vs AI (level 2) · casual · 1 day per move"),
        "{text}"
    );

    // Her move: the response is deferred, then completed with the board after the AI's reply.
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("move")
                .by(&alice())
                .string("move", "a4-a3"),
        )
        .await;
    assert_eq!(bot.fake.callback_for(sent.id).await["type"], 5);
    let edit = bot.fake.wait_original_edit(&sent.token).await;
    let body = edit.body.clone().expect("a body");
    let store = bot.store().await;
    let moves: Vec<String> = store
        .moves(GameId::new(1))
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.notation)
        .collect();
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(moves[0], "a4-a3");
    // The reply is legal: the stored moves replay.
    breakthrough_bot::rules::replay("5x5".parse().unwrap(), moves.iter().map(String::as_str))
        .expect("every stored move is legal");
    let content = body["content"].as_str().unwrap();
    assert!(content.starts_with(&alice().mention()), "{content}");
    assert!(
        content.contains(&format!("The AI (level 2) played {}.", moves[1])),
        "{content}"
    );
    assert_eq!(
        body["allowed_mentions"]["users"],
        serde_json::json!([alice().id.to_string()])
    );
    let text = embed_text(&body);
    assert!(text.contains(&format!("Last move: {}", moves[1])), "{text}");
    assert!(text.contains("Move 2 · Black to move: alice"), "{text}");
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!(
        (game.ai_level, game.rated),
        (breakthrough_bot::engine::Level::new(2), false)
    );

    // A refusal is still ephemeral, not deferred, and changes nothing.
    let r = bot.play(&alice(), "a5-a3").await;
    assert_eq!(r["type"], 4);
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(store.game(GameId::new(1)).await.unwrap().unwrap().ply, 2);
    // Other options that only fit one kind of game are refused.
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&carol())
                .user("opponent", &bob())
                .integer("level", 4),
        )
        .await;
    assert!(is_ephemeral(&r));
    assert_eq!(
        r["data"]["content"],
        "level is for games against the AI: choose the bot as opponent, or leave level out"
    );
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&carol())
                .user("opponent", &the_bot())
                .boolean("rated", true),
        )
        .await;
    assert!(is_ephemeral(&r));
    assert!(store.game(GameId::new(2)).await.unwrap().is_none());
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_direct_message_the_ai_with_black_opens_the_game() {
    let bot = start_with(false, &[]).await;
    let dm = bot.fake.next_id();
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("challenge")
                .by(&alice())
                .dm(dm)
                .user("opponent", &the_bot())
                .string("size", "6x6")
                // 1 is white: the AI has Black and moves first.
                .integer("color", 1),
        )
        .await;
    assert_eq!(bot.fake.callback_for(sent.id).await["type"], 5);
    let edit = bot.fake.wait_original_edit(&sent.token).await;
    let body = edit.body.clone().expect("a body");
    let content = body["content"].as_str().unwrap();
    assert!(content.starts_with(&alice().mention()), "{content}");
    // No level named: the one that meets alice, a newcomer's.
    assert!(content.contains("The AI (level 2) played"), "{content}");
    let text = embed_text(&body);
    assert!(text.contains("vs AI (level 2)"), "{text}");
    assert!(text.contains("Move 1 · White to move: alice"), "{text}");
    let store = bot.store().await;
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!(
        (game.guild_id.get(), game.channel_id.get(), game.ply),
        (0, dm, 1)
    );
    assert_eq!(game.players.black.id.get(), fake_discord::BOT_USER_ID);
    bot.finish();
}

/// A game left waiting for the AI (the bot stopped before it answered) is answered by the
/// sweeper after a restart, and the AI's move is posted in the game's channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_sweeper_answers_a_game_waiting_for_the_ai() {
    use breakthrough_bot::game::{AiRequest, Limits, Member, Place, Services, SystemClock};
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite://{}", dir.path().join("bot.db").display());
    {
        let store = Store::open(&db).await.unwrap();
        let games = Services::new(
            store.clone(),
            std::sync::Arc::new(SystemClock),
            Limits::default(),
        );
        let game = games
            .challenges
            .challenge_ai(AiRequest {
                place: Place::new(GUILD_ID, CHANNEL_ID),
                challenger: Member::new(alice().id, "alice"),
                ai: Member::new(fake_discord::BOT_USER_ID, "fake-bot"),
                level: breakthrough_bot::engine::Level::DEFAULT.into(),
                size: "5x5".parse().unwrap(),
                color: Some(breakthrough_bot::rules::Color::White),
                time: breakthrough_bot::game::TimeControl::OneHour,
                reach: breakthrough_bot::game::Reach::Posts,
            })
            .await
            .unwrap();
        assert!(game.ai_to_move());
        store.close().await;
        // The AI's turn began a minute ago.
        let pool = sqlx::sqlite::SqlitePool::connect(&db).await.unwrap();
        sqlx::query("UPDATE games SET deadline = deadline - 60 WHERE id = 1")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }
    let (fake, _process) = bot_on(&db).await;
    let posted = fake.wait_channel_message(CHANNEL_ID).await;
    let body = posted.body.clone().expect("a body");
    let content = body["content"].as_str().unwrap();
    assert!(content.starts_with(&alice().mention()), "{content}");
    assert!(content.contains("The AI (level 3) played"), "{content}");
    let store = Store::open(&db).await.unwrap();
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!((game.state, game.ply), (GameState::Active, 1));
    fake.assert_spec_ok();
    fake.assert_no_problems();
}
