//! Refusals: ephemeral, saying why and changing nothing; the per-member rate limit, which
//! autocomplete never meets; and the setting that limits games against the AI.

use breakthrough_bot::game::{ChallengeId, ChallengeState, GameId, GameState};
use serde_json::Value;

use super::{alice, bob, carol, embed_text, is_ephemeral, start, start_with, the_bot, Bot};
use crate::common::fake_discord::{InteractionBuilder, TestUser};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_ephemeral_say_why_and_change_nothing() {
    let bot = start().await;
    bot.challenge(&alice(), Some(&bob()), "3x5").await;
    // A third member clicking Accept.
    let (refusal, _) = bot.click(&carol(), "challenge:accept:1").await;
    assert_eq!(refusal["type"], 4);
    assert!(is_ephemeral(&refusal));
    assert_eq!(
        refusal["data"]["content"],
        "this challenge is for bob: only they can answer it"
    );

    let accepted = bot
        .slash(InteractionBuilder::slash("accept").by(&bob()))
        .await;
    assert!(!is_ephemeral(&accepted), "{accepted}");

    let cases = [
        (alice(), "a4-a2", "a piece moves one square at a time"),
        (bob(), "a2-a3", "it is not your turn: alice is to move"),
        (
            alice(),
            "a4xa3",
            "there is nothing to capture on a3: write a4-a3",
        ),
        (
            alice(),
            "z9",
            "z9 is off the board: this board is 3x5 (columns a to c, rows 1 to 5)",
        ),
        (
            alice(),
            "banana",
            "cannot read `banana` as a move: write it like e2-e3, or d4xe5 for a capture",
        ),
        (
            carol(),
            "a4-a3",
            "you have no game in progress in this channel",
        ),
    ];
    for (who, mv, why) in cases {
        let r = bot.play(&who, mv).await;
        assert!(is_ephemeral(&r), "{r}");
        assert_eq!(r["data"]["content"], why);
    }
    let r = bot
        .slash(
            InteractionBuilder::slash("move")
                .by(&carol())
                .string("move", "a4-a3")
                .integer("game", 1),
        )
        .await;
    assert_eq!(r["data"]["content"], "you are not playing in game #1");
    let store = bot.store().await;
    assert_eq!(store.game(GameId::new(1)).await.unwrap().unwrap().ply, 0);
    assert!(store.moves(GameId::new(1)).await.unwrap().is_empty());
    bot.finish();
}

// ----- the per-member rate limit ---------------------------------------------------------------

/// The default burst of 8 commands, refilled over 80 s instead of 10 (one back every 10 s), so
/// that a slow machine still sends the 9th before a token comes back.
const SLOW_REFILL: [(&str, &str); 1] = [("RATE_LIMIT_PERIOD_SECS", "80")];

fn assert_slow_down(reply: &Value) {
    assert_eq!(reply["type"], 4, "{reply}");
    assert!(is_ephemeral(reply), "{reply}");
    let text = reply["data"]["content"].as_str().unwrap_or_default();
    let wait = text
        .strip_prefix("you are sending commands too fast: try again in ")
        .and_then(|rest| rest.strip_suffix(" s"))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(
        wait.is_some_and(|n| (1..=10).contains(&n)),
        "not a slow-down reply: {reply}"
    );
}

