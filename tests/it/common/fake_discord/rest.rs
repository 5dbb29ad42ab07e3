//! The REST routes under `/api/v10`: recording, the spec check, errors and routing; the
//! answers of command registration are in `commands.rs`, those of interactions, webhooks and
//! messages in `messages.rs`.

use serde_json::{json, Map, Value};

use super::commands::{list_commands, set_commands, upsert_command};
use super::gateway::bot_user_json;
use super::http::{multipart_boundary, parse_multipart, HttpRequest, HttpResponse};
use super::messages::{
    callback, followup, message_op, new_message, store_message, webhook_message,
};
use super::spec::{self, Check, SpecViolation};
use super::state::discord_error;
use super::uploads::{self, UploadCheck};
use super::{threads, RecordedRequest, Shared, UploadedFile, APPLICATION_ID, OWNER_ID};

/// Records a problem if serenity could not read the value as that type (what the bot would get).
macro_rules! check_shape {
    ($shared:expr, $t:ty, $what:expr, $value:expr) => {
        if let Err(e) = serde_json::from_value::<$t>($value.clone()) {
            $shared.problem(format!(
                "serenity would not read the fake's {}: {e}; value: {}",
                $what,
                super::truncate(&$value.to_string(), 400)
            ));
        }
    };
}
pub(super) use check_shape;

const API_PREFIX: &str = "/api/v10";
/// Discord's `flags` bit of a deferred ("thinking") message.
pub(super) const LOADING_FLAG: u64 = 1 << 7;

pub(crate) fn handle(shared: &Shared, mut req: HttpRequest) -> HttpResponse {
    // `/as/LABEL/api/v10/...`: a process given its own API base (see `api_base_as`).
    let via = super::gateway::label_of(&req.path);
    if let Some(label) = &via {
        req.path = req.path[format!("/as/{label}").len()..].to_string();
    }
    let (path, under_api) = match req.path.strip_prefix(API_PREFIX) {
        Some(p) if p.is_empty() || p.starts_with('/') => (p.to_string(), true),
        _ => (req.path.clone(), false),
    };

    let mut body: Option<Value> = None;
    let mut files = Vec::new();
    let mut parse_error: Option<String> = None;
    let content_type = req.header("content-type").unwrap_or("").to_string();
    let multipart = multipart_boundary(&content_type);
    if let Some(boundary) = &multipart {
        match parse_multipart(&req.body, boundary) {
            Ok(parts) => {
                let mut fields = Map::new();
                for part in parts {
                    if part.name == "payload_json" {
                        match serde_json::from_slice::<Value>(&part.data) {
                            Ok(v) => body = Some(v),
                            Err(e) => parse_error = Some(format!("payload_json is not JSON: {e}")),
                        }
                    } else if part.filename.is_some() {
                        files.push(UploadedFile {
                            field: part.name,
                            filename: part.filename,
                            content_type: part.content_type,
                            bytes: part.data,
                        });
                    } else {
                        let text = String::from_utf8_lossy(&part.data).into_owned();
                        fields.insert(part.name, Value::String(text));
                    }
                }
                if body.is_none() && !fields.is_empty() {
                    body = Some(Value::Object(fields));
                }
            }
            Err(e) => parse_error = Some(format!("malformed multipart body: {e}")),
        }
    } else if !req.body.is_empty() {
        match serde_json::from_slice::<Value>(&req.body) {
            Ok(v) => body = Some(v),
            Err(e) => parse_error = Some(format!("body is not JSON: {e}")),
        }
    }

    let mut spec_route = None;
    let mut invalid: Option<Vec<(String, String)>> = None;
    if under_api && parse_error.is_none() {
        let violation = |route: Option<String>, errors: Vec<String>| SpecViolation {
            method: req.method.clone(),
            path: path.clone(),
            route,
            errors,
            body: body.clone(),
        };
        match spec::check(&req.method, &path, body.as_ref()) {
            Check::Ok { route } => spec_route = Some(route),
            Check::UnknownRoute => {
                let v = violation(
                    None,
                    vec!["no path template of the spec matches this method and path".into()],
                );
                shared.violations.lock().unwrap().push(v);
            }
            Check::Invalid { route, errors } => {
                let text = errors
                    .iter()
                    .map(|(at, msg)| format!("at {at}: {msg}"))
                    .collect();
                shared
                    .violations
                    .lock()
                    .unwrap()
                    .push(violation(Some(route.clone()), text));
                spec_route = Some(route);
                invalid = Some(errors);
            }
        }
    }

    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let upload = if under_api && parse_error.is_none() && multipart.is_some() {
        uploads::check(shared, &segs, body.as_ref(), &files)
    } else {
        UploadCheck::Fine
    };
    if let UploadCheck::Mismatch(errors) = &upload {
        shared.violations.lock().unwrap().push(SpecViolation {
            method: req.method.clone(),
            path: path.clone(),
            route: spec_route.clone(),
            errors: errors
                .iter()
                .map(|(at, msg)| format!("at {at}: {msg}"))
                .collect(),
            body: body.clone(),
        });
    }
    let gated = if under_api {
        threads::gate(shared, &segs)
    } else {
        None
    };
    drop(segs);

    let response = if let Some(e) = &parse_error {
        shared.problem(format!("{} {}: {e}", req.method, req.path));
        HttpResponse::json(
            400,
            json!({"code": 50109, "message": "The request body contains invalid JSON."}),
        )
    } else if let UploadCheck::TooLarge(answer) = upload {
        answer
    } else if let Some(errors) = invalid.as_ref().or(match &upload {
        UploadCheck::Mismatch(errors) => Some(errors),
        _ => None,
    }) {
        HttpResponse::json(
            400,
            json!({"code": 50035, "message": "Invalid Form Body", "errors": form_errors(errors)}),
        )
    } else if !under_api {
        shared.problem(format!(
            "{} {} is not under {API_PREFIX}; answered 404",
            req.method, req.path
        ));
        not_found()
    } else if let Some(answer) = gated {
        answer
    } else {
        let stubbed = {
            let mut store = shared.store.lock().unwrap();
            let found = store
                .stubs
                .iter()
                .position(|s| s.matches(&req.method, &path));
            found.map(|i| {
                let s = &mut store.stubs[i];
                let response = HttpResponse {
                    status: s.status,
                    body: s.body.clone(),
                    headers: s.headers.clone(),
                    delay: s.delay,
                };
                if let Some(left) = s.times.as_mut() {
                    *left -= 1;
                    if *left == 0 {
                        store.stubs.remove(i);
                    }
                }
                response
            })
        };
        stubbed.unwrap_or_else(|| {
            route(
                shared,
                &req.method,
                &path,
                body.as_ref(),
                &files,
                via.as_deref(),
            )
        })
    };

    let mut requests = shared.requests.lock().unwrap();
    let seq = requests.len() as u64 + 1;
    requests.push(RecordedRequest {
        seq,
        method: req.method,
        path,
        query: req.query,
        headers: req.headers,
        body,
        raw_body: req.body,
        multipart: multipart.is_some(),
        files,
        status: response.status,
        response: response.body.clone(),
        spec_route,
        via: via.clone(),
    });
    drop(requests);
    shared.bump();
    response
}

