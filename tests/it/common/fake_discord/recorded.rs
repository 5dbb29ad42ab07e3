//! What the fake recorded: each request the bot made with the fake's answer, and the waits on
//! them (callbacks, follow-ups, edits of the original response, channel messages).

use std::time::Duration;

use serde_json::Value;

use super::{http, truncate, FakeDiscord};

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

impl FakeDiscord {
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
