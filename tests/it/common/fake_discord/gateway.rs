//! The gateway websocket: HELLO, IDENTIFY → READY, heartbeats, and dispatches with increasing `s`.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use serenity::model::event::{Event, GatewayEvent};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::{Shared, APPLICATION_ID, BOT_USERNAME, BOT_USER_ID};

/// The heartbeat interval the fake asks for unless told otherwise, in milliseconds.
pub const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// What a connection's task is told to do.
pub(crate) enum Outgoing {
    Text(String),
    /// Close with code 4000, as Discord does now and then (the bot resumes).
    Close,
    /// Close with this code and reason (e.g. 4010 invalid shard).
    CloseWith(u16, String),
}

/// The live connection that one shard's dispatches go to.
pub(crate) struct Session {
    /// The connection's number (1 for the first websocket opened, and so on).
    pub number: u64,
    pub tx: mpsc::UnboundedSender<Outgoing>,
    /// The label of the API base the bot was given ([`FakeDiscord::api_base_as`]), if any: which
    /// process holds the session.
    ///
    /// [`FakeDiscord::api_base_as`]: super::FakeDiscord::api_base_as
    pub label: Option<String>,
}

/// One shard's gateway session, as Discord keeps it.
#[derive(Default)]
pub(crate) struct ShardState {
    /// The sequence number of the last dispatch of the session (READY is 1).
    pub seq: u64,
    /// The session id of the last READY: a RESUME with it is accepted.
    pub session_id: Option<String>,
    pub current: Option<Session>,
    pub readies: u64,
}

#[derive(Default)]
pub(crate) struct GatewayState {
    pub connections: u64,
    pub readies: u64,
    pub resumes: u64,
    pub heartbeats: u64,
    /// By shard id (`0..shard_count`).
    pub shards: BTreeMap<u64, ShardState>,
    /// Every payload the bot sent except heartbeats (IDENTIFY, presence updates, ...).
    pub received: Vec<Value>,
}

impl GatewayState {
    pub fn shard(&mut self, shard: u64) -> &mut ShardState {
        self.shards.entry(shard).or_default()
    }

    /// The live session of a shard, if any.
    pub fn live(&self, shard: u64) -> Option<&Session> {
        self.shards.get(&shard).and_then(|s| s.current.as_ref())
    }
}

/// The label in a gateway path `/as/LABEL/gateway` (see [`super::FakeDiscord::api_base_as`]).
pub(crate) fn label_of(path: &str) -> Option<String> {
    let rest = path.strip_prefix("/as/")?;
    let (label, _) = rest.split_once('/')?;
    Some(label.to_string())
}

pub(crate) fn ready_payload(
    shared: &Shared,
    session: u64,
    shard: [u64; 2],
    label: Option<&str>,
) -> Value {
    json!({
        "v": 10,
        "user": bot_user_json(),
        "guilds": [],
        "session_id": format!("fake-session-{session}"),
        "resume_gateway_url": shared.gateway_url_as(label),
        "shard": shard,
        "application": { "id": APPLICATION_ID.to_string(), "flags": 0 },
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "user_settings": {},
        "geo_ordered_rtc_regions": ["fake"],
        "_trace": ["fake-discord"]
    })
}

pub(crate) fn bot_user_json() -> Value {
    json!({
        "id": BOT_USER_ID.to_string(),
        "username": BOT_USERNAME,
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": true,
        "verified": true,
        "mfa_enabled": false,
        "flags": 0,
        "public_flags": 0,
        "primary_guild": null
    })
}

/// Checks a dispatch frame the way serenity reads it: an error, or a known event that serenity
/// would turn into `Event::Unknown` (which it drops after a DEBUG log), is reported with the serde
/// error of the event's own type when there is one.
pub(crate) fn check_frame(frame: &Value) -> Result<(), String> {
    match serde_json::from_value::<GatewayEvent>(frame.clone()) {
        Ok(GatewayEvent::Dispatch(_, Event::Unknown(unknown))) => {
            let why = explain_unknown(&unknown.kind, &unknown.value);
            Err(format!(
                "serenity would read this {} event as Event::Unknown and drop it: {why}",
                unknown.kind
            ))
        }
        Ok(_) => Ok(()),
        Err(e) => Err(format!("serenity cannot read this gateway payload: {e}")),
    }
}

