//! A fake Discord (REST API v10 and the gateway websocket) on 127.0.0.1, for end-to-end tests
//! that run the real bot binary with no network.
//!
//! ```ignore
//! mod common;
//! use common::fake_discord::*;
//!
//! #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
//! async fn ping() {
//!     let fake = FakeDiscord::start().await;
//!     let guild = GUILD_ID.to_string();
//!     let _bot = BotProcess::spawn(
//!         env!("CARGO_BIN_EXE_my-bot"),
//!         &fake,
//!         &[("DISCORD_GUILD_ID", guild.as_str()), ("DATABASE_URL", "sqlite::memory:")],
//!     );
//!     fake.wait_for_commands(Some(GUILD_ID)).await;
//!     let alice = TestUser::new(1001, "alice");
//!     let sent = fake.send_interaction(InteractionBuilder::slash("ping").by(&alice)).await;
//!     let reply = fake.callback_for(sent.id).await;
//!     assert_eq!(reply["type"], 4);
//!     assert_eq!(reply["data"]["content"], "Pong!");
//!     fake.assert_spec_ok();
//! }
//! ```
//!
//! The bot's side: build its `Http` with `HttpBuilder::new(token).proxy(api_base)
//! .ratelimiter_disabled(true)` when `DISCORD_API_BASE` is set, and start the client from it with
//! `ClientBuilder::new_with_http`.
//!
//! The conversation: `GET /api/v10/gateway` answers `ws://127.0.0.1:PORT/gateway`; the websocket
//! sends HELLO, answers IDENTIFY with READY ([`BOT_USER_ID`], [`APPLICATION_ID`]), heartbeats
//! with op 11, RESUME with RESUMED, and carries the dispatches of [`FakeDiscord::dispatch`] with
//! increasing `s`; every dispatch is first read with serenity's own `GatewayEvent` and refused
//! (panic) if serenity would drop it as `Event::Unknown`. REST requests are recorded, checked
//! against Discord's OpenAPI description (see [`spec_path`]; a body that does not fit is
//! answered 400 `Invalid Form Body` and listed by [`FakeDiscord::spec_violations`]) and answered
//! like Discord: interaction callbacks 204 (a second one 400 "already acknowledged", one later than
//! [`ANSWER_WINDOW`] 404 "Unknown interaction"), webhook and
//! channel message routes a full Message object, command registration the commands with ids,
//! unknown routes 404 (also listed by [`FakeDiscord::problems`]).
//!
//! Sharding: [`FakeDiscord::start_sharded`] serves N gateway shards at once, like Discord: one
//! live session per shard, each IDENTIFY checked for `shard: [id, N]` (else a problem and close
//! code 4010 or 4011), READY echoing it, and every dispatch and interaction sent on the session
//! of its server's shard (`(guild_id >> 22) % N`, shard 0 for a DM). Several bot processes can
//! share one fake; give each its own API base with [`FakeDiscord::api_base_as`] to tell their
//! requests ([`RecordedRequest::via`]) and sessions ([`FakeDiscord::session_label`]) apart.
//!
//! Every wait has a time-out (default [`DEFAULT_TIMEOUT`]) and panics with a report of what was
//! recorded, the spec violations, the fake's own problems and the tail of the bot's log; it
//! fails at once if the watched bot process has ended.
#![allow(dead_code)]

mod bot_process;
mod gateway;
mod http;
mod interactions;
mod rest;
mod spec;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::AbortHandle;

// Not every test file uses every re-export.
#[allow(unused_imports)]
pub use bot_process::BotProcess;
#[allow(unused_imports)]
pub use gateway::HEARTBEAT_INTERVAL_MS;
#[allow(unused_imports)]
pub use interactions::{
    InteractionBuilder, SentInteraction, TestUser, APP_PERMISSIONS, ATTACHMENT_SIZE_LIMIT,
    DEFAULT_MEMBER_PERMISSIONS,
};
#[allow(unused_imports)]
pub use spec::{spec_available, spec_path, uncheckable_routes, SpecViolation};

