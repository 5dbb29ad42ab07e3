//! The state the fake keeps (registered commands, messages and the interactions' shards) and
//! the canned answers a test sets before the built-in routes.

use std::time::Duration;

use serde_json::Value;

use super::FakeDiscord;

/// A stubbed answer for [`FakeDiscord::add_stub`].
#[derive(Clone, Debug)]
pub struct StubAnswer {
    status: u16,
    body: Option<Value>,
    headers: Vec<(String, String)>,
    delay: Option<Duration>,
    times: Option<usize>,
}

impl StubAnswer {
    pub fn new(status: u16, body: Option<Value>) -> StubAnswer {
        StubAnswer {
            status,
            body,
            headers: Vec::new(),
            delay: None,
            times: None,
        }
    }

    /// Discord's 500.
    pub fn server_error() -> StubAnswer {
        StubAnswer::new(
            500,
            Some(serde_json::json!({"message": "500: Internal Server Error", "code": 0})),
        )
    }

    /// Discord's 429 with `retry_after` seconds, in the body and the headers.
    pub fn rate_limited(retry_after: f64) -> StubAnswer {
        StubAnswer::new(
            429,
            Some(serde_json::json!({
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": false
            })),
        )
        .header("Retry-After", &format!("{}", retry_after.ceil() as u64))
        .header("X-RateLimit-Limit", "5")
        .header("X-RateLimit-Remaining", "0")
        .header("X-RateLimit-Reset-After", &format!("{retry_after}"))
        .header("X-RateLimit-Bucket", "fake-bucket")
        .header("X-RateLimit-Scope", "user")
    }

    /// Discord's 403 Missing Access (code 50001).
    pub fn missing_access() -> StubAnswer {
        StubAnswer::new(
            403,
            Some(serde_json::json!({"message": "Missing Access", "code": 50001})),
        )
    }

    /// Discord's refusal with this JSON error `code`, with its real status and message:
    /// 10003 Unknown Channel (404), 10008 Unknown Message (404), 40005 Request entity too large
    /// (413), 50001 Missing Access (403), 50013 Missing Permissions (403), 50024 Cannot execute
    /// action on this channel type (400), 160004 A thread has already been created for this
    /// message (400), 160006 Maximum number of active threads reached (400). Panics on another
    /// code.
    pub fn refusal(code: u64) -> StubAnswer {
        let Some((status, message)) = discord_error(code) else {
            panic!("fake_discord: no refusal with code {code} is known; add it to discord_error");
        };
        StubAnswer::new(
            status,
            Some(serde_json::json!({"code": code, "message": message})),
        )
    }

    /// Discord's 401 for a rejected token.
    pub fn unauthorized() -> StubAnswer {
        StubAnswer::new(
            401,
            Some(serde_json::json!({"message": "401: Unauthorized", "code": 0})),
        )
    }

    pub fn header(mut self, name: &str, value: &str) -> StubAnswer {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Answer only after `delay`.
    pub fn delay(mut self, delay: Duration) -> StubAnswer {
        self.delay = Some(delay);
        self
    }

    /// Only for the next `times` matching requests.
    pub fn times(mut self, times: usize) -> StubAnswer {
        self.times = Some(times.max(1));
        self
    }
}

/// The status and message Discord answers with a JSON error code.
pub(crate) fn discord_error(code: u64) -> Option<(u16, &'static str)> {
    Some(match code {
        10003 => (404, "Unknown Channel"),
        10008 => (404, "Unknown Message"),
        40005 => (413, "Request entity too large"),
        50001 => (403, "Missing Access"),
        50013 => (403, "Missing Permissions"),
        50024 => (400, "Cannot execute action on this channel type"),
        160004 => (400, "A thread has already been created for this message"),
        160006 => (400, "Maximum number of active threads reached"),
        _ => return None,
    })
}

pub(crate) struct Stub {
    pub method: String,
    /// Path segments; `None` matches any one segment.
    pub segments: Vec<Option<String>>,
    pub status: u16,
    pub body: Option<Value>,
    /// Extra response headers (`Retry-After`, `X-RateLimit-*`, ...).
    pub headers: Vec<(String, String)>,
    /// Answered after this long (to make the bot's request time out).
    pub delay: Option<Duration>,
    /// How many more requests it answers before it is removed; `None`: all of them.
    pub times: Option<usize>,
}

impl Stub {
    pub fn matches(&self, method: &str, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        self.method == method
            && self.segments.len() == parts.len()
            && self
                .segments
                .iter()
                .zip(&parts)
                .all(|(seg, part)| seg.as_deref().is_none_or(|lit| lit == *part))
    }
}

impl FakeDiscord {
    // ----- state the fake keeps --------------------------------------------------------------