fn explain_unknown(kind: &str, d: &Value) -> String {
    use serenity::model::prelude as m;
    macro_rules! err {
        ($t:ty) => {
            match serde_json::from_value::<$t>(d.clone()) {
                Ok(_) => "its payload reads fine on its own; check the field names".to_string(),
                Err(e) => e.to_string(),
            }
        };
    }
    match kind {
        "READY" => err!(m::Ready),
        "INTERACTION_CREATE" => err!(m::Interaction),
        "MESSAGE_CREATE" | "MESSAGE_UPDATE" => err!(m::Message),
        "GUILD_CREATE" => err!(m::Guild),
        "GUILD_MEMBER_ADD" | "GUILD_MEMBER_UPDATE" => err!(m::Member),
        "CHANNEL_CREATE" | "CHANNEL_UPDATE" => err!(m::Channel),
        "MESSAGE_REACTION_ADD" | "MESSAGE_REACTION_REMOVE" => err!(m::Reaction),
        _ => "no such event name in serenity, or a payload that misses required fields".into(),
    }
}

pub(crate) async fn run_session(
    mut ws: WebSocketStream<TcpStream>,
    shared: Arc<Shared>,
    path: String,
    query: String,
) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
    let number = {
        let mut g = shared.gateway.lock().unwrap();
        g.connections += 1;
        g.connections
    };
    let label = label_of(&path);
    let expected = match &label {
        Some(l) => format!("/as/{l}/gateway"),
        None => "/gateway".to_string(),
    };
    if path != expected {
        shared.problem(format!(
            "the bot opened a websocket on {path}?{query}, expected /gateway"
        ));
    }
    // A gateway that is down takes the connection and says nothing until it is back.
    while shared.gateway_held.load(Ordering::Relaxed) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let interval = shared.heartbeat_ms.load(Ordering::Relaxed);
    let hello = json!({"op": 10, "s": null, "t": null, "d": {"heartbeat_interval": interval}});
    if ws.send(Message::Text(hello.to_string())).await.is_err() {
        return;
    }
    let conn = Connection {
        number,
        tx: tx.clone(),
        label,
    };
    loop {
        tokio::select! {
            incoming = ws.next() => match incoming {
                Some(Ok(Message::Text(text))) => on_payload(&shared, &conn, &text),
                Some(Ok(Message::Binary(bytes))) => {
                    on_payload(&shared, &conn, &String::from_utf8_lossy(&bytes));
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
            outgoing = rx.recv() => match outgoing {
                Some(Outgoing::Text(text)) => {
                    if ws.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                Some(Outgoing::Close) | None => {
                    // A close frame with a code: serenity ignores a bare close and a dropped
                    // stream until a heartbeat goes unanswered.
                    let frame = CloseFrame {
                        code: CloseCode::Library(4000),
                        reason: "closed by the test".into(),
                    };
                    let _ = ws.close(Some(frame)).await;
                    break;
                }
                Some(Outgoing::CloseWith(code, reason)) => {
                    let frame = CloseFrame {
                        code: CloseCode::Library(code),
                        reason: reason.into(),
                    };
                    let _ = ws.close(Some(frame)).await;
                    break;
                }
            },
        }
    }
    let mut g = shared.gateway.lock().unwrap();
    for shard in g.shards.values_mut() {
        if shard.current.as_ref().is_some_and(|s| s.number == number) {
            shard.current = None;
        }
    }
    drop(g);
    shared.bump();
}

/// One websocket connection, as its payloads are handled.
struct Connection {
    number: u64,
    tx: mpsc::UnboundedSender<Outgoing>,
    label: Option<String>,
}

impl Connection {
    fn session(&self) -> Session {
        Session {
            number: self.number,
            tx: self.tx.clone(),
            label: self.label.clone(),
        }
    }

    /// Records a problem and closes the connection with Discord's close `code`.
    fn refuse(&self, shared: &Shared, code: u16, reason: &str, problem: String) {
        shared.problem(problem);
        let _ = self.tx.send(Outgoing::CloseWith(code, reason.to_string()));
    }
}

/// The shard an IDENTIFY asks for, checked as Discord does against the fake's shard count:
/// `Err((close code, reason, problem))` when it is refused.
fn identified_shard(
    d: &Value,
    count: u64,
    live: impl Fn(u64) -> bool,
) -> Result<u64, (u16, &'static str, String)> {
    let shard = &d["shard"];
    if shard.is_null() {
        return if count == 1 {
            Ok(0)
        } else {
            Err((
                4011,
                "Sharding required.",
                format!("the bot identified without a shard, but the fake serves {count} shards"),
            ))
        };
    }
    let pair = shard
        .as_array()
        .filter(|a| a.len() == 2)
        .and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)));
    match pair {
        Some((id, num)) if num == count && id < num => {
            if live(id) {
                Err((
                    4010,
                    "Invalid shard.",
                    format!(
                        "the bot identified as shard [{id}, {num}], which another live session \
                         already serves"
                    ),
                ))
            } else {
                Ok(id)
            }
        }
        _ => Err((
            4010,
            "Invalid shard.",
            format!("the bot identified with shard {shard}, but the fake serves {count} shard(s)"),
        )),
    }
}

