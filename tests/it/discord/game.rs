//! A whole game from `/challenge` and the Accept button to the result, move autocomplete, each
//! player's side of the board, and a hostile display name that stays text.

use breakthrough_bot::game::{GameId, GuildId};
use serde_json::Value;

use super::{alice, bob, carol, embed_text, is_ephemeral, start};
use crate::common::fake_discord::{InteractionBuilder, TestUser, GUILD_ID};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_from_challenge_to_result() {
    let bot = start().await;
    let reply = bot.challenge(&alice(), Some(&bob()), "3x5").await;
    assert_eq!(reply["type"], 4);
    assert!(!is_ephemeral(&reply));
    let content = reply["data"]["content"].as_str().unwrap();
    assert!(content.starts_with(&bob().mention()), "{content}");
    assert_eq!(
        reply["data"]["allowed_mentions"]["users"],
        serde_json::json!([bob().id.to_string()])
    );
    let buttons: Vec<&str> = reply["data"]["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .collect();
    assert_eq!(
        buttons,
        [
            "challenge:accept:1",
            "challenge:decline:1",
            "challenge:cancel:1"
        ]
    );

    // bob accepts with the button: the challenge message loses its buttons, and the board is
    // posted mentioning alice, who moves first.
    let (update, click) = bot.click(&bob(), "challenge:accept:1").await;
    assert_eq!(update["type"], 7);
    assert_eq!(update["data"]["components"], serde_json::json!([]));
    let board = &bot.fake.wait_followups(&click.token, 1).await[0];
    assert!(board
        .str_at("/content")
        .unwrap()
        .starts_with(&alice().mention()));
    assert_eq!(
        board.at("/allowed_mentions/users"),
        &serde_json::json!([alice().id.to_string()])
    );
    let start_text = embed_text(board.body.as_ref().unwrap());
    assert!(
        start_text.contains("Game #1 · 3x5 · rated · 1 day per move"),
        "{start_text}"
    );
    assert!(start_text.contains("5️⃣⚫⚫⚫"), "{start_text}");

    let moves = [
        ("a4-a3", alice(), bob()),
        ("c2-c3", bob(), alice()),
        ("a3xb2", alice(), bob()),
        ("c3xb4", bob(), alice()),
    ];
    for (mv, by, next) in &moves {
        let r = bot.play(by, mv).await;
        assert_eq!(r["type"], 4, "{r}");
        assert!(!is_ephemeral(&r));
        assert!(
            r["data"]["content"]
                .as_str()
                .unwrap()
                .starts_with(&next.mention()),
            "{r}"
        );
        assert_eq!(
            r["data"]["allowed_mentions"]["users"],
            serde_json::json!([next.id.to_string()])
        );
        let text = embed_text(&r["data"]);
        assert!(text.contains(&format!("Last move: {mv}")), "{text}");
    }
    let last = bot.play(&alice(), "b2xa1").await;
    let text = embed_text(&last["data"]);
    assert!(
        text.contains("Black (alice) wins: a piece reached the far row"),
        "{text}"
    );
    assert!(text.contains("alice: 1500? → 1662? (+162)"), "{text}");
    assert!(text.contains("bob: 1500? → 1338? (-162)"), "{text}");
    assert_eq!(
        last["data"]["allowed_mentions"]["users"],
        serde_json::json!([])
    );

    let store = bot.store().await;
    let game = store.game(GameId::new(1)).await.unwrap().unwrap();
    assert_eq!(
        (game.state.as_str(), game.winner.map(|c| c.name())),
        ("finished", Some("black"))
    );
    let moves: Vec<String> = store
        .moves(GameId::new(1))
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.notation)
        .collect();
    assert_eq!(moves, ["a4-a3", "c2-c3", "a3xb2", "c3xb4", "b2xa1"]);
    let rating = store
        .rating(
            GuildId::new(GUILD_ID),
            alice().id.into(),
            "3x5".parse().unwrap(),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(rating.value.rating.round(), 1662.0);
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_autocomplete_offers_exactly_the_legal_moves_typed_so_far() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "8x8").await;
    let choices = |v: Value| -> Vec<String> {
        v["data"]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["name"].as_str().map(String::from))
            .collect()
    };
    let typed = |who: TestUser, partial: &'static str| {
        InteractionBuilder::autocomplete("move")
            .by(&who)
            .focused("move", partial)
    };
    let r = bot.slash(typed(alice(), "e7")).await;
    assert_eq!(r["type"], 8);
    assert_eq!(choices(r), ["e7-d6", "e7-e6", "e7-f6"]);
    let all = choices(bot.slash(typed(alice(), "")).await);
    assert_eq!(all.len(), 22);
    assert_eq!(
        choices(bot.slash(typed(alice(), "H7-")).await),
        ["h7-g6", "h7-h6"]
    );
    assert!(choices(bot.slash(typed(alice(), "e2")).await).is_empty());
    // Not bob's turn: nothing to offer.
    assert!(choices(bot.slash(typed(bob(), "")).await).is_empty());
    bot.finish();
}