/// The bot's user id in READY.
pub const BOT_USER_ID: u64 = 900_000_000_000_000_001;
/// The bot's username in READY.
pub const BOT_USERNAME: &str = "fake-bot";
/// The application id in READY (`application.id`): the bot uses it in command and webhook routes.
pub const APPLICATION_ID: u64 = 900_000_000_000_000_002;
/// The owner of the application in `GET /oauth2/applications/@me`.
pub const OWNER_ID: u64 = 900_000_000_000_000_003;
/// The guild that interactions come from unless told otherwise.
pub const GUILD_ID: u64 = 900_000_000_000_000_010;
/// The guild text channel that interactions come from unless told otherwise.
pub const CHANNEL_ID: u64 = 900_000_000_000_000_020;
/// How long the convenience waits wait unless [`FakeDiscord::set_default_timeout`] says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Counts of what happened on the gateway, from [`FakeDiscord::gateway_stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GatewayStats {
    /// Websocket connections opened (more than one: the bot reconnected).
    pub connections: u64,
    /// READY sent (one per IDENTIFY).
    pub readies: u64,
    /// RESUMED sent (one per accepted RESUME).
    pub resumes: u64,
    /// Heartbeats received; each was answered with op 11.
    pub heartbeats: u64,
    /// The `s` of the last dispatch.
    pub last_seq: u64,
    /// Whether every shard has a live session (dispatches can be sent); with one shard, whether
    /// its session is live.
    pub live: bool,
    /// How many shards have a live session.
    pub live_shards: u64,
}

/// One HTTP request the bot made, and what the fake answered.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// 1 for the first request, and so on.
    pub seq: u64,
    pub method: String,
    /// The path under `/api/v10`, e.g. `/channels/1/messages` (the full path if it was elsewhere).
    pub path: String,
    /// The query string without `?`, empty when there is none.
    pub query: String,
    /// All request headers; names are lower-case.
    pub headers: Vec<(String, String)>,
    /// The JSON body, or the parsed `payload_json` part of a multipart body.
    pub body: Option<Value>,
    /// The raw body as received (after chunked decoding).
    pub raw_body: Vec<u8>,
    /// Whether the body was `multipart/form-data`.
    pub multipart: bool,
    /// The file parts of a multipart body.
    pub files: Vec<UploadedFile>,
    /// The status the fake answered.
    pub status: u16,
    /// The JSON the fake answered, if any.
    pub response: Option<Value>,
    /// The spec's path template that matched, when the spec was loaded and one matched.
    pub spec_route: Option<String>,
    /// The label of the API base the request came through (`/as/LABEL/api/v10/...`, see
    /// [`FakeDiscord::api_base_as`]): which process sent it, when each was given its own.
    pub via: Option<String>,
}

/// A file part of a multipart request.
#[derive(Clone, Debug)]
pub struct UploadedFile {
    /// The form field name, e.g. `files[0]`.
    pub field: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

impl UploadedFile {
    /// The bytes as UTF-8 text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

impl RecordedRequest {
    /// A header's value (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        http::header(&self.headers, name)
    }

    /// A query parameter's raw value.
    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query.split('&').find_map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k == name).then_some(v)
        })
    }

    /// The path's segments, e.g. `["channels", "1", "messages"]`.
    pub fn segments(&self) -> Vec<&str> {
        self.path.split('/').filter(|s| !s.is_empty()).collect()
    }

    /// The body value at a JSON pointer (`/data/content`), `Value::Null` when absent.
    pub fn at(&self, pointer: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.body
            .as_ref()
            .and_then(|b| b.pointer(pointer))
            .unwrap_or(&NULL)
    }

    /// The body value at a JSON pointer as a string, if it is one.
    pub fn str_at(&self, pointer: &str) -> Option<&str> {
        self.at(pointer).as_str()
    }

    /// The uploaded file with this file name.
    pub fn file(&self, filename: &str) -> Option<&UploadedFile> {
        self.files
            .iter()
            .find(|f| f.filename.as_deref() == Some(filename))
    }

    /// One line: `#3 POST /channels/1/messages -> 200 {"content":...}`.
    pub fn summary(&self) -> String {
        let q = if self.query.is_empty() {
            String::new()
        } else {
            format!("?{}", self.query)
        };
        let body = self
            .body
            .as_ref()
            .map(|b| format!(" {}", truncate(&b.to_string(), 240)))
            .unwrap_or_default();
        let files = if self.files.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = self
                .files
                .iter()
                .map(|f| {
                    format!(
                        "{}={} ({} bytes)",
                        f.field,
                        f.filename.as_deref().unwrap_or("?"),
                        f.bytes.len()
                    )
                })
                .collect();
            format!(" files: {}", names.join(", "))
        };
        let via = self
            .via
            .as_ref()
            .map(|l| format!(" (via {l})"))
            .unwrap_or_default();
        format!(
            "#{} {} {}{}{} -> {}{}{}",
            self.seq, self.method, self.path, q, via, self.status, body, files
        )
    }
}

