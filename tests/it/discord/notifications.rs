//! Direct messages: a vacation confirmed privately and told to the opponent, and turn
//! notifications, including when a member's direct messages are closed.

use super::{alice, bob, carol, embed_text, is_ephemeral, start, EPHEMERAL};
use crate::common::fake_discord::{InteractionBuilder, CHANNEL_ID, GUILD_ID};

/// `/vacation` answers the member privately, tells each opponent once in the game's channel,
/// and the board says whose clock waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_is_confirmed_privately_and_told_to_the_opponent() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let r = bot
        .slash(
            InteractionBuilder::slash("vacation")
                .by(&alice())
                .integer("days", 2),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    let said = r["data"]["content"].as_str().unwrap();
    assert!(said.starts_with("You are on vacation until "), "{said}");
    assert!(
        said.contains("your game in progress, and your opponents are told"),
        "{said}"
    );
    assert!(said.ends_with("19 days left this year."), "{said}");
    // Its end as a Discord timestamp, shown in each reader's own zone, never as UTC text.
    assert!(said.starts_with("You are on vacation until <t:"), "{said}");
    assert!(!said.contains("UTC"), "{said}");
    let told = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let body = told.body.as_ref().unwrap();
    let content = body["content"].as_str().unwrap();
    assert!(content.starts_with(&bob().mention()), "{content}");
    assert!(
        content.contains("alice is on vacation until ")
            && content.contains("in game #1 their clock waits for them; yours runs as usual."),
        "{content}"
    );
    assert!(
        content.contains("alice is on vacation until <t:"),
        "{content}"
    );
    assert_eq!(
        body["allowed_mentions"]["users"],
        serde_json::json!([bob().id.to_string()])
    );
    let board = bot
        .slash(
            InteractionBuilder::slash("board")
                .by(&carol())
                .integer("game", 1),
        )
        .await;
    let shown = embed_text(&board["data"]);
    assert!(shown.contains("alice is on vacation until <t:"), "{board}");
    // The time left as the moment it runs out, which the reader's client counts down.
    assert!(shown.contains(" · time runs out <t:"), "{shown}");
    // A second vacation while on one is refused, privately.
    let r = bot
        .slash(
            InteractionBuilder::slash("vacation")
                .by(&alice())
                .integer("days", 1),
        )
        .await;
    assert!(is_ephemeral(&r));
    assert!(
        r["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("you are on vacation until "),
        "{r}"
    );
    bot.finish();
}

/// With `/notify dm:true`, a member gets a direct message each time it becomes their turn: the
/// board from their side, the opponent's move, the time left and a link to the game's message.
/// When Discord refuses it (their direct messages are closed), the setting turns itself off and
/// they are told once, privately, at their next command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turn_notifications_by_direct_message_and_when_they_are_refused() {
    use std::time::Duration;
    let bot = start().await;
    let r = bot
        .slash(
            InteractionBuilder::slash("notify")
                .by(&alice())
                .boolean("dm", true),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    assert!(
        r["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("Turn notifications by direct message are on"),
        "{r}"
    );
    let r = bot
        .slash(InteractionBuilder::slash("notify").by(&alice()))
        .await;
    assert!(
        r["data"]["content"].as_str().unwrap().contains("are on"),
        "{r}"
    );

    // The last board posted: the message a direct message links to.
    let fake = &bot.fake;
    let last_board = || {
        let board = fake
            .requests()
            .into_iter()
            .rfind(|r| r.method == "GET" && r.path.ends_with("/messages/@original"))
            .expect("the board's message read back");
        board.response.as_ref().unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let link = |message: &str| {
        format!("Go to the game: https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{message}")
    };
    // bob accepts alice's challenge: alice, Black, has the first move and is told.
    bot.start_game(&alice(), &bob(), "3x5").await;
    let opened = fake
        .wait_for("a direct message channel", Duration::from_secs(10), |r| {
            r.method == "POST" && r.path == "/users/@me/channels"
        })
        .await;
    assert_eq!(
        opened.body.as_ref().unwrap()["recipient_id"],
        alice().id.to_string()
    );
    let dm: u64 = opened.response.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let first = fake.wait_channel_message(dm).await;
    let content = first.body.as_ref().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        content.starts_with(
            "Your move in game #1 against bob: the game has begun and you have the first move."
        ),
        "{content}"
    );
    assert!(content.ends_with(&link(&last_board())), "{content}");
    // alice moves, then bob: alice's turn is told again.
    bot.play(&alice(), "a4-a3").await;
    bot.play(&bob(), "c2-c3").await;
    let told = fake.wait_channel_messages(dm, 2).await.pop().unwrap();
    let body = told.body.as_ref().unwrap();
    let content = body["content"].as_str().unwrap();
    assert!(
        content
            .starts_with("Your move in game #1 against bob: bob played c2-c3. Time runs out <t:"),
        "{content}"
    );
    // The deadline as a Discord timestamp, which each reader's client counts down in their own
    // zone: a day per move from bob's move, a second or so ago.
    let deadline: i64 = content
        .split("<t:")
        .nth(1)
        .and_then(|rest| rest.split(":R>.\n").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no relative timestamp in {content}"));
    let day_from_now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        + 86_400;
    assert!(
        (day_from_now - 10..=day_from_now).contains(&deadline),
        "{deadline} vs {day_from_now}"
    );
    // The link goes to the board bob's move posted.
    assert!(content.ends_with(&link(&last_board())), "{content}");
    // Alice's own side: Black at the bottom, row 1 on top.
    let grid = body["embeds"][0]["description"].as_str().unwrap();
    assert!(grid.starts_with("1️⃣"), "{grid}");

    // alice closes her direct messages: the next one is refused, and the setting goes off.
    fake.stub(
        "POST",
        "/channels/{channel_id}/messages",
        403,
        Some(serde_json::json!({
            "message": "Cannot send messages to this user", "code": 50007
        })),
    );
    bot.play(&alice(), "a3xb2").await;
    bot.play(&bob(), "c3xb4").await;
    fake.wait_for("the refused direct message", Duration::from_secs(10), |r| {
        r.method == "POST" && r.path == format!("/channels/{dm}/messages") && r.status == 403
    })
    .await;
    let store = bot.store().await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while store.dm_setting(alice().id.into()).await.unwrap().0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the setting stayed on"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Her next command is answered as usual, then she is told, once and privately.
    let sent = fake
        .send_interaction(InteractionBuilder::slash("games").by(&alice()))
        .await;
    fake.callback_for(sent.id).await;
    let notes = fake.wait_followups(&sent.token, 1).await;
    let note = notes[0].body.as_ref().unwrap();
    assert!(
        note["content"]
            .as_str()
            .unwrap()
            .starts_with("Your turn notifications are off: Discord would not deliver"),
        "{note}"
    );
    assert_ne!(note["flags"].as_u64().unwrap_or(0) & EPHEMERAL, 0);
    let sent = fake
        .send_interaction(InteractionBuilder::slash("games").by(&alice()))
        .await;
    fake.callback_for(sent.id).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(fake
        .requests()
        .iter()
        .all(|r| !r.path.contains(&sent.token) || r.path.ends_with("/callback")));
    bot.finish();
}
