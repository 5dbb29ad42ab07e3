//! Threads as Discord keeps them: started from a message (the thread's id is the message's),
//! posted to like any channel, archived by `PATCH /channels/{thread}`, unarchived by a post,
//! deleted by a moderator; and the refusals a test makes happen.

use serde_json::{json, Value};

use super::http::HttpResponse;
use super::rest::{id_of, refuse};
use super::spec::schema_errors;
use super::state::StubAnswer;
use super::{timestamp_now, FakeDiscord, Shared, Store, BOT_USER_ID, GUILD_ID};

/// How many active (not archived) threads Discord lets a server have; one more is refused with
/// 160006. [`FakeDiscord::set_max_active_threads`] lowers it for a test.
pub const MAX_ACTIVE_THREADS: usize = 1000;

/// Discord's channel type of a public thread.
const PUBLIC_THREAD: u64 = 11;
/// The `HAS_THREAD` flag of a message a thread was started from.
const HAS_THREAD: u64 = 1 << 5;

/// A thread as the fake keeps it (a snapshot: read it again to see later changes).
#[derive(Clone, Debug)]
pub struct FakeThread {
    /// The thread's channel id: the id of the message it was started from.
    pub id: u64,
    /// The channel it was started in.
    pub parent_id: u64,
    pub guild_id: u64,
    pub name: String,
    /// Who started it: the bot, unless [`FakeDiscord::open_thread`] made it.
    pub owner_id: u64,
    pub archived: bool,
    pub locked: bool,
    /// Deleted by a moderator ([`FakeDiscord::delete_thread`]) or by the bot: every later
    /// request to it is answered 404 Unknown Channel (10003).
    pub deleted: bool,
    /// Minutes of inactivity before Discord archives it on its own (never, in the fake).
    pub auto_archive_duration: u64,
    /// How many times it was archived (`PATCH` with `archived: true`).
    pub times_archived: u64,
    /// How many times a post unarchived it, as Discord does.
    pub times_unarchived_by_post: u64,
    /// Messages posted in it (it counts follow-ups and interaction responses too).
    pub message_count: u64,
    pub create_timestamp: String,
    pub archive_timestamp: String,
}

impl FakeThread {
    /// The channel object Discord answers for it (a `ThreadResponse` of the spec).
    pub fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "type": PUBLIC_THREAD,
            "guild_id": self.guild_id.to_string(),
            "parent_id": self.parent_id.to_string(),
            "owner_id": self.owner_id.to_string(),
            "name": self.name,
            "last_message_id": null,
            "flags": 0,
            "rate_limit_per_user": 0,
            "thread_metadata": self.metadata_json(),
            "message_count": self.message_count,
            "member_count": 1,
            "total_message_sent": self.message_count,
        })
    }

    /// The `thread_metadata` object.
    pub fn metadata_json(&self) -> Value {
        json!({
            "archived": self.archived,
            "archive_timestamp": self.archive_timestamp,
            "auto_archive_duration": self.auto_archive_duration,
            "locked": self.locked,
            "create_timestamp": self.create_timestamp,
        })
    }

    fn active(&self) -> bool {
        !self.archived && !self.deleted
    }
}

/// 404 Unknown Channel for any request under `/channels/{id}` of a deleted thread.
pub(super) fn gate(shared: &Shared, segs: &[&str]) -> Option<HttpResponse> {
    let ["channels", channel, ..] = segs else {
        return None;
    };
    let id = channel.parse().ok()?;
    let store = shared.store.lock().unwrap();
    store
        .threads
        .get(&id)
        .is_some_and(|t| t.deleted)
        .then(|| refuse(10003))
}

/// Whether a channel is a thread that was deleted.
pub(super) fn is_deleted(store: &Store, channel_id: u64) -> bool {
    store.threads.get(&channel_id).is_some_and(|t| t.deleted)
}

/// A message was posted in `channel_id`: if it is a thread, count it and unarchive it.
pub(super) fn on_post(store: &mut Store, channel_id: u64) {
    if let Some(t) = store.threads.get_mut(&channel_id) {
        t.message_count += 1;
        if t.archived {
            t.archived = false;
            t.times_unarchived_by_post += 1;
            t.archive_timestamp = timestamp_now();
        }
    }
}

/// The server a channel is in, as far as the fake can tell: a thread's own, that of an
/// interaction sent from the channel, else [`GUILD_ID`]; `None` for a DM channel.
fn guild_of(store: &Store, channel_id: u64) -> Option<u64> {
    if store.dm_channels.values().any(|&c| c == channel_id) {
        return None;
    }
    if let Some(t) = store.threads.get(&channel_id) {
        return Some(t.guild_id);
    }
    let from_interaction = store
        .interactions
        .values()
        .find(|i| i.channel_id == channel_id)
        .map(|i| i.guild_id);
    from_interaction.unwrap_or(Some(GUILD_ID))
}

