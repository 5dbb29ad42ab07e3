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
//! against Discord's OpenAPI description (shipped at [`SPEC_PATH`]; a body that does not fit is
//! answered 400 `Invalid Form Body` and listed by [`FakeDiscord::spec_violations`]) and answered
//! like Discord: interaction callbacks 204 (a second one 400 "already acknowledged", one later than
//! [`ANSWER_WINDOW`] 404 "Unknown interaction"), webhook and
//! channel message routes a full Message object, command registration the commands with ids,
//! unknown routes 404 (also listed by [`FakeDiscord::problems`]).
//!
//! Threads (`threads.rs`): `POST /channels/{channel}/messages/{message}/threads` starts a public
//! thread whose id is the message's; posts to it are stored under its id; `PATCH
//! /channels/{thread}` archives it and a post unarchives it; [`FakeDiscord::delete_thread`] makes
//! every later request to it 404 Unknown Channel; [`FakeDiscord::refuse_threads`] and
//! [`FakeDiscord::set_max_active_threads`] make Discord's refusals happen. An interaction sent in
//! a thread's channel carries the thread as its `channel` (type 11, `parent_id`).
//!
//! Uploads (`uploads.rs`): a `multipart/form-data` body's `payload_json` is spec-checked like a
//! JSON body; each `files[n]` part must match an `attachments[].id` entry and be no larger than
//! the attachment size limit (else 400 Invalid Form Body, or 413 Request entity too large); the
//! files are kept with their bytes ([`FakeDiscord::attachments_of`]).
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
//!
//! This file holds the fake's shared state, its start and its waits; `driving.rs` drives the
//! gateway and sends interactions, `recorded.rs` holds the recorded requests and the waits on
//! them, `state.rs` what the fake keeps and the stubs, `checks.rs` the checks and the report.
#![allow(dead_code)]

mod bot_process;
mod checks;
mod commands;
mod driving;
mod gateway;
mod http;
mod interactions;
mod messages;
mod recorded;
mod rest;
mod spec;
mod state;
mod threads;
mod uploads;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
pub use recorded::{RecordedRequest, UploadedFile};
#[allow(unused_imports)]
pub use spec::{schema_errors, uncheckable_routes, SpecViolation, SPEC_PATH};
use state::Stub;
#[allow(unused_imports)]
pub use state::StubAnswer;
#[allow(unused_imports)]
pub use threads::{FakeThread, MAX_ACTIVE_THREADS};
#[allow(unused_imports)]
pub use uploads::StoredAttachment;

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
    /// The `attachment_size_limit` its payload said: uploads answering it may be no larger.
    pub attachment_size_limit: u64,
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
    /// Threads by id (the id of the message they were started from, if any).
    pub threads: BTreeMap<u64, FakeThread>,
    /// How many active threads a server may have (`None`: Discord's [`MAX_ACTIVE_THREADS`]).
    pub max_active_threads: Option<usize>,
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
    /// While set, a new gateway connection is kept waiting for its HELLO: the gateway is down.
    pub gateway_held: AtomicBool,
    /// How many gateway shards the fake serves (`GET /gateway/bot`, IDENTIFY's `shard`).
    pub shard_count: AtomicU64,
    /// Uploaded files by attachment id, with their bytes.
    pub attachments: Mutex<BTreeMap<u64, StoredAttachment>>,
    /// The largest file the fake takes, and the `attachment_size_limit` of the interactions it
    /// builds (see [`FakeDiscord::set_attachment_size_limit`]).
    pub attachment_size_limit: AtomicU64,
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
            gateway_held: AtomicBool::new(false),
            shard_count: AtomicU64::new(shards.max(1)),
            attachments: Mutex::new(BTreeMap::new()),
            attachment_size_limit: AtomicU64::new(ATTACHMENT_SIZE_LIMIT),
        });
        spec::load_spec();
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
