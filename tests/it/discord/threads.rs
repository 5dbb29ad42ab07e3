//! Games in threads of their own, with the real bot against the fake Discord: a server that turns
//! threads on gets a public thread for each game, opened on the board's message; the game is
//! played there without a game number, its result goes to the channel it started in, and the
//! thread is archived. Every refusal leaves the game in its channel, losing nothing.

use std::time::Duration;

use serde_json::Value;

use super::{alice, bob, embed_text, is_ephemeral, start, wait_outbox_empty, Bot};
use crate::common::fake_discord::{FakeThread, InteractionBuilder, TestUser, CHANNEL_ID};

/// Fixed choices travel as their index: `threads:on`.
const ON: i64 = 0;

async fn threads_on(bot: &Bot) {
    let r = bot
        .slash(
            InteractionBuilder::slash("server-settings")
                .by(&alice())
                .integer("threads", ON),
        )
        .await;
    assert!(content(&r).contains("threads: on"), "{r}");
}

fn content(reply: &Value) -> &str {
    reply["data"]["content"].as_str().unwrap_or_default()
}

/// `who` plays `mv` in the thread, without a game number; the answer.
async fn move_in(bot: &Bot, thread: &FakeThread, who: &TestUser, mv: &str) -> Value {
    let b = InteractionBuilder::slash("move").by(who).string("move", mv);
    slash_in(bot, thread, b).await
}