/// Whether the fake knows a message with this id in this channel: one it stored, or one an
/// interaction it sent was on.
fn message_known(store: &Store, channel_id: u64, message_id: u64) -> bool {
    let in_channel = |m: &Value| {
        id_of(&m["id"]) == Some(message_id) && id_of(&m["channel_id"]) == Some(channel_id)
    };
    store.messages.get(&message_id).is_some_and(in_channel)
        || store
            .interactions
            .values()
            .any(|i| i.message.as_ref().is_some_and(in_channel))
}

fn check_thread_shape(shared: &Shared, thread: &Value) {
    if let Some(errors) = schema_errors("ThreadResponse", thread) {
        if !errors.is_empty() {
            shared.problem(format!(
                "the fake's thread does not fit the spec's ThreadResponse: {}",
                errors.join("; ")
            ));
        }
    }
    super::rest::check_shape!(
        shared,
        serenity::model::channel::GuildChannel,
        "thread",
        thread
    );
}

/// `POST /channels/{channel}/messages/{message}/threads`.
pub(super) fn start_from_message(
    shared: &Shared,
    channel_id: u64,
    message_id: u64,
    body: &Value,
) -> HttpResponse {
    let mut store = shared.store.lock().unwrap();
    if store.threads.contains_key(&channel_id) {
        return refuse(50024);
    }
    let Some(guild_id) = guild_of(&store, channel_id) else {
        return refuse(50024);
    };
    if !message_known(&store, channel_id, message_id) {
        return refuse(10008);
    }
    if store.threads.contains_key(&message_id) {
        return refuse(160004);
    }
    let limit = store.max_active_threads.unwrap_or(MAX_ACTIVE_THREADS);
    let active = store
        .threads
        .values()
        .filter(|t| t.guild_id == guild_id && t.active())
        .count();
    if active >= limit {
        return refuse(160006);
    }
    let name = body["name"].as_str().unwrap_or("thread").to_string();
    let duration = body["auto_archive_duration"].as_u64().unwrap_or(4320);
    let thread = new_thread(
        message_id,
        channel_id,
        guild_id,
        name,
        BOT_USER_ID,
        duration,
    );
    let answer = thread.json();
    store.threads.insert(message_id, thread);
    if let Some(m) = store.messages.get_mut(&message_id) {
        let flags = m["flags"].as_u64().unwrap_or(0) | HAS_THREAD;
        m["flags"] = json!(flags);
        m["thread"] = answer.clone();
    }
    drop(store);
    check_thread_shape(shared, &answer);
    HttpResponse::json(201, answer)
}

pub(super) fn new_thread(
    id: u64,
    parent_id: u64,
    guild_id: u64,
    name: String,
    owner_id: u64,
    auto_archive_duration: u64,
) -> FakeThread {
    let now = timestamp_now();
    FakeThread {
        id,
        parent_id,
        guild_id,
        name,
        owner_id,
        archived: false,
        locked: false,
        deleted: false,
        auto_archive_duration,
        times_archived: 0,
        times_unarchived_by_post: 0,
        message_count: 0,
        create_timestamp: now.clone(),
        archive_timestamp: now,
    }
}

/// `GET`, `PATCH` (`archived`, `locked`, `name`, `auto_archive_duration`) and `DELETE` on
/// `/channels/{thread}`; `None` when the channel is not a thread the fake knows.
pub(super) fn channel_op(
    shared: &Shared,
    method: &str,
    channel_id: u64,
    body: &Value,
) -> Option<HttpResponse> {
    let mut store = shared.store.lock().unwrap();
    let thread = store.threads.get_mut(&channel_id)?;
    match method {
        "PATCH" => {
            if let Some(archived) = body["archived"].as_bool() {
                if archived && !thread.archived {
                    thread.times_archived += 1;
                }
                if archived != thread.archived {
                    thread.archive_timestamp = timestamp_now();
                }
                thread.archived = archived;
            }
            if let Some(locked) = body["locked"].as_bool() {
                thread.locked = locked;
            }
            if let Some(name) = body["name"].as_str() {
                thread.name = name.to_string();
            }
            if let Some(minutes) = body["auto_archive_duration"].as_u64() {
                thread.auto_archive_duration = minutes;
            }
        }
        "DELETE" => thread.deleted = true,
        "GET" => {}
        _ => return None,
    }
    let answer = thread.json();
    drop(store);
    check_thread_shape(shared, &answer);
    Some(HttpResponse::json(200, answer))
}

impl FakeDiscord {
    // ----- threads --------------------------------------------------------------------------

