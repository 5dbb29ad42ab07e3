//! The fake Discord's threads, driven through serenity's own `Http` as the bot drives them:
//! a thread started from a message, posts in it, archiving and the post that unarchives it,
//! each refusal with Discord's status and code, a deleted thread, and interactions sent from a
//! thread.

use serde_json::Value;
use serenity::all::{
    ChannelId, ChannelType, CreateInteractionResponse, CreateInteractionResponseMessage,
    CreateMessage, CreateThread, EditThread, Interaction, Message, MessageId,
};
use serenity::http::{Http, HttpBuilder};

use crate::common::fake_discord::{
    schema_errors, FakeDiscord, InteractionBuilder, TestUser, APPLICATION_ID, CHANNEL_ID, GUILD_ID,
};

/// serenity's `Http` pointed at the fake, as the bot builds it.
pub(crate) fn http_to(fake: &FakeDiscord) -> Http {
    HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .application_id(APPLICATION_ID.into())
        .build()
}

/// The status and JSON error code of a refused request.
pub(crate) fn refusal<T: std::fmt::Debug>(result: serenity::Result<T>) -> (u16, isize, String) {
    match result {
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(e))) => {
            (e.status_code.as_u16(), e.error.code, e.error.message)
        }
        other => panic!("expected Discord to refuse, got {other:?}"),
    }
}

async fn post(http: &Http, channel: u64, content: &str) -> serenity::Result<Message> {
    ChannelId::new(channel)
        .send_message(http, CreateMessage::new().content(content))
        .await
}

async fn start_thread(
    http: &Http,
    message: &Message,
    name: &str,
) -> serenity::Result<serenity::all::GuildChannel> {
    ChannelId::new(CHANNEL_ID)
        .create_thread_from_message(http, message.id, CreateThread::new(name))
        .await
}

/// The answer to the last thread start, checked against the spec's `ThreadResponse` when the
/// spec is there.
fn assert_last_thread_fits_the_spec(fake: &FakeDiscord) {
    let start = fake
        .requests()
        .into_iter()
        .rev()
        .find(|r| r.path.ends_with("/threads"))
        .expect("a thread start");
    assert_eq!(start.status, 201);
    let answer = start.response.expect("a channel object");
    if let Some(errors) = schema_errors("ThreadResponse", &answer) {
        assert!(errors.is_empty(), "{errors:?}\n{answer}");
    }
}

