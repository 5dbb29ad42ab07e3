//! A vote game through the real bot: `/team-game`, votes by `/move` and by taps, answered to
//! each voter alone, the window's close played by the sweeper, and the AI's answer posted.

use std::time::Duration;

use super::taps::select_of;
use super::{
    alice, bob, carol, embed_text, is_ephemeral, set_deadline, start_with, unix_now,
    InteractionBuilder, CHANNEL_ID,
};
use crate::common::fake_discord::TestUser;
use breakthrough_bot::game::GameId;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_plays_the_ai_by_votes_cast_with_move_and_with_taps() {
    let bot = start_with(true, &[("SWEEP_INTERVAL_SECS", "1")]).await;
    let started = bot
        .slash(
            InteractionBuilder::slash("team-game")
                .by(&alice())
                .string("size", "5x5")
                .integer("color", 0)
                .integer("level", 1)
                .integer("window", 0),
        )
        .await;
    assert!(!is_ephemeral(&started), "{started}");
    let content = started["data"]["content"].as_str().unwrap_or_default();
    assert!(
        content.starts_with(&format!(
            "Game #1: <#{CHANNEL_ID}> plays Black against the AI (level 1)"
        )),
        "{content}"
    );
    assert!(
        content.contains("each window lasts 10 minutes"),
        "{content}"
    );
    // The channel is told to vote, and no one is pinged.
    assert!(content.contains("vote for your move"), "{content}");
    assert_eq!(
        started["data"]["allowed_mentions"]["users"],
        serde_json::json!([])
    );
    assert!(started.to_string().contains("game:move:1"), "{started}");

    // Votes by /move, answered privately with the window's standing.
    let answer = bot.play(&bob(), "a4-a3").await;
    assert!(is_ephemeral(&answer), "{answer}");
    let said = answer["data"]["content"].as_str().unwrap();
    assert!(
        said.starts_with("Your vote for a4-a3 in game #1 is counted. Leading: a4-a3 (1) · 1 voter. The window closes <t:"),
        "{said}"
    );
    let answer = bot.play(&alice(), "b4-b3").await;
    assert!(
        answer["data"]["content"]
            .as_str()
            .unwrap()
            .contains("Leading: a4-a3 (1), b4-b3 (1) · 2 voters"),
        "{answer}"
    );
    // A vote by taps: the Move button opens the menu for the voter alone.
    let (menu, _) = bot.click(&carol(), "game:move:1").await;
    assert!(is_ephemeral(&menu), "{menu}");
    let (id, options) = select_of(&menu["data"]);
    assert_eq!(id, "move:to:1:0");
    assert!(options.iter().any(|(_, v)| v == "a4-a3"));
    let (done, _) = bot.choose(&carol(), &id, "a4-a3").await;
    let said = done["data"]["content"].as_str().unwrap();
    assert!(
        said.starts_with(
            "Your vote for a4-a3 in game #1 is counted. Leading: a4-a3 (2), b4-b3 (1) · 3 voters."
        ),
        "{said}"
    );

    // The board's post counts the votes so far, edited in place.
    let edits = bot
        .fake
        .wait_for_n(
            "three edits of the board's post",
            3,
            Duration::from_secs(10),
            |r| {
                r.method == "PATCH"
                    && r.path
                        .starts_with(&format!("/channels/{CHANNEL_ID}/messages/"))
            },
        )
        .await;
    let last = edits
        .last()
        .and_then(|r| r.body.clone())
        .unwrap_or_default();
    assert!(
        last["content"]
            .as_str()
            .is_some_and(|c| c.contains("vote for your move") && c.ends_with("3 votes so far.")),
        "{last}"
    );
    assert!(edits.iter().all(|r| r.status == 200), "{edits:?}");
    // The window closes: the sweeper plays the leader, says so, and the AI answers.
    set_deadline(&bot.db, GameId::new(1), unix_now() - 1).await;
    // One post: the channel's move with its count, the AI's answer, and the board for the next
    // window.
    let post = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let post = post.body.clone().unwrap_or_default();
    let content = post["content"].as_str().unwrap_or_default();
    assert!(
        content.starts_with(&format!(
            "<#{CHANNEL_ID}> plays a4-a3, with 2 of 3 votes. The AI (level 1) played "
        )),
        "{content}"
    );
    assert!(content.contains("vote for your move"), "{content}");
    assert!(embed_text(&post).contains("Last move: "), "{post}");
    assert!(post.to_string().contains("game:move:1"), "{post}");
    // The next window is open: a vote counts in it, at the new ply.
    let answer = bot.play(&bob(), "b4-b3").await;
    assert!(
        answer["data"]["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("Your vote for b4-b3 in game #1 is counted.")),
        "{answer}"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    bot.fake.assert_spec_ok();
    bot.finish();
}

/// Two channels of the server play each other: the other channel is told of the game, each votes
/// in its own window, and both see each move with its count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_channels_play_each_other_and_both_see_each_move() {
    const EAST: u64 = CHANNEL_ID + 1;
    let bot = start_with(true, &[("SWEEP_INTERVAL_SECS", "1")]).await;
    let started = bot
        .slash(
            InteractionBuilder::slash("team-game")
                .by(&alice())
                .channel("opponent", EAST, "east")
                .string("size", "5x5")
                .integer("color", 0)
                .integer("window", 0),
        )
        .await;
    let content = started["data"]["content"].as_str().unwrap_or_default();
    assert!(
        content.starts_with(&format!(
            "Game #1: <#{CHANNEL_ID}> (Black) plays <#{EAST}> (White), each channel voting on its moves."
        )),
        "{content}"
    );
    // #east hears of it in a post of its own.
    let told = bot.fake.wait_channel_message(EAST).await;
    let told = told.body.clone().unwrap_or_default();
    assert!(
        told["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("Game #1: ")),
        "{told}"
    );
    // #east waits for its window; #general votes.
    fn east_votes(who: &TestUser) -> InteractionBuilder {
        InteractionBuilder::slash("move")
            .by(who)
            .in_channel(EAST)
            .string("move", "c2-c3")
    }
    let early = bot.slash(east_votes(&bob())).await;
    assert!(
        early["data"]["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("in game #1 ")),
        "{early}"
    );
    bot.play(&alice(), "a4-a3").await;
    set_deadline(&bot.db, GameId::new(1), unix_now() - 1).await;
    for channel in [CHANNEL_ID, EAST] {
        let post = bot
            .fake
            .wait_channel_messages(channel, if channel == EAST { 2 } else { 1 })
            .await;
        let post = post.last().and_then(|p| p.body.clone()).unwrap_or_default();
        let content = post["content"].as_str().unwrap_or_default();
        assert!(
            content.starts_with(&format!("<#{CHANNEL_ID}> plays a4-a3, with 1 of 1 vote.")),
            "{channel}: {content}"
        );
        assert!(
            content.contains(&format!("<#{EAST}>, vote for your move")),
            "{content}"
        );
    }
    // alice voted for Black: not for White.
    let other = bot.slash(east_votes(&alice())).await;
    assert_eq!(
        other["data"]["content"],
        "you voted for the other side of game #1; a member votes for one side only"
    );
    let answer = bot.slash(east_votes(&bob())).await;
    assert!(
        answer["data"]["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("Your vote for c2-c3 in game #1 is counted.")),
        "{answer}"
    );
    bot.fake.assert_spec_ok();
    bot.finish();
}
