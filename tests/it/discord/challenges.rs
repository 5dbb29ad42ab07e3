//! Challenges and their buttons: open challenges, decline, cancel, resign and abort, and the
//! Rematch button, against a member or the AI.

use breakthrough_bot::game::{ChallengeId, GameId, GameState};

use super::{alice, bob, carol, embed_text, is_ephemeral, start, the_bot};
use crate::common::fake_discord::InteractionBuilder;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_challenge_decline_cancel_resign_and_abort() {
    let bot = start().await;
    // An open challenge, taken by carol.
    let open = bot.challenge(&alice(), None, "5x5").await;
    let ids: Vec<&str> = open["data"]["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .collect();
    assert_eq!(ids, ["challenge:accept:1", "challenge:cancel:1"]);
    // When it expires, as a Discord timestamp each reader's client counts down.
    let said = open["data"]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
        + &embed_text(&open["data"]);
    assert!(
        said.contains("expires <t:") && said.contains(":R>"),
        "{said}"
    );
    let (update, click) = bot.click(&carol(), "challenge:accept:1").await;
    assert_eq!(update["type"], 7);
    let board = &bot.fake.wait_followups(&click.token, 1).await[0];
    assert!(embed_text(board.body.as_ref().unwrap()).contains("Game #1 · 5x5"));

    // A decline by button, and a cancel by command.
    bot.challenge(&alice(), Some(&bob()), "6x6").await;
    let (declined, _) = bot.click(&bob(), "challenge:decline:2").await;
    assert_eq!(declined["type"], 7);
    assert_eq!(declined["data"]["content"], "Challenge #2 is declined.");
    bot.challenge(&bob(), Some(&alice()), "7x7").await;
    let cancelled = bot
        .slash(InteractionBuilder::slash("cancel").by(&bob()))
        .await;
    assert!(is_ephemeral(&cancelled));
    assert_eq!(cancelled["data"]["content"], "Cancelled challenge #3.");

    // Resign asks first; "Keep playing" changes nothing, "Resign" ends the game.
    let ask = bot
        .slash(InteractionBuilder::slash("resign").by(&carol()))
        .await;
    assert!(is_ephemeral(&ask));
    let (kept, _) = bot.click(&carol(), "resign:no:1").await;
    assert_eq!(kept["data"]["content"], "You keep playing.");
    assert_eq!(kept["data"]["components"], serde_json::json!([]));
    let store = bot.store().await;
    assert_eq!(
        store.game(GameId::new(1)).await.unwrap().unwrap().state,
        GameState::Active
    );
    bot.slash(InteractionBuilder::slash("resign").by(&carol()))
        .await;
    // The button resigns whoever clicks it, and only a player can: bob is refused.
    let (refused, _) = bot.click(&bob(), "resign:yes:1").await;
    assert!(is_ephemeral(&refused));
    assert_eq!(refused["data"]["content"], "you are not playing in game #1");
    let (done, click) = bot.click(&carol(), "resign:yes:1").await;
    assert_eq!(done["type"], 7);
    let result = &bot.fake.wait_followups(&click.token, 1).await[0];
    let text = embed_text(result.body.as_ref().unwrap());
    assert!(
        text.contains("Black (alice) wins: carol resigned"),
        "{text}"
    );

    // Abort before both have moved; then abort is refused once both have. (bob challenges:
    // alice may not challenge bob again for an hour after he declined.)
    bot.start_game(&bob(), &alice(), "8x8").await;
    let aborted = bot
        .slash(InteractionBuilder::slash("abort").by(&bob()))
        .await;
    assert!(embed_text(&aborted["data"]).contains("Aborted: no result"));
    assert_eq!(
        store.game(GameId::new(2)).await.unwrap().unwrap().state,
        GameState::Aborted
    );
    bot.finish();
}

/// A finished game's message carries a Rematch button: pressed by either player it posts a
/// challenge to the other, colours swapped, with the usual buttons; pressed again it is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rematch_button_challenges_the_other_player_once() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    for (mv, by) in [
        ("a4-a3", alice()),
        ("c2-c3", bob()),
        ("a3xb2", alice()),
        ("c3xb4", bob()),
    ] {
        bot.play(&by, mv).await;
    }
    let last = bot.play(&alice(), "b2xa1").await;
    let row = &last["data"]["components"][0]["components"][0];
    assert_eq!(
        (row["custom_id"].as_str(), row["label"].as_str()),
        (Some("game:rematch:1"), Some("Rematch"))
    );

    let (posted, _) = bot.click(&bob(), "game:rematch:1").await;
    assert_eq!(posted["type"], 4, "{posted}");
    assert!(!is_ephemeral(&posted));
    let content = posted["data"]["content"].as_str().unwrap();
    assert!(content.starts_with(&alice().mention()), "{content}");
    assert_eq!(
        posted["data"]["allowed_mentions"]["users"],
        serde_json::json!([alice().id.to_string()])
    );
    let text = embed_text(&posted["data"]);
    // bob had White: now he has Black. Same board, time and rating.
    assert!(
        text.contains(
            "Challenge #2: bob challenges alice · 3x5 · bob plays black · 1 day per move · rated"
        ),
        "{text}"
    );
    let buttons: Vec<&str> = posted["data"]["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .collect();
    assert_eq!(
        buttons,
        [
            "challenge:accept:2",
            "challenge:decline:2",
            "challenge:cancel:2"
        ]
    );

    // alice presses it too, and later asks with the command: one rematch.
    let (again, _) = bot.click(&alice(), "game:rematch:1").await;
    assert!(is_ephemeral(&again), "{again}");
    assert_eq!(
        again["data"]["content"],
        "the rematch of game #1 has already been offered"
    );
    let r = bot
        .slash(
            InteractionBuilder::slash("rematch")
                .by(&alice())
                .integer("game", 1),
        )
        .await;
    assert_eq!(
        r["data"]["content"],
        "the rematch of game #1 has already been offered"
    );
    let store = bot.store().await;
    assert!(store
        .challenge(ChallengeId::new(3))
        .await
        .unwrap()
        .is_none());
    bot.finish();
}

/// Against the AI the rematch is the game itself; when the AI now has Black it opens, in a
/// deferred response completed with its move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_the_ai_starts_at_once_and_the_ai_opens() {
    let bot = start().await;
    let r = bot
        .slash(
            InteractionBuilder::slash("challenge")
                .by(&alice())
                .user("opponent", &the_bot())
                .string("size", "5x5")
                .integer("color", 0),
        )
        .await;
    assert_eq!(r["type"], 4, "{r}");
    bot.slash(InteractionBuilder::slash("resign").by(&alice()))
        .await;
    let (_, resigned) = bot.click(&alice(), "resign:yes:1").await;
    // The board of the game resigned, posted for the channel, carries the button.
    bot.fake.wait_followups(&resigned.token, 1).await;
    let (deferred, click) = bot.click(&alice(), "game:rematch:1").await;
    assert_eq!(deferred["type"], 5, "{deferred}");
    let edit = bot.fake.wait_original_edit(&click.token).await;
    let body = edit.body.clone().expect("a body");
    assert!(
        body["content"]
            .as_str()
            .unwrap()
            // At the level that meets alice: a newcomer's 2, one down after her loss.
            .contains("The AI (level 1) played"),
        "{body}"
    );
    let text = embed_text(&body);
    assert!(text.contains("Game #2 · 5x5 · vs AI (level 1)"), "{text}");
    assert!(text.contains("Move 1 · White to move: alice"), "{text}");
    bot.finish();
}
