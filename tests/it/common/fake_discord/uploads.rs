//! Files uploaded with messages (`multipart/form-data`: `payload_json` and `files[n]`): the
//! checks Discord makes of them, the attachments the fake keeps with their bytes, and the
//! attachment objects it answers.

use std::sync::atomic::Ordering;

use serde_json::{json, Value};

use super::http::HttpResponse;
use super::rest::{id_of, refuse};
use super::{FakeDiscord, Shared, UploadedFile};

/// A file the bot uploaded, as the fake keeps it.
#[derive(Clone, Debug)]
pub struct StoredAttachment {
    /// The attachment id the fake gave it (in the message's `attachments`).
    pub id: u64,
    /// The message it was uploaded with.
    pub message_id: u64,
    pub channel_id: u64,
    /// The `attachments[].filename` of the payload, else the file part's name.
    pub filename: String,
    /// The `attachments[].description` of the payload: Discord's alt text.
    pub description: Option<String>,
    /// The file part's `Content-Type`.
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// Where a request's `attachments` array is: under `data` for an interaction callback.
fn attachments_array<'a>(segs: &[&str], body: &'a Value) -> Option<&'a Vec<Value>> {
    let at = match segs {
        ["interactions", _, _, "callback"] => &body["data"]["attachments"],
        _ => &body["attachments"],
    };
    at.as_array()
}

/// The attachment size limit that applies to a request: that of the interaction whose token is
/// in the path, else the fake's.
fn limit_for(shared: &Shared, segs: &[&str]) -> u64 {
    let token = match segs {
        ["interactions", _, token, "callback"] | ["webhooks", _, token, ..] => Some(*token),
        _ => None,
    };
    let from_interaction = token.and_then(|t| {
        let store = shared.store.lock().unwrap();
        store.interactions.get(t).map(|i| i.attachment_size_limit)
    });
    from_interaction.unwrap_or_else(|| shared.attachment_size_limit.load(Ordering::Relaxed))
}

/// What is wrong with the uploads of a request, as `(place, error)` pairs for an Invalid Form
/// Body answer; or the 413 answer for a file over the size limit.
pub(super) enum UploadCheck {
    Fine,
    TooLarge(HttpResponse),
    Mismatch(Vec<(String, String)>),
}

/// Checks each `files[n]` part against the `attachments` entries of the payload and the size
/// limit. Stricter than Discord in one way: a file with no `attachments[].id` entry is refused,
/// where Discord would take it; serenity always sends both.
pub(super) fn check(
    shared: &Shared,
    segs: &[&str],
    body: Option<&Value>,
    files: &[UploadedFile],
) -> UploadCheck {
    let limit = limit_for(shared, segs);
    if files.iter().any(|f| f.bytes.len() as u64 > limit) {
        return UploadCheck::TooLarge(refuse(40005));
    }
    let null = Value::Null;
    let entries = attachments_array(segs, body.unwrap_or(&null));
    let ids: Vec<String> = entries
        .into_iter()
        .flatten()
        .map(|a| match &a["id"] {
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.clone(),
            _ => String::new(),
        })
        .collect();
    let mut errors = Vec::new();
    let mut part_ids = Vec::new();
    for f in files {
        let n = f
            .field
            .strip_prefix("files[")
            .and_then(|rest| rest.strip_suffix(']'))
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        match n {
            Some(n) if ids.iter().any(|id| id == n) => part_ids.push(n.to_string()),
            Some(n) => errors.push((
                format!("/{}", f.field),
                format!("no attachments[] entry has the id {n} of this file part"),
            )),
            None => errors.push((
                format!("/{}", f.field),
                "a file part must be named files[n], n an attachments[].id".to_string(),
            )),
        }
    }
    let held = shared.attachments.lock().unwrap();
    for (i, id) in ids.iter().enumerate() {
        let existing = id.parse::<u64>().is_ok_and(|id| held.contains_key(&id));
        if !part_ids.contains(id) && !existing {
            errors.push((
                format!("/attachments/{i}/id"),
                format!("no files[{id}] part and no attachment {id} to keep"),
            ));
        }
    }
    if errors.is_empty() {
        UploadCheck::Fine
    } else {
        UploadCheck::Mismatch(errors)
    }
}

