//! The fake Discord's uploads: files sent with channel messages, interaction responses,
//! follow-ups and edits of the original response are kept with their bytes and alt text; a
//! file part without its `attachments` entry, an over-long alt text and a file over the size
//! limit are refused as Discord refuses them.

use serenity::all::{
    ChannelId, CreateAttachment, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, EditInteractionResponse, Interaction,
};

use super::fake_threads::{http_to, refusal};
use crate::common::fake_discord::{
    schema_errors, FakeDiscord, InteractionBuilder, ATTACHMENT_SIZE_LIMIT, CHANNEL_ID,
};

/// A valid 3x2 PNG, all red.
const PNG: [u8; 73] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0x12, 0x16, 0xf1,
    0x4d, 0x00, 0x00, 0x00, 0x10, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x41, 0x0c, 0x70, 0x16, 0x00, 0x41, 0xd2, 0x05, 0xfb, 0x87, 0xf0, 0xb9, 0x48, 0x00, 0x00, 0x00,
    0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];
const ALT: &str = "Black to move; last move a2-a3.";

fn board(name: &str) -> CreateAttachment {
    CreateAttachment::bytes(PNG.to_vec(), name).description(ALT)
}

fn assert_fits_message_response(message: &serde_json::Value) {
    if let Some(errors) = schema_errors("MessageResponse", message) {
        assert!(errors.is_empty(), "{errors:?}\n{message}");
    }
}

#[tokio::test]
async fn a_png_posted_with_alt_text_is_kept_with_its_bytes() {
    let fake = FakeDiscord::start().await;
    let http = http_to(&fake);
    let sent = ChannelId::new(CHANNEL_ID)
        .send_message(
            &http,
            CreateMessage::new()
                .content("the board")
                .add_file(board("board.png")),
        )
        .await
        .unwrap();
    let a = &sent.attachments[0];
    assert_eq!(a.filename, "board.png");
    assert_eq!(a.description.as_deref(), Some(ALT));
    assert_eq!(a.content_type.as_deref(), Some("image/png"));
    assert_eq!((a.width, a.height, a.size), (Some(3), Some(2), 73));

    let request = fake.channel_messages(CHANNEL_ID).remove(0);
    assert!(request.multipart);
    assert_eq!(request.str_at("/attachments/0/description"), Some(ALT));
    assert_fits_message_response(request.response.as_ref().unwrap());
    let kept = fake.attachments_of(sent.id.get());
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].bytes, PNG);
    assert_eq!(kept[0].filename, "board.png");
    assert_eq!(kept[0].description.as_deref(), Some(ALT));
    assert_eq!(kept[0].content_type.as_deref(), Some("image/png"));
    assert_eq!(kept[0].channel_id, CHANNEL_ID);
    assert_eq!(
        fake.attachment(a.id.get()).unwrap().message_id,
        sent.id.get()
    );
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

