//! The REST routes of command registration: list, set and upsert, global or a guild's.

use serde_json::{json, Value};

use super::http::HttpResponse;
use super::rest::{check_shape, error};
use super::{Shared, APPLICATION_ID};

pub(super) fn list_commands(shared: &Shared, guild: Option<u64>) -> HttpResponse {
    let list = shared
        .store
        .lock()
        .unwrap()
        .commands
        .get(&guild)
        .cloned()
        .unwrap_or_default();
    HttpResponse::json(200, Value::Array(list))
}

fn command_with_id(shared: &Shared, guild: Option<u64>, cmd: &Value, old: &[Value]) -> Value {
    let mut c = cmd.as_object().cloned().unwrap_or_default();
    let kind = c.get("type").and_then(Value::as_u64).unwrap_or(1);
    let id = old
        .iter()
        .find(|o| o["name"] == c["name"] && o["type"].as_u64() == Some(kind))
        .and_then(|o| o["id"].as_str().map(str::to_string))
        .unwrap_or_else(|| shared.next_id().to_string());
    c.insert("id".into(), json!(id));
    c.insert("application_id".into(), json!(APPLICATION_ID.to_string()));
    c.insert("version".into(), json!(shared.next_id().to_string()));
    c.insert("type".into(), json!(kind));
    if let Some(g) = guild {
        c.insert("guild_id".into(), json!(g.to_string()));
    }
    c.entry("description").or_insert(json!(""));
    c.entry("default_member_permissions").or_insert(Value::Null);
    c.entry("nsfw").or_insert(json!(false));
    if guild.is_none() {
        c.entry("dm_permission").or_insert(json!(true));
    }
    Value::Object(c)
}

pub(super) fn set_commands(shared: &Shared, guild: Option<u64>, body: &Value) -> HttpResponse {
    let Some(list) = body.as_array() else {
        return error(400, 50035, "Invalid Form Body");
    };
    let old = shared
        .store
        .lock()
        .unwrap()
        .commands
        .get(&guild)
        .cloned()
        .unwrap_or_default();
    let stored: Vec<Value> = list
        .iter()
        .map(|c| command_with_id(shared, guild, c, &old))
        .collect();
    let answer = Value::Array(stored.clone());
    check_shape!(
        shared,
        Vec<serenity::model::application::Command>,
        "commands",
        answer
    );
    shared.store.lock().unwrap().commands.insert(guild, stored);
    HttpResponse::json(200, answer)
}

pub(super) fn upsert_command(shared: &Shared, guild: Option<u64>, body: &Value) -> HttpResponse {
    let mut store = shared.store.lock().unwrap();
    let list = store.commands.entry(guild).or_default();
    let cmd = command_with_id(shared, guild, body, list);
    list.retain(|c| c["id"] != cmd["id"]);
    list.push(cmd.clone());
    drop(store);
    check_shape!(
        shared,
        serenity::model::application::Command,
        "command",
        cmd
    );
    HttpResponse::json(200, cmd)
}