/// Discord's nested error object: `{"content": {"_errors": [{"code", "message"}]}}`.
fn form_errors(errors: &[(String, String)]) -> Value {
    let mut root = json!({});
    for (at, message) in errors {
        let mut node = &mut root;
        for seg in at.split('/').filter(|s| !s.is_empty()) {
            node = node
                .as_object_mut()
                .expect("object")
                .entry(seg.to_string())
                .or_insert_with(|| json!({}));
        }
        let list = node
            .as_object_mut()
            .expect("object")
            .entry("_errors")
            .or_insert_with(|| json!([]));
        if let Some(list) = list.as_array_mut() {
            list.push(json!({"code": "SPEC_MISMATCH", "message": message}));
        }
    }
    root
}

fn not_found() -> HttpResponse {
    HttpResponse::json(404, json!({"message": "404: Not Found", "code": 0}))
}

pub(super) fn error(status: u16, code: u64, message: &str) -> HttpResponse {
    HttpResponse::json(status, json!({"code": code, "message": message}))
}

/// Discord's refusal with this JSON error code (see [`discord_error`]), with its status.
pub(super) fn refuse(code: u64) -> HttpResponse {
    let (status, message) = discord_error(code).unwrap_or((400, "Unknown error"));
    error(status, code, message)
}

