//! The REST routes of interaction callbacks, webhooks (follow-ups and the original response)
//! and channel messages, and the messages the fake stores from them.

use serde_json::{json, Value};

use super::gateway::bot_user_json;
use super::http::HttpResponse;
use super::rest::{check_shape, error, id_of, refuse, LOADING_FLAG};
use super::spec::schema_errors;
use super::uploads::attachment_json;
use super::{threads, timestamp_now, Shared, UploadedFile, APPLICATION_ID};

pub(super) fn callback(
    shared: &Shared,
    id: &str,
    token: &str,
    body: &Value,
    files: &[UploadedFile],
) -> HttpResponse {
    let mut store = shared.store.lock().unwrap();
    let Some(info) = store.interactions.get(token) else {
        return error(404, 10062, "Unknown interaction");
    };
    if info.id.to_string() != id {
        return error(404, 10062, "Unknown interaction");
    }
    if info.acknowledged.is_some() {
        return error(400, 40060, "Interaction has already been acknowledged.");
    }
    if info.created.elapsed() > super::ANSWER_WINDOW {
        // Discord forgets an interaction not answered in time.
        return error(404, 10062, "Unknown interaction");
    }
    let kind = body["type"].as_u64().unwrap_or(0);
    let channel_id = info.channel_id;
    if threads::is_deleted(&store, channel_id) {
        return refuse(10003);
    }
    let component_message = info.message.clone();
    let data = &body["data"];
    let original = match kind {
        4 => {
            let msg = new_message(shared, channel_id, data, files, true);
            Some(insert_message(shared, &mut store, msg))
        }
        5 => {
            let flags = data["flags"].as_u64().unwrap_or(0) | LOADING_FLAG;
            let msg = new_message(shared, channel_id, &json!({"flags": flags}), files, true);
            Some(insert_message(shared, &mut store, msg))
        }
        6 | 7 => component_message.map(|msg| {
            let mid = id_of(&msg["id"]).unwrap_or(0);
            let entry = store.messages.entry(mid).or_insert(msg);
            if kind == 7 {
                apply_edit(shared, entry, data, files, false);
            }
            mid
        }),
        _ => None,
    };
    let info = store.interactions.get_mut(token).expect("looked up above");
    info.acknowledged = Some(kind);
    info.original = original;
    HttpResponse::empty(204)
}

pub(super) fn followup(
    shared: &Shared,
    token: &str,
    body: &Value,
    files: &[UploadedFile],
) -> HttpResponse {
    let channel_id = {
        let store = shared.store.lock().unwrap();
        match store.interactions.get(token) {
            Some(info) if threads::is_deleted(&store, info.channel_id) => return refuse(10003),
            Some(info) if info.acknowledged.is_some() => info.channel_id,
            _ => return error(404, 10015, "Unknown Webhook"),
        }
    };
    let msg = new_message(shared, channel_id, body, files, true);
    store_message(shared, msg)
}

pub(super) fn webhook_message(
    shared: &Shared,
    method: &str,
    token: &str,
    mid: &str,
    body: &Value,
    files: &[UploadedFile],
) -> HttpResponse {
    let message_id = {
        let store = shared.store.lock().unwrap();
        let Some(info) = store.interactions.get(token) else {
            return error(404, 10015, "Unknown Webhook");
        };
        if info.acknowledged.is_none() {
            return error(404, 10015, "Unknown Webhook");
        }
        let id = if mid == "@original" {
            info.original
        } else {
            mid.parse().ok()
        };
        match id {
            Some(id) if store.messages.contains_key(&id) => id,
            _ => return error(404, 10008, "Unknown Message"),
        }
    };
    message_op(shared, method, message_id, body, files)
}

pub(super) fn message_op(
    shared: &Shared,
    method: &str,
    id: u64,
    body: &Value,
    files: &[UploadedFile],
) -> HttpResponse {
    let mut store = shared.store.lock().unwrap();
    match method {
        "DELETE" => {
            store.messages.remove(&id);
            HttpResponse::empty(204)
        }
        "PATCH" => {
            let Some(msg) = store.messages.get_mut(&id) else {
                return error(404, 10008, "Unknown Message");
            };
            apply_edit(shared, msg, body, files, false);
            msg["edited_timestamp"] = json!(timestamp_now());
            let answer = msg.clone();
            drop(store);
            check_message(shared, &answer);
            HttpResponse::json(200, answer)
        }
        _ => match store.messages.get(&id) {
            Some(msg) => HttpResponse::json(200, msg.clone()),
            None => error(404, 10008, "Unknown Message"),
        },
    }
}

