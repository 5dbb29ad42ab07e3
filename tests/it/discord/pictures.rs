//! Boards as pictures on Discord: a server's choice for its public posts, a member's for what
//! only they see, each picture with its alt text; replays on `/history` and, with pictures, on
//! the post that ends a game; and the interaction's attachment limit kept.

use std::io::Cursor;

use serde_json::Value;

use breakthrough_bot::render::board_png;
use breakthrough_bot::rules::{BoardSize, Color, Move, Position};

use super::{alice, bob, is_ephemeral, start, Bot};
use crate::common::fake_discord::{InteractionBuilder, StoredAttachment, TestUser};

/// Fixed choices travel as their index: `board:image`.
const IMAGE: i64 = 1;

/// The position after `moves` on `size`, and the last of them.
fn after(size: &str, moves: &[&str]) -> (Position, Option<Move>) {
    let size: BoardSize = size.parse().unwrap();
    let mut position = Position::new(size);
    let mut last = None;
    for text in moves {
        let mv = position.parse_move(text).unwrap();
        position = position.play(mv).unwrap();
        last = Some(mv);
    }
    (position, last)
}

/// The files uploaded so far named `name`, oldest first.
fn uploaded(bot: &Bot, name: &str) -> Vec<StoredAttachment> {
    bot.fake
        .uploads()
        .into_iter()
        .filter(|a| a.filename == name)
        .collect()
}

fn frames(gif: &[u8]) -> usize {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(Cursor::new(gif)).unwrap();
    let mut n = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    n
}

/// `who` chooses pictures for what only they see.
async fn choose_pictures(bot: &Bot, who: &TestUser) {
    let b = InteractionBuilder::slash("settings")
        .by(who)
        .integer("board", IMAGE);
    bot.slash(b).await;
}

fn embed_image(reply: &Value) -> Option<&str> {
    reply["data"]["embeds"][0]["image"]["url"].as_str()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_chose_pictures_gets_them_with_alt_text_and_the_replay_at_the_end() {
    let bot = start().await;
    bot.slash(
        InteractionBuilder::slash("server-settings")
            .by(&alice())
            .integer("board", IMAGE),
    )
    .await;
    bot.challenge(&alice(), Some(&bob()), "3x5").await;
    let started = bot
        .slash(InteractionBuilder::slash("accept").by(&bob()))
        .await;
    assert_eq!(
        embed_image(&started),
        Some("attachment://board.png"),
        "{started}"
    );
    assert!(
        started["data"]["embeds"][0]["description"].is_null(),
        "no emoji board beside the picture: {started}"
    );
    let moves = ["a4-a3", "c2-c3", "a3xb2", "c3xb4"];
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        bot.play(&who, mv).await;
    }
    // Each board is the picture of its position, White at the bottom, with its alt text.
    let boards = uploaded(&bot, "board.png");
    assert_eq!(boards.len(), 5, "the start and four moves");
    let (position, last) = after("3x5", &moves);
    assert_eq!(
        boards[4].bytes,
        board_png(&position, last, Color::White).unwrap()
    );
    let alt = boards[4].description.as_deref().unwrap();
    assert!(
        alt.starts_with("Move 3 · Black to move: alice")
            && alt.contains("Last move: c3xb4")
            && alt.contains(" 4  . W b\n 3  . . *\n")
            && alt.contains("b: Black, w: White"),
        "{alt}"
    );
    // The move that ends the game carries the replay: one frame per ply and the start.
    let last_move = bot.play(&alice(), "b2xa1").await;
    assert!(!is_ephemeral(&last_move));
    let replays = uploaded(&bot, "replay.gif");
    assert_eq!(replays.len(), 1, "the end carries the replay");
    assert_eq!(frames(&replays[0].bytes), 6);
    assert!(replays[0]
        .description
        .as_deref()
        .unwrap()
        .contains("game #1"));
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_who_chose_pictures_sees_them_privately_and_the_channel_keeps_emoji() {
    let bot = start().await;
    choose_pictures(&bot, &alice()).await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let public = bot.play(&alice(), "a4-a3").await;
    assert_eq!(
        embed_image(&public),
        None,
        "the server kept emoji: {public}"
    );
    assert!(uploaded(&bot, "board.png").is_empty());
    // alice's own board is private, from her side (Black at the bottom), as a picture.
    let mine = bot
        .slash(InteractionBuilder::slash("board").by(&alice()))
        .await;
    assert!(is_ephemeral(&mine), "{mine}");
    assert_eq!(embed_image(&mine), Some("attachment://board.png"), "{mine}");
    let (position, last) = after("3x5", &["a4-a3"]);
    assert_eq!(
        uploaded(&bot, "board.png")[0].bytes,
        board_png(&position, last, Color::Black).unwrap()
    );
    // bob chose nothing: emoji.
    let his = bot
        .slash(InteractionBuilder::slash("board").by(&bob()))
        .await;
    assert_eq!(embed_image(&his), None, "{his}");
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_carries_the_replay_within_the_attachment_limit() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    bot.play(&alice(), "a4-a3").await;
    bot.play(&bob(), "c2-c3").await;
    let h = bot
        .slash(
            InteractionBuilder::slash("history")
                .by(&bob())
                .integer("game", 1),
        )
        .await;
    assert!(
        h["data"]["embeds"][1]["image"]["url"].as_str() == Some("attachment://replay.gif"),
        "{h}"
    );
    let replays = uploaded(&bot, "replay.gif");
    assert_eq!(replays.len(), 1);
    assert_eq!(frames(&replays[0].bytes), 3);
    // Where Discord takes less than the replay, the history comes without it.
    let tight = bot
        .slash(
            InteractionBuilder::slash("history")
                .by(&bob())
                .integer("game", 1)
                .attachment_size_limit(2_000),
        )
        .await;
    assert!(tight["data"]["embeds"][1].is_null(), "{tight}");
    assert_eq!(uploaded(&bot, "replay.gif").len(), 1, "no second replay");
    assert_eq!(uploaded(&bot, "breakthrough-game-1.txt").len(), 2);
    bot.finish();
}

/// A member who chose pictures gets their turn by direct message as a picture, from their side,
/// while the channel keeps the server's emoji.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_told_by_direct_message_is_a_picture_for_a_member_who_chose_them() {
    let bot = start().await;
    choose_pictures(&bot, &alice()).await;
    bot.slash(
        InteractionBuilder::slash("notify")
            .by(&alice())
            .boolean("dm", true),
    )
    .await;
    // bob accepts: alice, Black, is told her first move by direct message.
    bot.start_game(&alice(), &bob(), "3x5").await;
    let opened = bot
        .fake
        .wait_for(
            "a direct message channel",
            std::time::Duration::from_secs(10),
            |r| r.method == "POST" && r.path == "/users/@me/channels",
        )
        .await;
    let dm: u64 = opened.response.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    bot.fake.wait_channel_message(dm).await;
    let pictures: Vec<StoredAttachment> = uploaded(&bot, "board.png")
        .into_iter()
        .filter(|a| a.channel_id == dm)
        .collect();
    assert_eq!(pictures.len(), 1, "the turn's board as a picture");
    let (position, last) = after("3x5", &[]);
    assert_eq!(
        pictures[0].bytes,
        board_png(&position, last, Color::Black).unwrap(),
        "from alice's side"
    );
    assert!(pictures[0]
        .description
        .as_deref()
        .unwrap()
        .starts_with("Move 1 · Black to move: alice"));
    // The channel saw no picture.
    assert!(uploaded(&bot, "board.png")
        .iter()
        .all(|a| a.channel_id == dm));
    bot.finish();
}