/// `/board` from a player answers them alone, from their own side; an onlooker sees the
/// channel's board, White at the bottom, in public; a board turned round is only ever private.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_player_sees_the_board_from_their_own_side_and_onlookers_see_whites() {
    let bot = start().await;
    // alice has Black, bob White.
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "b4-c3").await;
    let board = |who: TestUser, flip: Option<bool>| {
        let mut b = InteractionBuilder::slash("board")
            .by(&who)
            .integer("game", 1);
        if let Some(flip) = flip {
            b = b.boolean("flip", flip);
        }
        b
    };
    // The first row drawn, and the column letters under the board.
    let seen = |r: &Value| -> (String, String) {
        let grid = r["data"]["embeds"][0]["description"].as_str().unwrap();
        let lines: Vec<&str> = grid.lines().collect();
        let letters = lines.last().unwrap().replace('\u{200B}', "");
        (lines[0].to_string(), letters)
    };
    let white_view = ("5️⃣⚫⚫⚫".to_string(), "⬛🇦🇧🇨".to_string());
    let black_view = ("1️⃣⚪⚪⚪".to_string(), "⬛🇨🇧🇦".to_string());

    let r = bot.slash(board(alice(), None)).await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), black_view);
    // The last move's arrow points the way the piece went as drawn: b4-c3 goes up and left.
    assert!(
        r["data"]["embeds"][0]["description"]
            .as_str()
            .unwrap()
            .contains("↖️"),
        "{r}"
    );
    let r = bot.slash(board(bob(), None)).await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), white_view);
    let r = bot.slash(board(alice(), Some(true))).await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), white_view);

    let r = bot.slash(board(carol(), None)).await;
    assert!(!is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), white_view);
    assert!(
        r["data"]["embeds"][0]["description"]
            .as_str()
            .unwrap()
            .contains("↘️"),
        "{r}"
    );
    let r = bot.slash(board(carol(), Some(true))).await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(seen(&r), black_view);
    // The boards posted for moves keep the channel's orientation.
    let r = bot.play(&bob(), "a2-a3").await;
    assert_eq!(seen(&r), white_view);
    bot.finish();
}

/// A display name made of markdown, a link and mentions.
const HOSTILE: &str = "[free nitro](https://example.com) **x** @everyone <@1> `y` _z_ ~w~ |v|";
/// The same name as every message must carry it.
const HOSTILE_ESCAPED: &str = r"\[free nitro\]\(https\:\/\/example\.com\) \*\*x\*\* \@everyone \<\@1\> \`y\` \_z\_ \~w\~ \|v\|";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_name_stays_text_and_no_message_pings_anyone_else() {
    let bot = start().await;
    let mallory = TestUser::new(300_000_000_000_000_009, HOSTILE);
    bot.challenge(&mallory, Some(&alice()), "3x5").await;
    let (_, click) = bot.click(&alice(), "challenge:accept:1").await;
    bot.fake.wait_followups(&click.token, 1).await;
    let moves = [
        ("a4-a3", &mallory),
        ("c2-c3", &alice()),
        ("a3xb2", &mallory),
        ("c3xb4", &alice()),
    ];
    for (mv, by) in moves {
        bot.play(by, mv).await;
    }
    // alice, not to move, is told whose turn it is.
    let r = bot.play(&alice(), "a1-a2").await;
    assert_eq!(
        r["data"]["content"],
        format!("it is not your turn: {HOSTILE_ESCAPED} is to move")
    );
    let last = bot.play(&mallory, "b2xa1").await;
    let text = embed_text(&last["data"]);
    assert!(
        text.contains(&format!(
            "Black ({HOSTILE_ESCAPED}) wins: a piece reached the far row"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{HOSTILE_ESCAPED}: 1500? → 1662? (+162)")),
        "{text}"
    );
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("history")
                .by(&alice())
                .integer("game", 1),
        )
        .await;
    let request = bot.fake.callback_request_for(sent.id).await;
    let file = request.file("breakthrough-game-1.txt").expect("a file");
    assert!(
        file.text().contains(&format!("[Black \"{HOSTILE}\"]")),
        "{}",
        file.text()
    );
    for user in [None, Some(&mallory)] {
        let mut b = InteractionBuilder::slash("rating").by(&mallory);
        if let Some(u) = user {
            b = b.user("user", u);
        }
        let r = bot.slash(b).await;
        assert!(embed_text(&r["data"]).contains(HOSTILE_ESCAPED), "{r}");
    }
    bot.slash(InteractionBuilder::slash("games").by(&alice()))
        .await;
    bot.slash(InteractionBuilder::slash("leaderboard").by(&alice()))
        .await;

    // Every message the bot sent: the name never raw, and no ping but the one meant.
    let mut messages = 0;
    for r in bot.fake.requests() {
        let Some(body) = &r.body else { continue };
        let message = if body.get("type").is_some() {
            &body["data"]
        } else {
            body
        };
        if message.get("content").is_none() && message.get("embeds").is_none() {
            continue;
        }
        messages += 1;
        let all = message.to_string();
        assert!(!all.contains("nitro]("), "{} {}: {all}", r.method, r.path);
        assert!(!all.contains("**x**"), "{} {}: {all}", r.method, r.path);
        let mentions = &message["allowed_mentions"];
        assert!(mentions.is_object(), "{} {}: {all}", r.method, r.path);
        assert!(
            mentions["parse"].as_array().is_none_or(|p| p.is_empty()),
            "{} {}: {all}",
            r.method,
            r.path
        );
        for user in mentions["users"].as_array().into_iter().flatten() {
            let id = user.as_str().unwrap_or("");
            assert!(
                id == alice().id.to_string() || id == mallory.id.to_string(),
                "{all}"
            );
        }
    }
    assert!(messages >= 12, "{messages}");
    bot.finish();
}
