//! `/analyze`: the deferred summary with every move in a file, and a game in progress refused
//! privately.

use breakthrough_bot::game::GameId;

use super::{alice, bob, carol, embed_text, is_ephemeral, start};
use crate::common::fake_discord::InteractionBuilder;

/// Black wins on 3x5 down the a file in five plies (alice has Black).
const BLACK_WINS: [&str; 5] = ["a4-a3", "c2-c3", "a3xb2", "c3xb4", "b2xa1"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_defers_then_shows_the_summary_with_every_move_in_a_file() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    for (i, mv) in BLACK_WINS.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        bot.play(&who, mv).await;
    }
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("analyze")
                .by(&carol())
                .integer("game", 1),
        )
        .await;
    let deferred = bot.fake.callback_for(sent.id).await;
    assert_eq!(deferred["type"], 5, "{deferred}");
    assert!(!is_ephemeral(&deferred));
    let edit = bot.fake.wait_original_edit(&sent.token).await;
    let body = edit.body.clone().expect("a body");
    let text = embed_text(&body);
    assert!(text.starts_with("Analysis of game #1\n"), "{text}");
    assert!(
        text.contains("alice (Black) against bob (White) · 3x5 · 3 moves"),
        "{text}"
    );
    assert!(text.contains("Black wins in"), "{text}");
    assert!(text.contains("Black's worst moves"), "{text}");
    let file = edit
        .file("breakthrough-analysis-1.txt")
        .expect("every move's evaluation as a file");
    let lines: Vec<String> = file
        .text()
        .lines()
        .filter(|l| l.contains(" → "))
        .map(String::from)
        .collect();
    for (i, mv) in BLACK_WINS.iter().enumerate() {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("{} · ", i + 1)) && l.contains(mv)),
            "ply {} ({mv}) missing:\n{}",
            i + 1,
            file.text()
        );
    }
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_refuses_a_game_between_members_in_progress_privately() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "a4-a3").await;
    for who in [alice(), carol()] {
        let r = bot
            .slash(
                InteractionBuilder::slash("analyze")
                    .by(&who)
                    .integer("game", 1),
            )
            .await;
        assert_eq!(r["type"], 4, "{r}");
        assert!(is_ephemeral(&r), "{r}");
        assert_eq!(
            r["data"]["content"],
            "game #1 is still being played: a game between members can be analysed once it is \
             over, so that the engine helps no one during play"
        );
    }
    // In Spanish, and for a game that does not exist as /history says it.
    let r = bot
        .slash(
            InteractionBuilder::slash("analyze")
                .by(&carol())
                .locale("es-ES")
                .integer("game", 7),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert_eq!(r["data"]["content"], "aquí no existe la partida #7");
    let store = bot.store().await;
    assert_eq!(store.game(GameId::new(1)).await.unwrap().unwrap().ply, 1);
    bot.finish();
}