/// The attachment object of an uploaded file (a `MessageAttachmentResponse` of the spec), kept
/// with its bytes. `meta` is its `attachments[]` entry of the payload.
pub(super) fn attachment_json(
    shared: &Shared,
    message_id: u64,
    channel_id: u64,
    file: &UploadedFile,
    meta: &Value,
) -> Value {
    let id = shared.next_id();
    let filename = meta["filename"]
        .as_str()
        .map(str::to_string)
        .or_else(|| file.filename.clone())
        .unwrap_or_else(|| "file".to_string());
    let url = format!(
        "{}/attachments/{channel_id}/{id}/{filename}",
        shared.api_base()
    );
    let mut a = json!({
        "id": id.to_string(),
        "filename": filename,
        "size": file.bytes.len(),
        "url": url,
        "proxy_url": url,
    });
    let description = meta["description"].as_str().map(str::to_string);
    if let Some(d) = &description {
        a["description"] = json!(d);
    }
    if let Some(t) = &file.content_type {
        a["content_type"] = json!(t);
    }
    if let Some((width, height)) = image_size(&file.bytes) {
        a["width"] = json!(width);
        a["height"] = json!(height);
    }
    shared.attachments.lock().unwrap().insert(
        id,
        StoredAttachment {
            id,
            message_id,
            channel_id,
            filename,
            description,
            content_type: file.content_type.clone(),
            bytes: file.bytes.clone(),
        },
    );
    a
}

/// The width and height of a PNG or GIF, as Discord reports them for images.
fn image_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    if bytes.len() >= 24 && bytes.starts_with(b"\x89PNG\r\n\x1a\n") && &bytes[12..16] == b"IHDR" {
        return Some((be(&bytes[16..20]), be(&bytes[20..24])));
    }
    if bytes.len() >= 10 && (bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a")) {
        let le = |b: &[u8]| u32::from(u16::from_le_bytes([b[0], b[1]]));
        return Some((le(&bytes[6..8]), le(&bytes[8..10])));
    }
    None
}

impl FakeDiscord {
    // ----- uploads --------------------------------------------------------------------------

    /// The files of a stored message, in the order of its `attachments`, with their bytes.
    pub fn attachments_of(&self, message_id: u64) -> Vec<StoredAttachment> {
        let Some(message) = self.message(message_id) else {
            return Vec::new();
        };
        let held = self.shared.attachments.lock().unwrap();
        message["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| held.get(&id_of(&a["id"])?).cloned())
            .collect()
    }

    /// An uploaded file by its attachment id (the `id` of an entry of a message's
    /// `attachments`).
    pub fn attachment(&self, id: u64) -> Option<StoredAttachment> {
        self.shared.attachments.lock().unwrap().get(&id).cloned()
    }

    /// Every file uploaded so far, oldest first.
    pub fn uploads(&self) -> Vec<StoredAttachment> {
        let held = self.shared.attachments.lock().unwrap();
        held.values().cloned().collect()
    }

    /// The largest file the fake takes from now on (a larger one is refused 413, code 40005
    /// Request entity too large), and the `attachment_size_limit` of the interactions built from
    /// now on; default [`ATTACHMENT_SIZE_LIMIT`](super::ATTACHMENT_SIZE_LIMIT). Uploads that
    /// answer an interaction are held to the limit its payload carried.
    pub fn set_attachment_size_limit(&self, bytes: u64) {
        self.shared
            .attachment_size_limit
            .store(bytes, Ordering::Relaxed);
    }

    /// The limit [`set_attachment_size_limit`](Self::set_attachment_size_limit) set.
    pub fn attachment_size_limit(&self) -> u64 {
        self.shared.attachment_size_limit.load(Ordering::Relaxed)
    }
}