/// A command in the thread, answered.
async fn slash_in(bot: &Bot, thread: &FakeThread, b: InteractionBuilder) -> Value {
    let sent = bot.fake.send_interaction(b.in_fake_thread(thread)).await;
    bot.fake.callback_for(sent.id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_threads_on_a_game_is_played_in_its_own_thread_and_its_result_told_in_the_channel() {
    let bot = start().await;
    threads_on(&bot).await;
    bot.challenge(&alice(), Some(&bob()), "3x5").await;
    bot.slash(InteractionBuilder::slash("accept").by(&bob()))
        .await;
    // The thread opens on the message that shows the new game's board.
    let thread = bot.fake.wait_thread_in(CHANNEL_ID).await;
    assert_eq!(thread.name, "#1 alice vs bob · 3x5");
    let started_on = bot
        .fake
        .messages_in(CHANNEL_ID)
        .into_iter()
        .find(|m| m["id"].as_str() == Some(thread.id.to_string().as_str()))
        .expect("the thread's message is in the channel");
    assert!(embed_text(&started_on).contains("Game #1"), "{started_on}");
    wait_outbox_empty(&bot.db).await;

    // In the thread, commands need no game number.
    let moved = move_in(&bot, &thread, &alice(), "a4-a3").await;
    assert!(!is_ephemeral(&moved), "{moved}");
    assert!(embed_text(&moved["data"]).contains("Game #1"), "{moved}");
    // From the channel it left, a move is refused privately and points to the thread.
    let refused = bot.play(&bob(), "c2-c3").await;
    assert!(is_ephemeral(&refused), "{refused}");
    assert!(
        content(&refused).contains(&format!("<#{}>", thread.id)),
        "{refused}"
    );
    let history = slash_in(
        &bot,
        &thread,
        InteractionBuilder::slash("history").by(&bob()),
    )
    .await;
    assert!(
        embed_text(&history["data"]).contains("Game #1"),
        "{history}"
    );
    // Outside the thread, where bob has no game of the channel's own, a history needs the
    // game's number.
    let which = bot
        .slash(InteractionBuilder::slash("history").by(&bob()))
        .await;
    assert!(is_ephemeral(&which), "{which}");
    assert_eq!(
        content(&which),
        "you have no game here: say which game with its number (game:12)",
        "{which}"
    );
    let board = slash_in(&bot, &thread, InteractionBuilder::slash("board").by(&bob())).await;
    assert!(embed_text(&board["data"]).contains("Game #1"), "{board}");
    let channel_posts = bot.fake.messages_in(CHANNEL_ID).len();

    // It ends in the thread: one line in the channel with a link to it, and the thread archived.
    for (who, mv) in [
        (bob(), "c2-c3"),
        (alice(), "a3xb2"),
        (bob(), "c3xb4"),
        (alice(), "b2xa1"),
    ] {
        move_in(&bot, &thread, &who, mv).await;
    }
    let archived = bot.fake.wait_thread_archived(thread.id).await;
    assert!(archived.archived);
    let posts = bot.fake.messages_in(CHANNEL_ID);
    assert_eq!(posts.len(), channel_posts + 1, "one line in the channel");
    let said = posts.last().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        said.starts_with("Game #1, alice vs bob: ")
            && said.contains("alice")
            && said.ends_with(&format!("<#{}>", thread.id)),
        "{said}"
    );
    // Every board after the start went to the thread: a move's each, and those asked for.
    let boards = bot
        .fake
        .messages_in(thread.id)
        .iter()
        .filter(|m| embed_text(m).contains("Game #1"))
        .count();
    assert_eq!(boards, 7, "five moves, /history and /board in the thread");
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_permission_for_threads_the_game_stays_in_its_channel_and_the_admin_sees_why() {
    let bot = start().await;
    threads_on(&bot).await;
    bot.fake.refuse_threads(50_013);
    bot.start_game(&alice(), &bob(), "3x5").await;
    wait_outbox_empty(&bot.db).await;
    assert!(bot.fake.threads().is_empty());
    // The game is played in the channel, as without threads.
    let moved = bot.play(&alice(), "a4-a3").await;
    assert!(embed_text(&moved["data"]).contains("Game #1"), "{moved}");
    let shown = bot
        .slash(InteractionBuilder::slash("server-settings").by(&alice()))
        .await;
    assert!(
        content(&shown).contains(&format!(
            "Games in <#{CHANNEL_ID}> could not get a thread ("
        )) && content(&shown).contains("I need Create Public Threads"),
        "{shown}"
    );
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_of_a_thread_leave_each_game_in_its_channel() {
    let bot = start().await;
    threads_on(&bot).await;
    // The server's cap of active threads, then a thread already made on the message.
    bot.fake.set_max_active_threads(0);
    bot.start_game(&alice(), &bob(), "3x5").await;
    wait_outbox_empty(&bot.db).await;
    let shown = bot
        .slash(InteractionBuilder::slash("server-settings").by(&alice()))
        .await;
    assert!(
        content(&shown).contains("as many active threads as Discord allows"),
        "{shown}"
    );
    bot.fake.set_max_active_threads(1000);
    bot.fake.refuse_threads(160_004);
    bot.challenge(&bob(), Some(&alice()), "3x5").await;
    bot.slash(InteractionBuilder::slash("accept").by(&alice()))
        .await;
    wait_outbox_empty(&bot.db).await;
    assert!(bot.fake.threads().is_empty());
    for (who, game, mv) in [(alice(), 1, "a4-a3"), (bob(), 2, "a4-a3")] {
        let moved = bot
            .slash(
                InteractionBuilder::slash("move")
                    .by(&who)
                    .string("move", mv)
                    .integer("game", game),
            )
            .await;
        assert!(!is_ephemeral(&moved), "{moved}");
        assert!(
            embed_text(&moved["data"]).contains(&format!("Game #{game}")),
            "{moved}"
        );
    }
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_thread_is_deleted_goes_on_in_its_channel() {
    let bot = start().await;
    threads_on(&bot).await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let thread = bot.fake.wait_thread_in(CHANNEL_ID).await;
    wait_outbox_empty(&bot.db).await;
    // A moderator deletes it: the game comes back to the channel and is played there.
    bot.fake.dispatch_thread_delete(thread.id).await;
    let mut moved = Value::Null;
    for _ in 0..50 {
        moved = bot.play(&alice(), "a4-a3").await;
        if !is_ephemeral(&moved) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!is_ephemeral(&moved), "{moved}");
    assert!(embed_text(&moved["data"]).contains("Game #1"), "{moved}");
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_to_a_deleted_thread_goes_to_the_channel_instead() {
    let bot = start().await;
    threads_on(&bot).await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let thread = bot.fake.wait_thread_in(CHANNEL_ID).await;
    wait_outbox_empty(&bot.db).await;
    // Deleted with no word to the bot; then the game's next post finds it gone. A vacation
    // notice is such a post.
    bot.fake.delete_thread(thread.id);
    let before = bot.fake.messages_in(CHANNEL_ID).len();
    let r = bot
        .slash(
            InteractionBuilder::slash("vacation")
                .by(&bob())
                .integer("days", 2),
        )
        .await;
    assert!(is_ephemeral(&r), "{r}");
    wait_outbox_empty(&bot.db).await;
    let told: Vec<Value> = bot.fake.messages_in(CHANNEL_ID)[before..]
        .iter()
        .filter(|m| {
            m["content"]
                .as_str()
                .is_some_and(|c| c.contains("bob is on vacation until "))
        })
        .cloned()
        .collect();
    assert_eq!(
        told.len(),
        1,
        "the notice reached the channel once: {told:?}"
    );
    assert!(bot.fake.messages_in(thread.id).iter().all(|m| !m["content"]
        .as_str()
        .unwrap_or_default()
        .contains("on vacation")));
    // And the game goes on there.
    let moved = bot.play(&alice(), "a4-a3").await;
    assert!(!is_ephemeral(&moved), "{moved}");
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_keeps_its_thread_across_a_restart() {
    let mut bot = start().await;
    threads_on(&bot).await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let thread = bot.fake.wait_thread_in(CHANNEL_ID).await;
    wait_outbox_empty(&bot.db).await;
    bot.start_again(&[]).await;
    let moved = move_in(&bot, &thread, &alice(), "a4-a3").await;
    assert!(!is_ephemeral(&moved), "{moved}");
    assert!(embed_text(&moved["data"]).contains("Game #1"), "{moved}");
    assert_eq!(bot.fake.threads().len(), 1, "no second thread");
    bot.finish();
}

/// In a game's thread, a whole game played by taps: each move's board is answered in the thread,
/// as a typed one is, and the result goes to the channel it started in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_by_taps_in_its_thread_is_answered_there() {
    let bot = super::start_with(true, &[("RATE_LIMIT_COMMANDS", "1000")]).await;
    threads_on(&bot).await;
    bot.start_game(&alice(), &bob(), "3x5").await;
    let thread = bot.fake.wait_thread_in(CHANNEL_ID).await;
    wait_outbox_empty(&bot.db).await;
    let players = [alice(), bob()];
    let mut over = false;
    for ply in 0..60 {
        let who = &players[ply % 2];
        let board = bot.fake.message_with_component("game:move:1").unwrap();
        let sent = bot
            .fake
            .send_interaction(
                InteractionBuilder::button("game:move:1")
                    .by(who)
                    .in_fake_thread(&thread)
                    .on_message(&board),
            )
            .await;
        let menu = bot.fake.callback_for(sent.id).await;
        let (id, options) = super::taps::select_of(&menu["data"]);
        assert_eq!(id, format!("move:to:1:{ply}"), "{menu}");
        let value = options
            .iter()
            .map(|(_, v)| v.clone())
            .find(|v| v.contains('x'))
            .unwrap_or_else(|| options[0].1.clone());
        let menu_message = bot.fake.message_with_component(&id).unwrap();
        let sent = bot
            .fake
            .send_interaction(
                InteractionBuilder::select(&id, &[value.as_str()])
                    .by(who)
                    .in_fake_thread(&thread)
                    .on_message(&menu_message),
            )
            .await;
        let done = bot.fake.callback_for(sent.id).await;
        assert_eq!(
            done["data"]["content"],
            format!("You played {value} in game #1."),
            "{done}"
        );
        let posted = bot.fake.wait_followups(&sent.token, 1).await.remove(0);
        let posted = posted.body.expect("a board");
        assert!(
            embed_text(&posted).contains(&format!("Last move: {value}")),
            "{posted}"
        );
        if posted.to_string().contains("game:rematch:1") {
            over = true;
            break;
        }
    }
    assert!(over, "the game ended");
    // Every board in the thread; the result told in the channel.
    let in_thread = bot.fake.messages_in(thread.id);
    assert!(
        in_thread
            .iter()
            .any(|m| m.to_string().contains("game:rematch:1")),
        "{in_thread:?}"
    );
    let told = bot.fake.wait_channel_message(CHANNEL_ID).await;
    assert!(
        told.body
            .as_ref()
            .unwrap()
            .to_string()
            .contains(&format!("<#{}>", thread.id)),
        "{:?}",
        told.body
    );
    bot.finish();
}