fn on_payload(shared: &Shared, conn: &Connection, text: &str) {
    let tx = &conn.tx;
    let Ok(payload) = serde_json::from_str::<Value>(text) else {
        shared.problem(format!(
            "the bot sent a gateway frame that is not JSON: {}",
            super::truncate(text, 200)
        ));
        return;
    };
    let op = payload.get("op").and_then(Value::as_u64);
    match op {
        Some(1) => {
            shared.gateway.lock().unwrap().heartbeats += 1;
            shared.bump();
            let _ = tx.send(Outgoing::Text(
                json!({"op": 11, "s": null, "t": null, "d": null}).to_string(),
            ));
        }
        Some(2) => {
            let count = shared.shard_count();
            let mut g = shared.gateway.lock().unwrap();
            // A session of this same connection (identifying again) is not another one.
            let shard = identified_shard(&payload["d"], count, |id| {
                g.live(id).is_some_and(|s| s.number != conn.number)
            });
            g.received.push(payload);
            let shard = match shard {
                Ok(shard) => shard,
                Err((code, reason, problem)) => {
                    drop(g);
                    conn.refuse(shared, code, reason, problem);
                    return;
                }
            };
            let d = ready_payload(shared, conn.number, [shard, count], conn.label.as_deref());
            let ready = json!({"op": 0, "s": 1, "t": "READY", "d": d});
            if let Err(e) = check_frame(&ready) {
                shared.problem(format!("READY: {e}"));
            }
            g.readies += 1;
            let state = g.shard(shard);
            state.readies += 1;
            state.seq = 1;
            state.session_id = d["session_id"].as_str().map(str::to_string);
            state.current = Some(conn.session());
            let _ = tx.send(Outgoing::Text(ready.to_string()));
            drop(g);
            shared.bump();
        }
        Some(6) => {
            // RESUME of a shard's last session: this connection takes over and gets RESUMED.
            // Any other session id gets op 9 (not resumable), and the bot identifies again.
            let mut g = shared.gateway.lock().unwrap();
            let asked = payload["d"]["session_id"].as_str().map(str::to_string);
            let shard = g
                .shards
                .iter()
                .find(|(_, s)| s.session_id.is_some() && s.session_id == asked)
                .map(|(id, _)| *id);
            g.received.push(payload);
            if let Some(shard) = shard {
                g.resumes += 1;
                let state = g.shard(shard);
                state.seq += 1;
                let resumed = json!({"op": 0, "s": state.seq, "t": "RESUMED", "d": {}});
                if let Err(e) = check_frame(&resumed) {
                    shared.problem(format!("RESUMED: {e}"));
                }
                state.current = Some(conn.session());
                let _ = tx.send(Outgoing::Text(resumed.to_string()));
            } else {
                let _ = tx.send(Outgoing::Text(
                    json!({"op": 9, "s": null, "t": null, "d": false}).to_string(),
                ));
            }
            drop(g);
            shared.bump();
        }
        _ => {
            shared.gateway.lock().unwrap().received.push(payload);
            shared.bump();
        }
    }
}