pub(crate) struct InteractionInfo {
    pub id: u64,
    pub token: String,
    pub kind: u64,
    pub channel_id: u64,
    pub guild_id: Option<u64>,
    /// For component interactions: the message the component is on.
    pub message: Option<Value>,
    /// The callback type once the interaction was answered.
    pub acknowledged: Option<u64>,
    /// The message `@original` refers to.
    pub original: Option<u64>,
    /// When it was sent: Discord takes the first answer only within 3 seconds of that.
    pub created: std::time::Instant,
    /// The gateway shard it goes through.
    pub shard: u64,
}

/// How long Discord waits for the first answer to an interaction.
pub const ANSWER_WINDOW: Duration = Duration::from_secs(3);

#[derive(Default)]
pub(crate) struct Store {
    pub messages: BTreeMap<u64, Value>,
    /// By token.
    pub interactions: HashMap<String, InteractionInfo>,
    /// `None` holds the global commands, `Some(guild)` a guild's.
    pub commands: BTreeMap<Option<u64>, Vec<Value>>,
    pub dm_channels: HashMap<u64, u64>,
    /// Canned answers set by [`FakeDiscord::stub`], newest first.
    pub stubs: Vec<Stub>,
}

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

pub(crate) struct BotWatch {
    pub log: PathBuf,
    pub child: Weak<Mutex<std::process::Child>>,
}

pub(crate) struct Shared {
    pub port: u16,
    pub requests: Mutex<Vec<RecordedRequest>>,
    pub changed: watch::Sender<u64>,
    pub last_id: Mutex<u64>,
    pub gateway: Mutex<gateway::GatewayState>,
    pub store: Mutex<Store>,
    pub violations: Mutex<Vec<SpecViolation>>,
    pub problems: Mutex<Vec<String>>,
    pub tasks: Mutex<Vec<AbortHandle>>,
    pub bot: Mutex<Option<BotWatch>>,
    pub heartbeat_ms: AtomicU64,
    /// How many gateway shards the fake serves (`GET /gateway/bot`, IDENTIFY's `shard`).
    pub shard_count: AtomicU64,
}

impl Shared {
    pub fn api_base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn gateway_url(&self) -> String {
        format!("ws://127.0.0.1:{}/gateway", self.port)
    }

    /// The gateway URL handed to a bot whose API base carries `label`.
    pub fn gateway_url_as(&self, label: Option<&str>) -> String {
        match label {
            Some(l) => format!("ws://127.0.0.1:{}/as/{l}/gateway", self.port),
            None => self.gateway_url(),
        }
    }

    pub fn shard_count(&self) -> u64 {
        self.shard_count.load(Ordering::Relaxed).max(1)
    }

    /// The shard Discord sends a server's events on (`(guild_id >> 22) % shards`); direct
    /// messages go to shard 0.
    pub fn shard_of(&self, guild_id: Option<u64>) -> u64 {
        guild_id.map_or(0, |g| (g >> 22) % self.shard_count())
    }

    /// Wakes every waiter.
    pub fn bump(&self) {
        self.changed.send_modify(|v| *v += 1);
    }

    pub fn track_task(&self, handle: AbortHandle) {
        let mut tasks = self.tasks.lock().unwrap();
        tasks.retain(|t| !t.is_finished());
        tasks.push(handle);
    }

    /// Records something wrong on the fake's side (a payload serenity would not read, ...).
    pub fn problem(&self, text: String) {
        eprintln!("fake_discord: {text}");
        self.problems.lock().unwrap().push(text);
        self.bump();
    }

    /// A new snowflake, strictly increasing.
    pub fn next_id(&self) -> u64 {
        const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;
        let now = now_ms().saturating_sub(DISCORD_EPOCH_MS) << 22;
        let mut last = self.last_id.lock().unwrap();
        *last = now.max(*last + 1);
        *last
    }
}

/// The fake server. One per test; dropping it stops it.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    timeout: Duration,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for t in self.shared.tasks.lock().unwrap().drain(..) {
            t.abort();
        }
    }
}

impl FakeDiscord {
    /// Binds 127.0.0.1 on a free port and starts serving REST (`/api/v10/...`) and the gateway
    /// (`/gateway`). Loads the OpenAPI spec on first use in the process.
    pub async fn start() -> FakeDiscord {
        Self::start_sharded(1).await
    }