/// Records a problem if serenity could not read the message, or it does not fit the spec's
/// `MessageResponse`. Its `components` are left out of the latter: the fake keeps them as the
/// bot sent them, where Discord adds an `id` to each and fills in defaults.
fn check_message(shared: &Shared, msg: &Value) {
    check_shape!(shared, serenity::model::channel::Message, "message", msg);
    let mut without_components = msg.clone();
    without_components["components"] = json!([]);
    if let Some(errors) = schema_errors("MessageResponse", &without_components) {
        if !errors.is_empty() {
            shared.problem(format!(
                "the fake's message does not fit the spec's MessageResponse: {}",
                errors.join("; ")
            ));
        }
    }
}

/// Stores a new message; in a thread, that counts as a post (and unarchives it).
fn insert_message(shared: &Shared, store: &mut super::Store, msg: Value) -> u64 {
    check_message(shared, &msg);
    let id = id_of(&msg["id"]).unwrap_or(0);
    threads::on_post(store, id_of(&msg["channel_id"]).unwrap_or(0));
    store.messages.insert(id, msg);
    id
}

pub(super) fn store_message(shared: &Shared, msg: Value) -> HttpResponse {
    let mut store = shared.store.lock().unwrap();
    insert_message(shared, &mut store, msg.clone());
    HttpResponse::json(200, msg)
}

/// A full Message object as Discord answers it, built from a create body.
pub(super) fn new_message(
    shared: &Shared,
    channel_id: u64,
    data: &Value,
    files: &[UploadedFile],
    webhook: bool,
) -> Value {
    let id = shared.next_id();
    let mut m = json!({
        "id": id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": bot_user_json(),
        "content": "",
        "timestamp": timestamp_now(),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "components": [],
        "pinned": false,
        "type": 0,
        "flags": 0
    });
    if webhook {
        m["webhook_id"] = json!(APPLICATION_ID.to_string());
        m["application_id"] = json!(APPLICATION_ID.to_string());
    }
    apply_edit(shared, &mut m, data, files, true);
    m
}

/// Applies a create or edit body (and its uploaded files) to a stored message.
fn apply_edit(
    shared: &Shared,
    m: &mut Value,
    data: &Value,
    files: &[UploadedFile],
    creating: bool,
) {
    for key in ["content", "embeds", "components", "tts", "poll"] {
        match data.get(key) {
            Some(Value::Null) => {
                m[key] = match key {
                    "content" => json!(""),
                    "tts" => json!(false),
                    "poll" => Value::Null,
                    _ => json!([]),
                }
            }
            Some(v) => m[key] = v.clone(),
            None => {}
        }
    }
    // Discord fills in an embed's image as it serves it: its proxy address and its size, where a
    // request (serenity's) may send them as nulls.
    if let Some(embeds) = m["embeds"].as_array_mut() {
        for embed in embeds {
            for key in ["image", "thumbnail"] {
                if let Some(media) = embed.get_mut(key).and_then(Value::as_object_mut) {
                    let url = media.get("url").cloned().unwrap_or(Value::Null);
                    for (field, filled) in [
                        ("proxy_url", url),
                        ("width", json!(400)),
                        ("height", json!(400)),
                    ] {
                        if media.get(field).is_none_or(Value::is_null) {
                            media.insert(field.to_string(), filled);
                        }
                    }
                }
            }
        }
    }
    if let Some(flags) = data.get("flags").and_then(Value::as_u64) {
        m["flags"] = json!(flags);
    } else if !creating {
        // An edit of a deferred response ends the "thinking" state.
        let flags = m["flags"].as_u64().unwrap_or(0) & !LOADING_FLAG;
        m["flags"] = json!(flags);
    }
    let channel = id_of(&m["channel_id"]).unwrap_or(0);
    let message = id_of(&m["id"]).unwrap_or(0);
    let existing: Vec<Value> = m["attachments"].as_array().cloned().unwrap_or_default();
    let mut attachments = Vec::new();
    let mut used = vec![false; files.len()];
    let requested = data.get("attachments").and_then(Value::as_array);
    match requested {
        Some(list) => {
            for a in list {
                let key = match &a["id"] {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    _ => continue,
                };
                if let Some(old) = existing.iter().find(|o| o["id"].as_str() == Some(&key)) {
                    attachments.push(old.clone());
                } else if let Some(i) = files
                    .iter()
                    .position(|f| f.field == format!("files[{key}]"))
                {
                    used[i] = true;
                    attachments.push(attachment_json(shared, message, channel, &files[i], a));
                }
            }
        }
        None if !creating => attachments = existing,
        None => {}
    }
    for (i, f) in files.iter().enumerate() {
        if !used[i] {
            attachments.push(attachment_json(shared, message, channel, f, &Value::Null));
        }
    }
    m["attachments"] = Value::Array(attachments);
}