#[tokio::test]
async fn a_thread_from_a_message_takes_posts_is_archived_and_a_post_unarchives_it() {
    let fake = FakeDiscord::start().await;
    let http = http_to(&fake);
    let start = post(&http, CHANNEL_ID, "alice challenges bob")
        .await
        .unwrap();
    let thread = start_thread(&http, &start, "#12 alice vs bob · 8x8")
        .await
        .unwrap();
    assert_eq!(
        thread.id.get(),
        start.id.get(),
        "a thread's id is its message's"
    );
    assert_eq!(thread.kind, ChannelType::PublicThread);
    assert_eq!(thread.parent_id, Some(ChannelId::new(CHANNEL_ID)));
    assert_eq!(thread.guild_id.get(), GUILD_ID);
    assert_eq!(thread.name, "#12 alice vs bob · 8x8");
    assert_last_thread_fits_the_spec(&fake);
    let starter = fake.message(start.id.get()).unwrap();
    assert_eq!(starter["thread"]["id"], start.id.get().to_string());

    let board = post(&http, thread.id.get(), "the board").await.unwrap();
    assert_eq!(board.channel_id, thread.id);
    let in_thread: Vec<Value> = fake.messages_in(thread.id.get());
    assert_eq!(in_thread.len(), 1);
    assert_eq!(in_thread[0]["content"], "the board");
    assert_eq!(fake.channel_messages(thread.id.get()).len(), 1);
    assert_eq!(fake.messages_in(CHANNEL_ID).len(), 1, "only the starter");

    let archived = thread
        .id
        .edit_thread(&http, EditThread::new().archived(true))
        .await
        .unwrap();
    assert!(archived.thread_metadata.unwrap().archived);
    assert!(fake.is_thread_archived(thread.id.get()));
    let patch = &fake.requests_to("PATCH", &format!("/channels/{}", thread.id))[0];
    assert_eq!(patch.at("/archived"), true);

    post(&http, thread.id.get(), "white wins").await.unwrap();
    let after = fake.thread(thread.id.get()).unwrap();
    assert!(!after.archived, "a post unarchives a thread, as on Discord");
    assert_eq!(
        (after.times_archived, after.times_unarchived_by_post),
        (1, 1)
    );
    assert_eq!(after.message_count, 2);
    assert_eq!(fake.messages_in(thread.id.get()).len(), 2);
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

#[tokio::test]
async fn each_thread_refusal_comes_with_discords_status_and_code() {
    let fake = FakeDiscord::start().await;
    let http = http_to(&fake);
    for (code, status, message) in [
        (50013, 403, "Missing Permissions"),
        (
            160004,
            400,
            "A thread has already been created for this message",
        ),
        (160006, 400, "Maximum number of active threads reached"),
    ] {
        fake.refuse_threads_times(code, 1);
        let m = post(&http, CHANNEL_ID, "a game").await.unwrap();
        let got = refusal(start_thread(&http, &m, "game").await);
        assert_eq!(got, (status, code as isize, message.to_string()));
        assert!(fake.thread(m.id.get()).is_none());
        start_thread(&http, &m, "game").await.unwrap();
    }

    // Without any stub: a second thread on the same message.
    let m = post(&http, CHANNEL_ID, "a game").await.unwrap();
    start_thread(&http, &m, "game").await.unwrap();
    let again = refusal(start_thread(&http, &m, "again").await);
    assert_eq!(again.0, 400);
    assert_eq!(again.1, 160004);

    // The server's cap on active threads: archived ones do not count.
    fake.set_max_active_threads(4);
    let fifth = post(&http, CHANNEL_ID, "a fifth game").await.unwrap();
    let capped = refusal(start_thread(&http, &fifth, "fifth").await);
    assert_eq!((capped.0, capped.1), (400, 160006));
    ChannelId::new(m.id.get())
        .edit_thread(&http, EditThread::new().archived(true))
        .await
        .unwrap();
    start_thread(&http, &fifth, "fifth").await.unwrap();

    // A message the fake never saw, and a thread inside a thread.
    let unknown = ChannelId::new(CHANNEL_ID)
        .create_thread_from_message(&http, MessageId::new(42), CreateThread::new("x"))
        .await;
    assert_eq!(refusal(unknown), (404, 10008, "Unknown Message".into()));
    let inner = post(&http, fifth.id.get(), "in the thread").await.unwrap();
    let nested = ChannelId::new(fifth.id.get())
        .create_thread_from_message(&http, inner.id, CreateThread::new("x"))
        .await;
    let nested = refusal(nested);
    assert_eq!((nested.0, nested.1), (400, 50024));

    // Refused for good until the test says otherwise.
    fake.refuse_threads(50013);
    for _ in 0..2 {
        let m = post(&http, CHANNEL_ID, "a game").await.unwrap();
        assert_eq!(refusal(start_thread(&http, &m, "game").await).1, 50013);
    }
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

#[tokio::test]
async fn a_thread_a_moderator_deleted_answers_unknown_channel() {
    let fake = FakeDiscord::start().await;
    let http = http_to(&fake);
    let m = post(&http, CHANNEL_ID, "a game").await.unwrap();
    let thread = start_thread(&http, &m, "game").await.unwrap();
    let user = TestUser::new(300_000_000_000_000_001, "alice");
    let (_, sent_in_thread) =
        fake.prepare_interaction(fake.slash_in("board", &user, thread.id.get()));
    fake.delete_thread(thread.id.get());

    let unknown = (404, 10003, "Unknown Channel".to_string());
    assert_eq!(
        refusal(post(&http, thread.id.get(), "a move").await),
        unknown
    );
    let edit = thread
        .id
        .edit_thread(&http, EditThread::new().archived(true))
        .await;
    assert_eq!(refusal(edit), unknown);
    let answer = CreateInteractionResponse::Message(
        CreateInteractionResponseMessage::new().content("the board"),
    );
    let callback = http
        .create_interaction_response(
            sent_in_thread.id.into(),
            &sent_in_thread.token,
            &answer,
            vec![],
        )
        .await;
    assert_eq!(refusal(callback), unknown);
    assert!(fake.messages_in(thread.id.get()).is_empty());
    // The parent channel still takes posts.
    post(&http, CHANNEL_ID, "the game goes on here")
        .await
        .unwrap();
    assert!(fake.thread(thread.id.get()).unwrap().deleted);
    fake.assert_spec_ok();
}

#[tokio::test]
async fn an_interaction_from_a_thread_carries_the_thread_channel_and_is_answered_there() {
    let fake = FakeDiscord::start().await;
    let http = http_to(&fake);
    let m = post(&http, CHANNEL_ID, "a game").await.unwrap();
    let thread = start_thread(&http, &m, "game").await.unwrap();
    let tid = thread.id.get();
    thread
        .id
        .edit_thread(&http, EditThread::new().archived(true))
        .await
        .unwrap();
    let alice = TestUser::new(300_000_000_000_000_001, "alice");

    let (payload, sent) =
        fake.prepare_interaction(fake.slash_in("move", &alice, tid).string("move", "a2-a3"));
    assert_eq!(sent.channel_id, tid);
    assert_eq!(payload["channel_id"], tid.to_string());
    assert_eq!(payload["guild_id"], GUILD_ID.to_string());
    assert_eq!(payload["channel"]["type"], 11);
    assert_eq!(payload["channel"]["parent_id"], CHANNEL_ID.to_string());
    assert_eq!(payload["channel"]["thread_metadata"]["archived"], true);
    assert_eq!(payload["member"]["user"]["id"], alice.id.to_string());
    let Ok(Interaction::Command(command)) = serde_json::from_value::<Interaction>(payload) else {
        panic!("serenity reads a command");
    };
    let channel = command.channel.as_ref().expect("the channel");
    assert_eq!(channel.kind, ChannelType::PublicThread);
    assert_eq!(channel.parent_id, Some(ChannelId::new(CHANNEL_ID)));

    command
        .create_response(
            &http,
            CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new().content("moved"),
            ),
        )
        .await
        .unwrap();
    let original = fake.original_message(&sent.token).unwrap();
    assert_eq!(original["channel_id"], tid.to_string());
    assert_eq!(fake.messages_in(tid).len(), 1);
    assert!(!fake.is_thread_archived(tid), "the answer unarchived it");

    // A button in a thread the fake knows, by channel id alone; a thread it does not know.
    let (click, _) = fake.prepare_interaction(InteractionBuilder::button("resign").in_channel(tid));
    assert_eq!(click["channel"]["type"], 11);
    assert_eq!(click["channel"]["parent_id"], CHANNEL_ID.to_string());
    let (other, _) =
        fake.prepare_interaction(InteractionBuilder::slash("board").in_thread(77, CHANNEL_ID));
    assert_eq!(other["channel_id"], "77");
    assert_eq!(other["channel"]["type"], 11);
    assert_eq!(other["channel"]["parent_id"], CHANNEL_ID.to_string());
    // The plain channel is still a text channel.
    let (plain, _) = fake.prepare_interaction(fake.slash_in("board", &alice, CHANNEL_ID));
    assert_eq!(plain["channel"]["type"], 0);
    assert!(plain["channel"].get("parent_id").is_none());
    fake.assert_spec_ok();
    fake.assert_no_problems();
}