#[tokio::test]
async fn files_answering_an_interaction_are_kept_on_every_route() {
    let fake = FakeDiscord::start().await;
    let http = http_to(&fake);
    let (payload, sent) = fake.prepare_interaction(InteractionBuilder::slash("history"));
    assert_eq!(payload["attachment_size_limit"], ATTACHMENT_SIZE_LIMIT);
    let Ok(Interaction::Command(command)) = serde_json::from_value::<Interaction>(payload) else {
        panic!("serenity reads a command");
    };
    let answer = CreateInteractionResponseMessage::new()
        .content("the board")
        .add_file(board("board.png"));
    command
        .create_response(&http, CreateInteractionResponse::Message(answer))
        .await
        .unwrap();
    let original = fake.original_message(&sent.token).unwrap();
    let id = original["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(fake.attachments_of(id)[0].bytes, PNG);
    assert_eq!(fake.attachments_of(id)[0].description.as_deref(), Some(ALT));

    let followup = command
        .create_followup(
            &http,
            CreateInteractionResponseFollowup::new().add_file(board("replay.gif")),
        )
        .await
        .unwrap();
    let kept = fake.attachments_of(followup.id.get());
    assert_eq!(kept[0].filename, "replay.gif");
    assert_eq!(kept[0].bytes, PNG);

    let first = fake.attachments_of(id)[0].id;
    let edit = EditInteractionResponse::new()
        .keep_existing_attachment(first.into())
        .new_attachment(board("after.png"));
    let edited = command.edit_response(&http, edit).await.unwrap();
    let names: Vec<String> = fake
        .attachments_of(edited.id.get())
        .into_iter()
        .map(|a| a.filename)
        .collect();
    assert_eq!(names, ["board.png", "after.png"], "kept, then added");
    // An edit that lists only a new file drops the others, as on Discord.
    let edit = EditInteractionResponse::new().new_attachment(board("last.png"));
    let edited = command.edit_response(&http, edit).await.unwrap();
    assert_eq!(edited.attachments.len(), 1);
    assert_eq!(fake.attachments_of(id)[0].filename, "last.png");
    assert_eq!(fake.uploads().len(), 4);
    for r in fake.requests() {
        assert!(r.multipart, "{}", r.summary());
        assert!(r.status < 300, "{}", r.summary());
    }
    fake.assert_spec_ok();
    fake.assert_no_problems();
}

/// A multipart body by hand: `payload_json`, then one file part per name in `fields`.
fn multipart(payload: &serde_json::Value, fields: &[&str], bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "fake-boundary-7d1";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\
         Content-Type: application/json\r\n\r\n{payload}"
    )
    .into_bytes();
    for field in fields {
        body.extend_from_slice(
            format!(
                "\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; \
                 filename=\"board.png\"\r\nContent-Type: image/png\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
    }
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Posts `fields` as file parts, with one `attachments` entry of id `attachment_id`.
async fn post_raw(
    fake: &FakeDiscord,
    fields: &[&str],
    attachment_id: u64,
) -> (u16, serde_json::Value) {
    let payload = serde_json::json!({
        "content": "the board",
        "attachments": [{"id": attachment_id, "filename": "board.png", "description": ALT}]
    });
    let (content_type, body) = multipart(&payload, fields, &PNG);
    let response = reqwest::Client::new()
        .post(format!(
            "{}/api/v10/channels/{CHANNEL_ID}/messages",
            fake.api_base()
        ))
        .header("Content-Type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let bytes = response.bytes().await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn a_file_part_that_matches_no_attachments_entry_is_refused() {
    let fake = FakeDiscord::start().await;
    let (status, body) = post_raw(&fake, &["files[0]"], 0).await;
    assert_eq!(status, 200, "{body}");
    assert!(fake.spec_violations().is_empty());

    // The entry has no file, and the file no entry.
    let (status, body) = post_raw(&fake, &["files[1]"], 0).await;
    assert_eq!(
        (status, &body["code"]),
        (400, &serde_json::json!(50035)),
        "{body}"
    );
    assert!(body["errors"]["attachments"].is_object(), "{body}");
    assert!(body["errors"]["files[1]"].is_object(), "{body}");
    // A second file with no entry, beside one that has its entry.
    let (status, body) = post_raw(&fake, &["files[0]", "files[5]"], 0).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["errors"]["files[5]"].is_object(), "{body}");
    let (status, _) = post_raw(&fake, &["file"], 0).await;
    assert_eq!(status, 400);
    assert_eq!(fake.spec_violations().len(), 3);
    assert_eq!(
        fake.messages_in(CHANNEL_ID).len(),
        1,
        "only the first was posted"
    );

    // Alt text is at most 1024 characters, as the API description says.
    let http = http_to(&fake);
    let long = CreateAttachment::bytes(PNG.to_vec(), "board.png").description("x".repeat(1025));
    let refused = ChannelId::new(CHANNEL_ID)
        .send_message(&http, CreateMessage::new().add_file(long))
        .await;
    let got = refusal(refused);
    assert_eq!((got.0, got.1), (400, 50035));
    assert_eq!(fake.spec_violations().len(), 4);
}

#[tokio::test]
async fn an_upload_over_the_size_limit_is_refused_as_too_large() {
    let fake = FakeDiscord::start().await;
    let http = http_to(&fake);
    fake.set_attachment_size_limit(1000);
    let post = |bytes: usize| {
        let file = CreateAttachment::bytes(vec![7u8; bytes], "replay.gif");
        ChannelId::new(CHANNEL_ID).send_message(&http, CreateMessage::new().add_file(file))
    };
    post(1000).await.unwrap();
    let too_large = (413, 40005, "Request entity too large".to_string());
    assert_eq!(refusal(post(1001).await), too_large);

    // An interaction's own limit holds for the files answering it.
    let (payload, _) =
        fake.prepare_interaction(InteractionBuilder::slash("history").attachment_size_limit(500));
    assert_eq!(payload["attachment_size_limit"], 500);
    let Ok(Interaction::Command(command)) = serde_json::from_value::<Interaction>(payload) else {
        panic!("serenity reads a command");
    };
    let answer = CreateInteractionResponseMessage::new()
        .add_file(CreateAttachment::bytes(vec![7u8; 600], "replay.gif"));
    let refused = command
        .create_response(&http, CreateInteractionResponse::Message(answer))
        .await;
    assert_eq!(refusal(refused), too_large);
    let answer = CreateInteractionResponseMessage::new()
        .add_file(CreateAttachment::bytes(vec![7u8; 500], "replay.gif"));
    command
        .create_response(&http, CreateInteractionResponse::Message(answer))
        .await
        .unwrap();
    let (later, _) = fake.prepare_interaction(InteractionBuilder::slash("history"));
    assert_eq!(later["attachment_size_limit"], 1000, "the fake's limit");
    assert_eq!(fake.uploads().len(), 2);
    fake.assert_spec_ok();
}
