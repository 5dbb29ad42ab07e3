//! A change that went through is never lost with its reply: when Discord fails the follow-up
//! that carries the public board of a game begun by the Accept button, or ended by a confirmed
//! resignation, or the deferred response that shows the AI's reply, the board goes to the
//! channel through the outbox, and nobody is told that something failed.

use crate::common::fake_discord::{InteractionBuilder, StubAnswer, CHANNEL_ID};
use crate::discord::{alice, bob, carol, embed_text, is_ephemeral, start, the_bot, Bot};

/// The words of the apology a member gets when something fails on the bot's side.
const APOLOGY: &str = "something went wrong";

/// Fails the next follow-up message the bot sends, as Discord does now and then with a 500.
fn fail_next_followup(bot: &Bot) {
    bot.fake.add_stub(
        "POST",
        "/webhooks/{application_id}/{token}",
        StubAnswer::server_error().times(1),
    );
}

/// Whether any message the bot sent carries the apology.
fn apologized(bot: &Bot) -> bool {
    bot.fake.requests().iter().any(|r| {
        r.body
            .as_ref()
            .is_some_and(|b| b.to_string().contains(APOLOGY))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_begun_by_the_accept_button_reaches_the_channel_when_its_followup_fails() {
    let bot = start().await;
    bot.challenge(&alice(), Some(&bob()), "5x5").await;
    fail_next_followup(&bot);
    let (update, click) = bot.click(&bob(), "challenge:accept:1").await;
    assert_eq!(update["type"], 7, "{update}");
    // The follow-up was tried and refused.
    let tried = bot.fake.followups_for(&click.token);
    assert!(tried.len() <= 1, "{}", bot.fake.report());
    // The board comes from the outbox, in the challenge's channel, mentioning alice to move.
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let body = posted.body.as_ref().expect("a message body");
    assert!(
        embed_text(body).contains("Game #1 · 5x5"),
        "{}",
        bot.fake.report()
    );
    assert!(body["content"]
        .as_str()
        .is_some_and(|c| c.starts_with(&alice().mention())));
    assert!(!apologized(&bot), "{}", bot.fake.report());
    // The game did begin: alice moves.
    let moved = bot.play(&alice(), "a4-a3").await;
    assert!(!is_ephemeral(&moved), "{moved}");
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmed_resignation_reaches_the_channel_when_its_followup_fails() {
    let bot = start().await;
    bot.challenge(&alice(), Some(&carol()), "5x5").await;
    bot.slash(InteractionBuilder::slash("accept").by(&carol()))
        .await;
    bot.slash(InteractionBuilder::slash("resign").by(&carol()))
        .await;
    fail_next_followup(&bot);
    let (done, _) = bot.click(&carol(), "resign:yes:1").await;
    assert_eq!(done["type"], 7, "{done}");
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let text = embed_text(posted.body.as_ref().expect("a message body"));
    assert!(
        text.contains("Black (alice) wins: carol resigned"),
        "{text}"
    );
    assert!(!apologized(&bot), "{}", bot.fake.report());
    bot.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ais_reply_reaches_the_channel_when_the_deferred_response_cannot_be_completed() {
    let bot = start().await;
    bot.slash(
        InteractionBuilder::slash("challenge")
            .by(&alice())
            .user("opponent", &the_bot())
            .string("size", "5x5")
            .integer("color", 0)
            .integer("level", 1),
    )
    .await;
    // Completing the deferred response of alice's move fails once, as Discord does with a 500.
    bot.fake.add_stub(
        "PATCH",
        "/webhooks/{application_id}/{token}/messages/@original",
        StubAnswer::server_error().times(1),
    );
    let sent = bot
        .fake
        .send_interaction(
            InteractionBuilder::slash("move")
                .by(&alice())
                .string("move", "a4-a3"),
        )
        .await;
    assert_eq!(bot.fake.callback_for(sent.id).await["type"], 5, "deferred");
    // The board after the AI's reply comes from the outbox, in the game's channel.
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let text = embed_text(posted.body.as_ref().expect("a message body"));
    assert!(text.contains("Game #1 · 5x5 · vs AI (level 1)"), "{text}");
    assert!(text.contains("Last move: "), "{text}");
    assert!(
        !text.contains("Last move: a4-a3"),
        "the AI's move, not alice's: {text}"
    );
    assert!(!apologized(&bot), "{}", bot.fake.report());
    bot.finish();
}

/// A move played by taps whose board's follow-up Discord fails: the move stands, the member is
/// told it was played, and the board reaches the channel through the outbox, pinging the
/// opponent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_played_by_taps_reaches_the_channel_when_its_followup_fails() {
    let bot = start().await;
    bot.start_game(&alice(), &bob(), "5x5").await;
    let (menu, _) = bot.click(&alice(), "game:move:1").await;
    assert_eq!(menu["type"], 4, "{menu}");
    fail_next_followup(&bot);
    let (done, _) = bot.choose(&alice(), "move:to:1:0", "a4-a3").await;
    assert_eq!(done["data"]["content"], "You played a4-a3 in game #1.");
    let posted = bot.fake.wait_channel_message(CHANNEL_ID).await;
    let body = posted.body.as_ref().expect("a message body");
    assert!(embed_text(body).contains("Last move: a4-a3"), "{body}");
    assert!(body["content"]
        .as_str()
        .is_some_and(|c| c.starts_with(&bob().mention())));
    assert!(!apologized(&bot), "{}", bot.fake.report());
    bot.finish();
}