    /// The registered commands as stored (with ids): `None` for global ones, `Some(guild)` for a
    /// guild's.
    pub fn commands(&self, guild_id: Option<u64>) -> Vec<Value> {
        self.shared
            .store
            .lock()
            .unwrap()
            .commands
            .get(&guild_id)
            .cloned()
            .unwrap_or_default()
    }

    /// Waits until commands were registered (`PUT` or `POST`) in that scope and returns them.
    pub async fn wait_for_commands(&self, guild_id: Option<u64>) -> Vec<Value> {
        let scope = match guild_id {
            Some(g) => format!("guild {g}"),
            None => "global scope".to_string(),
        };
        self.wait_until(
            &format!("command registration in the {scope}"),
            self.timeout,
            |s| s.store.lock().unwrap().commands.get(&guild_id).cloned(),
        )
        .await
    }

    /// The gateway shard an interaction (by token) was sent on, if the fake made it.
    pub fn interaction_shard(&self, token: &str) -> Option<u64> {
        let store = self.shared.store.lock().unwrap();
        store.interactions.get(token).map(|i| i.shard)
    }

    /// A stored message (built from what the bot sent) by id.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.shared.store.lock().unwrap().messages.get(&id).cloned()
    }

    /// Every stored message, oldest first.
    pub fn messages(&self) -> Vec<Value> {
        self.shared
            .store
            .lock()
            .unwrap()
            .messages
            .values()
            .cloned()
            .collect()
    }

    /// The message `@original` of an interaction token refers to, if there is one.
    pub fn original_message(&self, token: &str) -> Option<Value> {
        let store = self.shared.store.lock().unwrap();
        let id = store.interactions.get(token)?.original?;
        store.messages.get(&id).cloned()
    }

    /// The newest stored message that carries a component with this `custom_id`: what a test
    /// passes to [`InteractionBuilder::on_message`] to click it.
    pub fn message_with_component(&self, custom_id: &str) -> Option<Value> {
        self.shared
            .store
            .lock()
            .unwrap()
            .messages
            .values()
            .rev()
            .find(|m| has_custom_id(&m["components"], custom_id))
            .cloned()
    }

    /// Answers `method` on `path_template` (under `/api/v10`; `{name}` or `*` matches any one
    /// segment, e.g. `/guilds/{guild_id}/members/{user_id}`) with `status` and `body` (`None`:
    /// no body), before the built-in routes. The request is still recorded and spec-checked.
    /// A later stub for the same route wins.
    pub fn stub(&self, method: &str, path_template: &str, status: u16, body: Option<Value>) {
        self.add_stub(method, path_template, StubAnswer::new(status, body));
    }

    /// Like [`FakeDiscord::stub`], but only for the next `times` requests that match; after
    /// them the route answers as before (a transient failure).
    pub fn stub_times(
        &self,
        method: &str,
        path_template: &str,
        status: u16,
        body: Option<Value>,
        times: usize,
    ) {
        self.add_stub(
            method,
            path_template,
            StubAnswer::new(status, body).times(times),
        );
    }

    /// Answers `method` on `path_template` as `answer` says (see [`StubAnswer`]).
    pub fn add_stub(&self, method: &str, path_template: &str, answer: StubAnswer) {
        let segments = path_template
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| {
                let wildcard = s == "*" || (s.starts_with('{') && s.ends_with('}'));
                (!wildcard).then(|| s.to_string())
            })
            .collect();
        let stub = Stub {
            method: method.to_ascii_uppercase(),
            segments,
            status: answer.status,
            body: answer.body,
            headers: answer.headers,
            delay: answer.delay,
            times: answer.times,
        };
        self.shared.store.lock().unwrap().stubs.insert(0, stub);
    }
}

fn has_custom_id(components: &Value, custom_id: &str) -> bool {
    match components {
        Value::Array(items) => items.iter().any(|c| has_custom_id(c, custom_id)),
        Value::Object(o) => {
            o.get("custom_id").and_then(Value::as_str) == Some(custom_id)
                || o.get("components")
                    .is_some_and(|c| has_custom_id(c, custom_id))
                || o.get("accessory")
                    .is_some_and(|c| has_custom_id(c, custom_id))
        }
        _ => false,
    }
}
