//! The gateway websocket: HELLO, IDENTIFY → READY, heartbeats, and dispatches with increasing `s`.
//! One session per gateway shard: `GET /gateway/bot` tells the bot how many shards to run
//! ([`GatewayState::shard_count`], 1 unless a test says otherwise), each IDENTIFY names its shard,
//! and a dispatch goes to the session of the shard Discord routes its server to.

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
    Close,
}

/// The live connection that dispatches go to.
pub(crate) struct Session {
    pub number: u64,
    pub tx: mpsc::UnboundedSender<Outgoing>,
}

/// One shard's session.
#[derive(Default)]
pub(crate) struct ShardState {
    /// The sequence number of the last dispatch of the session (READY is 1).
    pub seq: u64,
    /// The session id of the last READY: a RESUME with it is accepted.
    pub session_id: Option<String>,
    pub current: Option<Session>,
}

pub(crate) struct GatewayState {
    pub connections: u64,
    pub readies: u64,
    pub resumes: u64,
    pub heartbeats: u64,
    /// The shards the bot is told to run, all its processes together.
    pub shard_count: u64,
    pub shards: BTreeMap<u64, ShardState>,
    /// Every payload the bot sent except heartbeats (IDENTIFY, presence updates, ...).
    pub received: Vec<Value>,
}

impl Default for GatewayState {
    fn default() -> Self {
        GatewayState {
            connections: 0,
            readies: 0,
            resumes: 0,
            heartbeats: 0,
            shard_count: 1,
            shards: BTreeMap::new(),
            received: Vec::new(),
        }
    }
}

impl GatewayState {
    /// The state of shard `id`.
    pub fn shard(&mut self, id: u64) -> &mut ShardState {
        self.shards.entry(id).or_default()
    }

    /// The shard Discord routes a server's events to; direct messages are shard 0's.
    pub fn shard_of(&self, guild: Option<u64>) -> u64 {
        guild.map_or(0, |g| (g >> 22) % self.shard_count.max(1))
    }

    /// Whether any shard has a live session.
    pub fn any_live(&self) -> bool {
        self.shards.values().any(|s| s.current.is_some())
    }
}

pub(crate) fn ready_payload(shared: &Shared, session: u64, shard: [u64; 2]) -> Value {
    json!({
        "v": 10,
        "user": bot_user_json(),
        "guilds": [],
        "session_id": format!("fake-session-{session}"),
        "resume_gateway_url": shared.gateway_url(),
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
        "public_flags": 0
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
    if path != "/gateway" {
        shared.problem(format!(
            "the bot opened a websocket on {path}?{query}, expected /gateway"
        ));
    }
    let interval = shared.heartbeat_ms.load(Ordering::Relaxed);
    let hello = json!({"op": 10, "s": null, "t": null, "d": {"heartbeat_interval": interval}});
    if ws.send(Message::Text(hello.to_string())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = ws.next() => match incoming {
                Some(Ok(Message::Text(text))) => on_payload(&shared, number, &tx, &text),
                Some(Ok(Message::Binary(bytes))) => {
                    on_payload(&shared, number, &tx, &String::from_utf8_lossy(&bytes));
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

fn on_payload(shared: &Shared, number: u64, tx: &mpsc::UnboundedSender<Outgoing>, text: &str) {
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
            // IDENTIFY: its shard must be one of the count `GET /gateway/bot` gave, and not
            // live on another connection.
            let (id, count) = match payload["d"]["shard"].as_array().map(Vec::as_slice) {
                Some([id, count]) => (id.as_u64(), count.as_u64()),
                _ => (Some(0), Some(1)),
            };
            let mut g = shared.gateway.lock().unwrap();
            let valid = match (id, count) {
                (Some(id), Some(count)) if count == g.shard_count && id < count => Some(id),
                _ => None,
            };
            let Some(id) = valid else {
                let expected = g.shard_count;
                drop(g);
                shared.problem(format!(
                    "IDENTIFY with shard {}, expected [id, {expected}] with id below {expected}",
                    payload["d"]["shard"]
                ));
                let _ = tx.send(Outgoing::Close);
                return;
            };
            if g.shard(id)
                .current
                .as_ref()
                .is_some_and(|s| s.number != number)
            {
                drop(g);
                shared.problem(format!("IDENTIFY for shard {id}, which has a live session"));
                let _ = tx.send(Outgoing::Close);
                return;
            }
            let count = g.shard_count;
            let d = ready_payload(shared, number, [id, count]);
            let ready = json!({"op": 0, "s": 1, "t": "READY", "d": d});
            if let Err(e) = check_frame(&ready) {
                shared.problem(format!("READY: {e}"));
            }
            g.received.push(payload);
            g.readies += 1;
            let shard = g.shard(id);
            shard.seq = 1;
            shard.session_id = d["session_id"].as_str().map(str::to_string);
            shard.current = Some(Session {
                number,
                tx: tx.clone(),
            });
            let _ = tx.send(Outgoing::Text(ready.to_string()));
            drop(g);
            shared.bump();
        }
        Some(6) => {
            // RESUME of a shard's last session: this connection takes over and gets RESUMED.
            // Any other session id gets op 9 (not resumable), and the bot identifies again.
            let mut g = shared.gateway.lock().unwrap();
            let asked = payload["d"]["session_id"].as_str().map(str::to_string);
            let resumable = g
                .shards
                .iter()
                .find(|(_, s)| s.session_id.is_some() && s.session_id == asked)
                .map(|(&id, _)| id);
            g.received.push(payload);
            if let Some(id) = resumable {
                g.resumes += 1;
                let shard = g.shard(id);
                shard.seq += 1;
                let resumed = json!({"op": 0, "s": shard.seq, "t": "RESUMED", "d": {}});
                shard.current = Some(Session {
                    number,
                    tx: tx.clone(),
                });
                if let Err(e) = check_frame(&resumed) {
                    shared.problem(format!("RESUMED: {e}"));
                }
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