    /// The thread with this id (the id of the message it was started from), if there is one.
    pub fn thread(&self, id: u64) -> Option<FakeThread> {
        self.shared.store.lock().unwrap().threads.get(&id).cloned()
    }

    /// Every thread, deleted ones too, by id (oldest first).
    pub fn threads(&self) -> Vec<FakeThread> {
        let store = self.shared.store.lock().unwrap();
        store.threads.values().cloned().collect()
    }

    /// Whether the thread exists and is archived.
    pub fn is_thread_archived(&self, id: u64) -> bool {
        self.thread(id).is_some_and(|t| t.archived)
    }

    /// Waits for the first thread started in `parent_id` (past or future) and returns it.
    pub async fn wait_thread_in(&self, parent_id: u64) -> FakeThread {
        self.wait_until(
            &format!("a thread started in channel {parent_id}"),
            self.timeout,
            |s| {
                let store = s.store.lock().unwrap();
                store
                    .threads
                    .values()
                    .find(|t| t.parent_id == parent_id)
                    .cloned()
            },
        )
        .await
    }

    /// Waits until the thread is archived and returns it.
    pub async fn wait_thread_archived(&self, id: u64) -> FakeThread {
        self.wait_until(&format!("thread {id} archived"), self.timeout, |s| {
            let store = s.store.lock().unwrap();
            store.threads.get(&id).filter(|t| t.archived).cloned()
        })
        .await
    }

    /// The stored messages of a channel or thread (posts, interaction responses and follow-ups
    /// sent from it), oldest first.
    pub fn messages_in(&self, channel_id: u64) -> Vec<Value> {
        let store = self.shared.store.lock().unwrap();
        store
            .messages
            .values()
            .filter(|m| id_of(&m["channel_id"]) == Some(channel_id))
            .cloned()
            .collect()
    }

    /// A public thread a member started in `parent_id` with no message (so its id is new), for
    /// interactions sent from a thread the bot did not make.
    pub fn open_thread(&self, parent_id: u64, name: &str, owner_id: u64) -> FakeThread {
        let id = self.shared.next_id();
        let mut store = self.shared.store.lock().unwrap();
        let guild_id = guild_of(&store, parent_id).unwrap_or(GUILD_ID);
        let thread = new_thread(id, parent_id, guild_id, name.to_string(), owner_id, 4320);
        store.threads.insert(id, thread.clone());
        thread
    }

    /// A moderator deletes the thread: from now on every request to `/channels/{id}/...`, and
    /// every answer to an interaction sent from it, is refused 404 Unknown Channel (10003).
    /// Panics if there is no such thread. (No gateway event is sent; see
    /// [`dispatch_thread_delete`](Self::dispatch_thread_delete).)
    pub fn delete_thread(&self, id: u64) {
        let mut store = self.shared.store.lock().unwrap();
        let Some(thread) = store.threads.get_mut(&id) else {
            panic!("fake_discord: there is no thread {id} to delete");
        };
        thread.deleted = true;
    }

    /// [`delete_thread`](Self::delete_thread), then sends `THREAD_DELETE` to the bot as Discord
    /// does (to bots with the `GUILDS` intent).
    pub async fn dispatch_thread_delete(&self, id: u64) {
        self.delete_thread(id);
        let t = self.thread(id).expect("deleted above");
        let d = json!({
            "id": t.id.to_string(),
            "guild_id": t.guild_id.to_string(),
            "parent_id": t.parent_id.to_string(),
            "type": PUBLIC_THREAD,
        });
        self.dispatch("THREAD_DELETE", d).await;
    }

    /// Refuses every later thread start (`POST /channels/{c}/messages/{m}/threads`) with
    /// Discord's error `code` and its status (see [`StubAnswer::refusal`]): 50013 Missing
    /// Permissions, 160004 thread already created, 160006 too many active threads, ...
    pub fn refuse_threads(&self, code: u64) {
        self.add_stub("POST", THREAD_START, StubAnswer::refusal(code));
    }

    /// Like [`refuse_threads`](Self::refuse_threads), for the next `times` thread starts only.
    pub fn refuse_threads_times(&self, code: u64, times: usize) {
        self.add_stub("POST", THREAD_START, StubAnswer::refusal(code).times(times));
    }

    /// How many active (not archived, not deleted) threads a server may have before a new one
    /// is refused with 160006 (default [`MAX_ACTIVE_THREADS`]).
    pub fn set_max_active_threads(&self, max: usize) {
        self.shared.store.lock().unwrap().max_active_threads = Some(max);
    }
}

/// The route of a thread start, as [`FakeDiscord::add_stub`] takes it.
const THREAD_START: &str = "/channels/{channel}/messages/{message}/threads";