impl Bot {
    async fn help(&self, who: &TestUser) {
        let help = self.slash(InteractionBuilder::slash("help").by(who)).await;
        assert!(
            help["data"]["content"]
                .as_str()
                .is_some_and(|c| c.contains("/challenge")),
            "help was not served: {help}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ninth_quick_command_is_refused_and_does_nothing_while_others_are_served() {
    let bot = start_with(true, &SLOW_REFILL).await;
    let reply = bot.challenge(&alice(), Some(&bob()), "3x5").await;
    assert!(!is_ephemeral(&reply), "{reply}");
    for _ in 0..7 {
        bot.help(&alice()).await;
    }
    // The 9th: /cancel would end the challenge.
    let refused = bot
        .slash(InteractionBuilder::slash("cancel").by(&alice()))
        .await;
    assert_slow_down(&refused);
    let store = bot.store().await;
    let challenge = store.challenge(ChallengeId::new(1)).await.unwrap().unwrap();
    assert_eq!(challenge.state, ChallengeState::Pending);
    // bob has his own bucket: his /accept starts the game.
    let game = bot
        .slash(InteractionBuilder::slash("accept").by(&bob()))
        .await;
    assert!(!is_ephemeral(&game), "{game}");
    assert!(embed_text(&game["data"]).contains("Game #1"), "{game}");
    assert_eq!(
        store.game(GameId::new(1)).await.unwrap().unwrap().state,
        GameState::Active
    );
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_is_never_rate_limited() {
    let bot = start_with(true, &SLOW_REFILL).await;
    bot.start_game(&alice(), &bob(), "8x8").await;
    let suggest = || async {
        let r = bot
            .slash(
                InteractionBuilder::autocomplete("move")
                    .by(&alice())
                    .focused("move", "e7"),
            )
            .await;
        assert_eq!(r["type"], 8, "{r}");
        assert_eq!(
            r["data"]["choices"].as_array().map(Vec::len),
            Some(3),
            "{r}"
        );
    };
    // More suggestions than the whole burst: none of them is counted.
    for _ in 0..12 {
        suggest().await;
    }
    for _ in 0..7 {
        bot.help(&alice()).await;
    }
    let refused = bot.play(&alice(), "e7-e6").await;
    assert_slow_down(&refused);
    let store = bot.store().await;
    assert!(store.moves(GameId::new(1)).await.unwrap().is_empty());
    // Over the limit, she is still offered her moves.
    suggest().await;
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_click_over_the_limit_is_refused_the_same_way() {
    let bot = start_with(true, &SLOW_REFILL).await;
    bot.challenge(&alice(), Some(&bob()), "3x5").await;
    for _ in 0..8 {
        bot.help(&bob()).await;
    }
    let (refused, _) = bot.click(&bob(), "challenge:accept:1").await;
    assert_slow_down(&refused);
    let store = bot.store().await;
    assert_eq!(
        store
            .challenge(ChallengeId::new(1))
            .await
            .unwrap()
            .unwrap()
            .state
            .as_str(),
        "pending"
    );
    assert!(store.game(GameId::new(1)).await.unwrap().is_none());
    // alice, within her limit, can still use the buttons.
    let (cancelled, _) = bot.click(&alice(), "challenge:cancel:1").await;
    assert_eq!(cancelled["type"], 7, "{cancelled}");
    assert_eq!(
        store
            .challenge(ChallengeId::new(1))
            .await
            .unwrap()
            .unwrap()
            .state
            .as_str(),
        "cancelled"
    );
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_games_setting_limits_games_against_the_ai() {
    let bot = start_with(true, &[("AI_GAMES_PER_MEMBER", "1")]).await;
    let against_the_ai = || {
        InteractionBuilder::slash("challenge")
            .by(&alice())
            .user("opponent", &the_bot())
            .string("size", "5x5")
            .integer("color", 0)
    };
    let first = bot.slash(against_the_ai()).await;
    assert!(!is_ephemeral(&first), "{first}");
    let second = bot.slash(against_the_ai()).await;
    assert_eq!(second["type"], 4, "{second}");
    assert!(is_ephemeral(&second), "{second}");
    assert_eq!(
        second["data"]["content"],
        "you already have 1 game against the AI in progress, the most allowed: finish or resign one first"
    );
    let store = bot.store().await;
    assert!(store.game(GameId::new(1)).await.unwrap().is_some());
    assert!(store.game(GameId::new(2)).await.unwrap().is_none());
    bot.finish();
}