    /// Like [`start`](Self::start), serving `shards` gateway shards at once: `GET /gateway/bot`
    /// answers `shards`, each IDENTIFY must ask for one shard of them that no other live session
    /// serves (else the fake records a problem and closes with 4010 or 4011), and dispatches go
    /// to the session of their server's shard (see [`FakeDiscord::shard_of`]).
    pub async fn start_sharded(shards: u64) -> FakeDiscord {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("fake_discord: bind 127.0.0.1:0");
        let port = listener.local_addr().expect("local addr").port();
        let (changed, _) = watch::channel(0);
        let shared = Arc::new(Shared {
            port,
            requests: Mutex::new(Vec::new()),
            changed,
            last_id: Mutex::new(0),
            gateway: Mutex::new(gateway::GatewayState::default()),
            store: Mutex::new(Store::default()),
            violations: Mutex::new(Vec::new()),
            problems: Mutex::new(Vec::new()),
            tasks: Mutex::new(Vec::new()),
            bot: Mutex::new(None),
            heartbeat_ms: AtomicU64::new(gateway::HEARTBEAT_INTERVAL_MS),
            shard_count: AtomicU64::new(shards.max(1)),
        });
        spec::spec_available();
        let task = tokio::spawn(http::serve(listener, Arc::clone(&shared)));
        shared.track_task(task.abort_handle());
        FakeDiscord {
            shared,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// Serves `shards` gateway shards from now on, as [`start_sharded`](Self::start_sharded)
    /// does; call it before the bot starts.
    pub fn set_shard_count(&self, shards: u64) {
        self.shared
            .shard_count
            .store(shards.max(1), Ordering::Relaxed);
    }

    /// `http://127.0.0.1:PORT`: what the bot gets as `DISCORD_API_BASE`.
    pub fn api_base(&self) -> String {
        self.shared.api_base()
    }

    /// An API base that tags every request made through it with `label` (it is
    /// `http://127.0.0.1:PORT/as/LABEL`; see [`RecordedRequest::via`]); the gateway URL answered
    /// through it carries the label too, so the sessions are tagged as well (see
    /// [`FakeDiscord::session_label`]). Give each bot process its own to tell them apart.
    pub fn api_base_as(&self, label: &str) -> String {
        assert!(
            !label.is_empty() && !label.contains(['/', '?', '#']),
            "a label is one path segment: {label:?}"
        );
        format!("{}/as/{label}", self.shared.api_base())
    }

    /// `ws://127.0.0.1:PORT/gateway`, as answered to `GET /api/v10/gateway`.
    pub fn gateway_url(&self) -> String {
        self.shared.gateway_url()
    }

    pub fn port(&self) -> u16 {
        self.shared.port
    }

    /// How many gateway shards the fake serves (1 unless [`start_sharded`](Self::start_sharded)).
    pub fn shard_count(&self) -> u64 {
        self.shared.shard_count()
    }

    /// The shard whose session gets a server's events and interactions: `(guild_id >> 22) %
    /// shards`; `None` (a direct message) is shard 0's.
    pub fn shard_of(&self, guild_id: Option<u64>) -> u64 {
        self.shared.shard_of(guild_id)
    }

    /// Sets the time-out of the waits that take none.
    pub fn set_default_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    pub fn default_timeout(&self) -> Duration {
        self.timeout
    }

    /// A fresh snowflake id.
    pub fn next_id(&self) -> u64 {
        self.shared.next_id()
    }

    /// Makes the time-out reports show the tail of this log, and makes the waits fail at once if
    /// the process ends. [`BotProcess::spawn`] calls it.
    pub fn watch_bot(&self, bot: &BotProcess) {
        *self.shared.bot.lock().unwrap() = Some(BotWatch {
            log: bot.log_path().to_path_buf(),
            child: bot.child_handle(),
        });
    }

    // ----- gateway -------------------------------------------------------------------------

    /// The heartbeat interval sent in HELLO to connections opened from now on (default
    /// [`HEARTBEAT_INTERVAL_MS`]); a short one makes serenity heartbeat within a test.
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        self.shared
            .heartbeat_ms
            .store(interval.as_millis() as u64, Ordering::Relaxed);
    }

    /// Counts of what happened on the gateway so far.
    pub fn gateway_stats(&self) -> GatewayStats {
        let count = self.shard_count();
        let g = self.shared.gateway.lock().unwrap();
        let live_shards = (0..count).filter(|&s| g.live(s).is_some()).count() as u64;
        GatewayStats {
            connections: g.connections,
            readies: g.readies,
            resumes: g.resumes,
            heartbeats: g.heartbeats,
            last_seq: g.shards.get(&0).map_or(0, |s| s.seq),
            live: live_shards == count,
            live_shards,
        }
    }

    /// Whether a shard has a live session, and the label of the process that holds it (see
    /// [`FakeDiscord::api_base_as`]): `None` when it has none, `Some(None)` when it is unlabelled.
    pub fn session_label(&self, shard: u64) -> Option<Option<String>> {
        let g = self.shared.gateway.lock().unwrap();
        g.live(shard).map(|s| s.label.clone())
    }

    /// The `s` of a shard's last dispatch, and how many READYs it was sent.
    pub fn shard_seq_and_readies(&self, shard: u64) -> (u64, u64) {
        let g = self.shared.gateway.lock().unwrap();
        g.shards.get(&shard).map_or((0, 0), |s| (s.seq, s.readies))
    }

    /// Waits until a shard has a live session (whose holder is labelled `label`, when given)
    /// and returns its label.
    pub async fn wait_shard_live(&self, shard: u64, label: Option<&str>) -> Option<String> {
        let what = match label {
            Some(l) => format!("a live gateway session of shard {shard} held by {l}"),
            None => format!("a live gateway session of shard {shard}"),
        };
        self.wait_until(&what, self.timeout, |s| {
            let g = s.gateway.lock().unwrap();
            let found = g.live(shard)?.label.clone();
            (label.is_none() || found.as_deref() == label).then_some(found)
        })
        .await
    }

    /// Waits until the gateway counts satisfy `predicate`.
    pub async fn wait_gateway(
        &self,
        what: &str,
        predicate: impl Fn(&GatewayStats) -> bool,
    ) -> GatewayStats {
        self.wait_until(what, self.timeout, |_| {
            let stats = self.gateway_stats();
            predicate(&stats).then_some(stats)
        })
        .await
    }

    /// Sends op 9 INVALID_SESSION (not resumable) on the live session and forgets its id, so the
    /// bot must identify again and gets a new READY.
    pub fn invalidate_session(&self) {
        self.invalidate_shard_session(0);
    }

    /// [`invalidate_session`](Self::invalidate_session) on one shard's session.
    pub fn invalidate_shard_session(&self, shard: u64) {
        let mut g = self.shared.gateway.lock().unwrap();
        let state = g.shard(shard);
        state.session_id = None;
        if let Some(session) = &state.current {
            let nine = serde_json::json!({"op": 9, "s": null, "t": null, "d": false});
            let _ = session.tx.send(gateway::Outgoing::Text(nine.to_string()));
        }
    }

    /// Closes the bot's live gateway connection (of shard 0) with close code 4000, as Discord
    /// does now and then. serenity reconnects and RESUMEs; the fake answers RESUMED and goes on
    /// with the same sequence numbers.
    pub fn close_gateway_connection(&self) {
        self.close_shard_connection(0);
    }

    /// [`close_gateway_connection`](Self::close_gateway_connection) on one shard's session.
    pub fn close_shard_connection(&self, shard: u64) {
        if let Some(session) = self
            .shared
            .gateway
            .lock()
            .unwrap()
            .shard(shard)
            .current
            .take()
        {
            let _ = session.tx.send(gateway::Outgoing::Close);
        }
    }

    /// Waits until the bot has identified and been sent READY.
    pub async fn wait_ready(&self) {
        self.wait_until(
            "the bot to connect to the gateway and identify",
            self.timeout,
            |s| (s.gateway.lock().unwrap().readies > 0).then_some(()),
        )
        .await
    }

    /// The IDENTIFY payloads the bot sent (one per connection).
    pub fn identify_payloads(&self) -> Vec<Value> {
        self.gateway_payloads()
            .into_iter()
            .filter(|p| p["op"] == 2)
            .collect()
    }

    /// Every payload the bot sent over the gateway except heartbeats.
    pub fn gateway_payloads(&self) -> Vec<Value> {
        self.shared.gateway.lock().unwrap().received.clone()
    }

    /// Sends a dispatch (op 0) with the next sequence number to the live session of its shard
    /// (that of `d.guild_id`, shard 0 without one), waiting for one if needed. Panics if serenity would not read the payload (an error, or a known
    /// event that would become `Event::Unknown`). Returns the sequence number used.
    pub async fn dispatch(&self, event: &str, d: Value) -> u64 {
        let frame = serde_json::json!({"op": 0, "s": 1, "t": event, "d": d});
        if let Err(e) = gateway::check_frame(&frame) {
            panic!(
                "fake_discord: refusing to dispatch {event}: {e}\npayload: {}",
                serde_json::to_string_pretty(&d).unwrap_or_default()
            );
        }
        self.dispatch_unchecked(event, d).await
    }

    /// Like [`dispatch`](Self::dispatch) without checking the payload against serenity.
    pub async fn dispatch_unchecked(&self, event: &str, d: Value) -> u64 {
        let guild = match &d["guild_id"] {
            Value::String(g) => g.parse().ok(),
            other => other.as_u64(),
        };
        let shard = self.shard_of(guild);
        self.dispatch_to_shard(shard, event, d).await
    }

    /// Like [`dispatch_unchecked`](Self::dispatch_unchecked), on the session of `shard`
    /// whatever the payload's server.
    pub async fn dispatch_to_shard(&self, shard: u64, event: &str, d: Value) -> u64 {
        let count = self.shard_count();
        let what = if count == 1 {
            format!("a live gateway session to dispatch {event} on")
        } else {
            format!("a live gateway session of shard {shard} of {count} to dispatch {event} on")
        };
        self.wait_until(&what, self.timeout, |s| {
            s.gateway.lock().unwrap().live(shard).map(|_| ())
        })
        .await;
        let mut g = self.shared.gateway.lock().unwrap();
        let state = g.shard(shard);
        state.seq += 1;
        let seq = state.seq;
        let frame = serde_json::json!({"op": 0, "s": seq, "t": event, "d": d});
        let session = state.current.as_ref().expect("session checked above");
        let _ = session.tx.send(gateway::Outgoing::Text(frame.to_string()));
        seq
    }

    // ----- interactions ---------------------------------------------------------------------

    /// Builds the interaction, remembers its token (so the webhook routes know it) and
    /// dispatches it as `INTERACTION_CREATE` on its shard's session (that of its server, shard 0
    /// for a DM; see [`SentInteraction::shard`]). Commands get the id of the registered command
    /// of that name when there is one.
    pub async fn send_interaction(&self, builder: InteractionBuilder) -> SentInteraction {
        let (payload, sent) = self.prepare_interaction(builder);
        self.dispatch_to_shard(sent.shard, "INTERACTION_CREATE", payload)
            .await;
        sent
    }

    /// Builds the interaction and remembers its token, without dispatching it: the payload can
    /// be read into serenity's types to drive handler code in-process against the fake's REST.
    /// Panics if serenity would not read the payload.
    pub fn prepare_interaction(&self, builder: InteractionBuilder) -> (Value, SentInteraction) {
        let id = self.shared.next_id();
        let command_id = builder.command_name().and_then(|name| {
            let store = self.shared.store.lock().unwrap();
            [builder.guild_id(), None]
                .iter()
                .filter_map(|g| store.commands.get(g))
                .flatten()
                .find(|c| c["name"] == name)
                .and_then(|c| rest::id_of(&c["id"]))
        });
        let command_id = command_id.unwrap_or_else(|| self.shared.next_id());
        let (payload, mut sent) = builder.build(id, command_id, self.shared.next_id());
        sent.shard = self.shard_of(sent.guild_id);
        let frame = serde_json::json!({"op": 0, "s": 1, "t": "INTERACTION_CREATE", "d": payload});
        if let Err(e) = gateway::check_frame(&frame) {
            panic!("fake_discord: the built interaction does not read in serenity: {e}\npayload: {payload}");
        }
        self.shared.store.lock().unwrap().interactions.insert(
            sent.token.clone(),
            InteractionInfo {
                id: sent.id,
                token: sent.token.clone(),
                kind: payload["type"].as_u64().unwrap_or(0),
                channel_id: sent.channel_id,
                guild_id: sent.guild_id,
                message: payload.get("message").cloned(),
                acknowledged: None,
                original: None,
                created: std::time::Instant::now(),
                shard: sent.shard,
            },
        );
        (payload, sent)
    }

    // ----- recorded requests ----------------------------------------------------------------

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// The requests whose method is `method` and whose path (under `/api/v10`) starts with
    /// `path_prefix`.
    pub fn requests_to(&self, method: &str, path_prefix: &str) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == method && r.path.starts_with(path_prefix))
            .collect()
    }

    /// Waits for the first recorded request (past or future) that matches.
    pub async fn wait_for(
        &self,
        what: &str,
        timeout: Duration,
        predicate: impl Fn(&RecordedRequest) -> bool,
    ) -> RecordedRequest {
        self.wait_until(what, timeout, |s| {
            s.requests
                .lock()
                .unwrap()
                .iter()
                .find(|r| predicate(r))
                .cloned()
        })
        .await
    }

    /// Waits for `n` matching requests and returns all matching ones.
    pub async fn wait_for_n(
        &self,
        what: &str,
        n: usize,
        timeout: Duration,
        predicate: impl Fn(&RecordedRequest) -> bool,
    ) -> Vec<RecordedRequest> {
        self.wait_until(what, timeout, |s| {
            let found: Vec<RecordedRequest> = s
                .requests
                .lock()
                .unwrap()
                .iter()
                .filter(|r| predicate(r))
                .cloned()
                .collect();
            (found.len() >= n).then_some(found)
        })
        .await
    }

    /// Panics if a matching request is recorded within `within`.
    pub async fn assert_no_request(
        &self,
        what: &str,
        within: Duration,
        predicate: impl Fn(&RecordedRequest) -> bool,
    ) {
        let deadline = tokio::time::Instant::now() + within;
        let mut rx = self.shared.changed.subscribe();
        loop {
            rx.borrow_and_update();
            if let Some(r) = self.requests().into_iter().find(|r| predicate(r)) {
                panic!(
                    "fake_discord: expected no {what}, got {}\n{}",
                    r.summary(),
                    self.report()
                );
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return;
            }
        }
    }

    /// Waits for the interaction callback (`POST /interactions/{id}/{token}/callback`) and
    /// returns its body: `type` 4 message, 5 deferred, 6 deferred update, 7 update message,
    /// 8 autocomplete result, 9 modal.
    pub async fn callback_for(&self, interaction_id: u64) -> Value {
        self.callback_request_for(interaction_id)
            .await
            .body
            .unwrap_or(Value::Null)
    }

    /// Like [`callback_for`](Self::callback_for), with the whole request (files, headers).
    pub async fn callback_request_for(&self, interaction_id: u64) -> RecordedRequest {
        let id = interaction_id.to_string();
        self.wait_for(
            &format!("the callback of interaction {id}"),
            self.timeout,
            |r| {
                let s = r.segments();
                r.method == "POST"
                    && s.len() == 4
                    && s[0] == "interactions"
                    && s[1] == id
                    && s[3] == "callback"
            },
        )
        .await
    }

    /// Follow-ups sent so far for an interaction token (`POST /webhooks/{app}/{token}`).
    pub fn followups_for(&self, token: &str) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| is_followup(r, token))
            .collect()
    }

    /// Waits until `n` follow-ups were sent for the token and returns them all.
    pub async fn wait_followups(&self, token: &str, n: usize) -> Vec<RecordedRequest> {
        self.wait_for_n(
            &format!("{n} follow-up(s) for token {token}"),
            n,
            self.timeout,
            |r| is_followup(r, token),
        )
        .await
    }

    /// Edits of the original response so far (`PATCH /webhooks/{app}/{token}/messages/@original`).
    pub fn original_edits(&self, token: &str) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| is_original_edit(r, token))
            .collect()
    }

    /// Waits for the first edit of the original response.
    pub async fn wait_original_edit(&self, token: &str) -> RecordedRequest {
        self.wait_for(
            &format!("an edit of @original for token {token}"),
            self.timeout,
            |r| is_original_edit(r, token),
        )
        .await
    }

    /// Messages posted so far to a channel (`POST /channels/{id}/messages`).
    pub fn channel_messages(&self, channel_id: u64) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| is_channel_message(r, channel_id))
            .collect()
    }

    /// Waits for the first message posted to a channel.
    pub async fn wait_channel_message(&self, channel_id: u64) -> RecordedRequest {
        self.wait_for(
            &format!("a message posted to channel {channel_id}"),
            self.timeout,
            |r| is_channel_message(r, channel_id),
        )
        .await
    }

    /// Waits until `n` messages were posted to a channel and returns them all.
    pub async fn wait_channel_messages(&self, channel_id: u64, n: usize) -> Vec<RecordedRequest> {
        self.wait_for_n(
            &format!("{n} message(s) posted to channel {channel_id}"),
            n,
            self.timeout,
            |r| is_channel_message(r, channel_id),
        )
        .await
    }

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

    // ----- checks ---------------------------------------------------------------------------

    /// Requests that did not fit Discord's OpenAPI description (unknown routes and bodies that
    /// do not validate; the latter were answered 400 `Invalid Form Body`).
    pub fn spec_violations(&self) -> Vec<SpecViolation> {
        self.shared.violations.lock().unwrap().clone()
    }

    /// Panics listing the spec violations, if any.
    pub fn assert_spec_ok(&self) {
        let v = self.spec_violations();
        if !v.is_empty() {
            let list: Vec<String> = v.iter().map(|v| format!("  {v}")).collect();
            panic!(
                "fake_discord: {} request(s) do not fit Discord's OpenAPI spec:\n{}",
                v.len(),
                list.join("\n")
            );
        }
    }

    /// Problems on the fake's side: payloads serenity would not read, unexpected routes, ...
    pub fn problems(&self) -> Vec<String> {
        self.shared.problems.lock().unwrap().clone()
    }

    /// Panics listing the fake's problems, if any.
    pub fn assert_no_problems(&self) {
        let p = self.problems();
        assert!(
            p.is_empty(),
            "fake_discord: problems:\n  {}",
            p.join("\n  ")
        );
    }

    /// A readable account of everything recorded, as printed when a wait times out.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let requests = self.requests();
        out.push_str(&format!("recorded requests ({}):\n", requests.len()));
        for r in &requests {
            out.push_str(&format!("  {}\n", r.summary()));
        }
        {
            let count = self.shard_count();
            let g = self.shared.gateway.lock().unwrap();
            let live: Vec<String> = (0..count)
                .map(|shard| match g.live(shard) {
                    None => "no".to_string(),
                    Some(s) => match &s.label {
                        Some(l) => format!("yes (via {l})"),
                        None => "yes".to_string(),
                    },
                })
                .collect();
            let live = if count == 1 {
                live[0].clone()
            } else {
                let per: Vec<String> = live
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("shard {i}: {l}"))
                    .collect();
                per.join(", ")
            };
            out.push_str(&format!(
                "gateway: {} connection(s), {} READY, {} RESUMED, {} heartbeat(s), live session: {}\n",
                g.connections, g.readies, g.resumes, g.heartbeats, live
            ));
        }
        let violations = self.spec_violations();
        if !violations.is_empty() {
            out.push_str(&format!("spec violations ({}):\n", violations.len()));
            for v in &violations {
                out.push_str(&format!("  {v}\n"));
            }
        }
        let problems = self.problems();
        if !problems.is_empty() {
            out.push_str(&format!("fake problems ({}):\n", problems.len()));
            for p in &problems {
                out.push_str(&format!("  {p}\n"));
            }
        }
        if let Some(log) = self
            .shared
            .bot
            .lock()
            .unwrap()
            .as_ref()
            .map(|b| b.log.clone())
        {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(40)..];
            out.push_str(&format!(
                "bot log ({}, last {} lines):\n",
                log.display(),
                tail.len()
            ));
            for l in tail {
                out.push_str(&format!("  | {l}\n"));
            }
        }
        out
    }

    /// Polls `check` whenever something changes until it yields a value; panics with the report
    /// after `timeout`, or at once if the watched bot process has ended.
    async fn wait_until<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut(&Shared) -> Option<T>,
    ) -> T {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut rx = self.shared.changed.subscribe();
        loop {
            rx.borrow_and_update();
            if let Some(found) = check(&self.shared) {
                return found;
            }
            if let Some(status) = self.bot_exit_status() {
                panic!(
                    "fake_discord: the bot process ended ({status}) while waiting for {what}\n{}",
                    self.report()
                );
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                panic!(
                    "fake_discord: timed out after {timeout:?} waiting for {what}\n{}",
                    self.report()
                );
            }
            let slice = (deadline - now).min(Duration::from_millis(250));
            let _ = tokio::time::timeout(slice, rx.changed()).await;
        }
    }

    fn bot_exit_status(&self) -> Option<String> {
        let bot = self.shared.bot.lock().unwrap();
        let child = bot.as_ref()?.child.upgrade()?;
        let mut child = child.lock().unwrap();
        match child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            _ => None,
        }
    }
}

fn is_followup(r: &RecordedRequest, token: &str) -> bool {
    let s = r.segments();
    r.method == "POST" && s.len() == 3 && s[0] == "webhooks" && s[2] == token
}

fn is_original_edit(r: &RecordedRequest, token: &str) -> bool {
    let s = r.segments();
    r.method == "PATCH"
        && s.len() == 5
        && s[0] == "webhooks"
        && s[2] == token
        && s[3] == "messages"
        && s[4] == "@original"
}

fn is_channel_message(r: &RecordedRequest, channel_id: u64) -> bool {
    let s = r.segments();
    r.method == "POST"
        && s.len() == 3
        && s[0] == "channels"
        && s[1] == channel_id.to_string()
        && s[2] == "messages"
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

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The current time as Discord writes it: `2024-05-01T12:00:00.000000+00:00`.
pub(crate) fn timestamp_now() -> String {
    let ms = now_ms();
    let secs = ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}000+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// Cuts a string to at most `max` characters, marking the cut.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