fn route(
    shared: &Shared,
    method: &str,
    path: &str,
    body: Option<&Value>,
    files: &[UploadedFile],
    via: Option<&str>,
) -> HttpResponse {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let app = APPLICATION_ID.to_string();
    let null = Value::Null;
    let body_or_null = body.unwrap_or(&null);
    match (method, segs.as_slice()) {
        ("GET", ["gateway"]) => HttpResponse::json(200, json!({"url": shared.gateway_url_as(via)})),
        ("GET", ["gateway", "bot"]) => HttpResponse::json(
            200,
            json!({
                "url": shared.gateway_url_as(via),
                "shards": shared.shard_count(),
                "session_start_limit": {
                    "total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1
                }
            }),
        ),
        ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]) => {
            let info = application_json();
            check_shape!(
                shared,
                serenity::model::application::CurrentApplicationInfo,
                "application info",
                info
            );
            HttpResponse::json(200, info)
        }
        ("GET", ["users", "@me"]) => HttpResponse::json(200, bot_user_json()),
        ("POST", ["users", "@me", "channels"]) => {
            let recipient = id_of(&body_or_null["recipient_id"]).unwrap_or(0);
            let channel_id = {
                let mut store = shared.store.lock().unwrap();
                if let Some(c) = store.dm_channels.get(&recipient) {
                    *c
                } else {
                    let c = shared.next_id();
                    store.dm_channels.insert(recipient, c);
                    c
                }
            };
            HttpResponse::json(
                200,
                json!({
                    "id": channel_id.to_string(),
                    "type": 1,
                    "last_message_id": null,
                    "recipients": [{
                        "id": recipient.to_string(), "username": format!("user{recipient}"),
                        "discriminator": "0", "global_name": null, "avatar": null
                    }]
                }),
            )
        }

        (m, ["applications", a, "commands"])
            if *a != app && matches!(m, "GET" | "PUT" | "POST") =>
        {
            error(404, 10002, "Unknown Application")
        }
        (m, ["applications", a, "guilds", _, "commands"])
            if *a != app && matches!(m, "GET" | "PUT" | "POST") =>
        {
            error(404, 10002, "Unknown Application")
        }
        ("GET", ["applications", _, "commands"]) => list_commands(shared, None),
        ("GET", ["applications", _, "guilds", g, "commands"]) => {
            list_commands(shared, Some(parse_id(g)))
        }
        ("PUT", ["applications", _, "commands"]) => set_commands(shared, None, body_or_null),
        ("PUT", ["applications", _, "guilds", g, "commands"]) => {
            set_commands(shared, Some(parse_id(g)), body_or_null)
        }
        ("POST", ["applications", _, "commands"]) => upsert_command(shared, None, body_or_null),
        ("POST", ["applications", _, "guilds", g, "commands"]) => {
            upsert_command(shared, Some(parse_id(g)), body_or_null)
        }

        ("POST", ["interactions", id, token, "callback"]) => {
            callback(shared, id, token, body_or_null, files)
        }
        ("POST", ["webhooks", a, token]) => {
            if *a != app {
                return error(404, 10015, "Unknown Webhook");
            }
            followup(shared, token, body_or_null, files)
        }
        (m, ["webhooks", a, token, "messages", mid]) if matches!(m, "GET" | "PATCH" | "DELETE") => {
            if *a != app {
                return error(404, 10015, "Unknown Webhook");
            }
            webhook_message(shared, m, token, mid, body_or_null, files)
        }

        ("POST", ["channels", c, "messages"]) => {
            let msg = new_message(shared, parse_id(c), body_or_null, files, false);
            store_message(shared, msg)
        }
        (m, ["channels", c, "messages", mid]) if matches!(m, "GET" | "PATCH" | "DELETE") => {
            let channel = parse_id(c);
            let mid = parse_id(mid);
            let exists = shared
                .store
                .lock()
                .unwrap()
                .messages
                .get(&mid)
                .is_some_and(|msg| id_of(&msg["channel_id"]) == Some(channel));
            if !exists {
                return error(404, 10008, "Unknown Message");
            }
            message_op(shared, m, mid, body_or_null, files)
        }
        ("POST", ["channels", c, "messages", m, "threads"]) => {
            threads::start_from_message(shared, parse_id(c), parse_id(m), body_or_null)
        }
        (m, ["channels", c]) if matches!(m, "GET" | "PATCH" | "DELETE") => {
            threads::channel_op(shared, m, parse_id(c), body_or_null).unwrap_or_else(|| {
                shared.problem(format!(
                    "the fake knows no thread {c} for {method} {path} (other channels are not \
                     kept); answered 404"
                ));
                error(404, 10003, "Unknown Channel")
            })
        }
        ("POST", ["channels", _, "typing"]) => HttpResponse::empty(204),
        ("PUT" | "DELETE", ["channels", _, "messages", _, "reactions", _, "@me"]) => {
            HttpResponse::empty(204)
        }

        _ => {
            shared.problem(format!(
                "the fake has no handler for {method} {path}; answered 404"
            ));
            not_found()
        }
    }
}

fn parse_id(s: &str) -> u64 {
    s.parse().unwrap_or(0)
}

/// A snowflake from a JSON string or number.
pub(crate) fn id_of(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

pub(crate) fn application_json() -> Value {
    json!({
        "id": APPLICATION_ID.to_string(),
        "name": "Fake Bot",
        "icon": null,
        "description": "A bot under test",
        "rpc_origins": [],
        "bot_public": true,
        "bot_require_code_grant": false,
        "bot": bot_user_json(),
        "owner": {
            "id": OWNER_ID.to_string(), "username": "owner", "discriminator": "0",
            "global_name": "Owner", "avatar": null, "public_flags": 0, "flags": 0
        },
        "team": null,
        "summary": "",
        "verify_key": "0000000000000000000000000000000000000000000000000000000000000000",
        "flags": 0,
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": null,
        "approximate_guild_count": 1,
        "integration_types_config": {"0": {}}
    })
}
