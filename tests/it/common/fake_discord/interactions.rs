//! Builders of `INTERACTION_CREATE` payloads that serenity 0.12 reads.

use serde_json::{json, Map, Value};

use super::gateway::bot_user_json;
use super::threads::{new_thread, FakeThread};
use super::{timestamp_now, APPLICATION_ID, BOT_USER_ID, CHANNEL_ID, GUILD_ID};

/// Permissions of a test member unless told otherwise: view channel, send messages, embed
/// links, attach files, read history, add reactions, use application commands.
pub const DEFAULT_MEMBER_PERMISSIONS: u64 =
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31);
/// The bot's permissions in the channel (`app_permissions`): the member set plus manage
/// messages and use external emojis.
pub const APP_PERMISSIONS: u64 = DEFAULT_MEMBER_PERMISSIONS | (1 << 13) | (1 << 18);
/// `attachment_size_limit` of the interactions unless a test sets another
/// ([`FakeDiscord::set_attachment_size_limit`](super::FakeDiscord::set_attachment_size_limit),
/// [`InteractionBuilder::attachment_size_limit`]): 10 MiB, what Discord gives a server without
/// boosts.
pub const ATTACHMENT_SIZE_LIMIT: u64 = 10 * 1024 * 1024;

/// A user who sends interactions.
#[derive(Clone, Debug)]
pub struct TestUser {
    pub id: u64,
    pub username: String,
    pub global_name: Option<String>,
    /// Role ids in the guild.
    pub roles: Vec<u64>,
    /// Permission bits in the channel.
    pub permissions: u64,
    pub nick: Option<String>,
}

impl TestUser {
    pub fn new(id: u64, username: &str) -> Self {
        Self {
            id,
            username: username.to_string(),
            global_name: None,
            roles: Vec::new(),
            permissions: DEFAULT_MEMBER_PERMISSIONS,
            nick: None,
        }
    }

    pub fn with_global_name(mut self, name: &str) -> Self {
        self.global_name = Some(name.to_string());
        self
    }

    pub fn with_nick(mut self, nick: &str) -> Self {
        self.nick = Some(nick.to_string());
        self
    }

    pub fn with_roles(mut self, roles: &[u64]) -> Self {
        self.roles = roles.to_vec();
        self
    }

    pub fn with_permissions(mut self, bits: u64) -> Self {
        self.permissions = bits;
        self
    }

    /// `<@id>`
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }

    /// The User object.
    pub fn user_json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": null,
            "bot": false,
            "public_flags": 0
        })
    }

    /// The guild Member object of an interaction (with `user` and `permissions`).
    pub fn member_json(&self) -> Value {
        let mut m = self.partial_member_json();
        m["user"] = self.user_json();
        m
    }

    /// A member as in `resolved.members` (no `user`).
    pub fn partial_member_json(&self) -> Value {
        let roles: Vec<String> = self.roles.iter().map(u64::to_string).collect();
        json!({
            "nick": self.nick,
            "avatar": null,
            "roles": roles,
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": self.permissions.to_string(),
            "communication_disabled_until": null
        })
    }
}

/// What [`FakeDiscord::send_interaction`](super::FakeDiscord::send_interaction) sent.
#[derive(Clone, Debug)]
pub struct SentInteraction {
    pub id: u64,
    pub token: String,
    /// 2 command, 3 component, 4 autocomplete, 5 modal submit.
    pub kind: u64,
    pub channel_id: u64,
    pub guild_id: Option<u64>,
    pub user_id: u64,
    /// The gateway shard it was sent on: its server's, `(guild_id >> 22) % shards`, or 0 for a
    /// DM.
    pub shard: u64,
}

/// An interaction to send: a slash command, a component click, an autocomplete request or a
/// modal submission, from a guild (the default, [`GUILD_ID`]/[`CHANNEL_ID`]) or a DM.
#[derive(Clone, Debug)]
pub struct InteractionBuilder {
    kind: u64,
    /// The command name, or the custom id of a component.
    name: String,
    command_type: u64,
    subcommand: Vec<String>,
    options: Vec<Value>,
    resolved_users: Vec<TestUser>,
    /// Channels of channel options, with their names, for `data.resolved.channels`.
    resolved_channels: Vec<(u64, String)>,
    user: TestUser,
    guild_id: Option<u64>,
    channel_id: u64,
    locale: String,
    message: Option<Value>,
    component_type: u64,
    values: Option<Vec<String>>,
    /// Modal submit: (text input custom id, value).
    fields: Vec<(String, String)>,
    overrides: Vec<(String, Value)>,
    /// The thread the interaction comes from (`channel_id` is its id).
    thread: Option<FakeThread>,
    /// `None`: the fake's limit when it is sent.
    attachment_size_limit: Option<u64>,
}

impl InteractionBuilder {
    fn new(kind: u64, name: &str) -> Self {
        Self {
            kind,
            name: name.to_string(),
            command_type: 1,
            subcommand: Vec::new(),
            options: Vec::new(),
            resolved_users: Vec::new(),
            resolved_channels: Vec::new(),
            user: TestUser::new(100_000_000_000_000_001, "tester"),
            guild_id: Some(GUILD_ID),
            channel_id: CHANNEL_ID,
            locale: "en-US".to_string(),
            message: None,
            component_type: 2,
            values: None,
            fields: Vec::new(),
            overrides: Vec::new(),
            thread: None,
            attachment_size_limit: None,
        }
    }

    /// A chat-input (slash) command (interaction type 2).
    pub fn slash(name: &str) -> Self {
        Self::new(2, name)
    }

    /// An autocomplete request for a command (interaction type 4); add the options typed so far
    /// and one [`focused`](Self::focused) option.
    pub fn autocomplete(name: &str) -> Self {
        Self::new(4, name)
    }

    /// A button click (interaction type 3, component type 2).
    pub fn button(custom_id: &str) -> Self {
        Self::new(3, custom_id)
    }

    /// A string select menu choice (interaction type 3, component type 3).
    pub fn select(custom_id: &str, values: &[&str]) -> Self {
        let mut b = Self::new(3, custom_id);
        b.component_type = 3;
        b.values = Some(values.iter().map(|v| v.to_string()).collect());
        b
    }

    /// A modal submission (interaction type 5): the modal's custom id and each text input's
    /// custom id and value.
    pub fn modal_submit(custom_id: &str, fields: &[(&str, &str)]) -> Self {
        let mut b = Self::new(5, custom_id);
        b.fields = fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        b
    }

    /// Who sends it.
    pub fn by(mut self, user: &TestUser) -> Self {
        self.user = user.clone();
        self
    }

    pub fn in_guild(mut self, guild_id: u64) -> Self {
        self.guild_id = Some(guild_id);
        self
    }

    /// From this channel of the server. A thread the fake knows (one the bot started, or
    /// [`FakeDiscord::open_thread`](super::FakeDiscord::open_thread)) is sent as that thread,
    /// as with [`in_thread`](Self::in_thread).
    pub fn in_channel(mut self, channel_id: u64) -> Self {
        self.channel_id = channel_id;
        self.thread = None;
        self
    }

    /// From a public thread of `parent_id` that the fake need not know: `channel_id` is the
    /// thread, and `channel` is a thread channel (type 11) with `parent_id`, `guild_id`, a name
    /// and `thread_metadata` (not archived).
    pub fn in_thread(self, thread_id: u64, parent_id: u64) -> Self {
        let guild = self.guild_id.unwrap_or(GUILD_ID);
        let thread = new_thread(
            thread_id,
            parent_id,
            guild,
            "thread".into(),
            BOT_USER_ID,
            4320,
        );
        self.in_fake_thread(&thread)
    }

    /// From this thread, as the fake keeps it (its server, parent, name and archived state).
    pub fn in_fake_thread(mut self, thread: &FakeThread) -> Self {
        self.guild_id = Some(thread.guild_id);
        self.channel_id = thread.id;
        self.thread = Some(thread.clone());
        self
    }

    /// From a DM: `user` instead of `member`, no `guild_id`. Give the DM channel id.
    pub fn dm(mut self, channel_id: u64) -> Self {
        self.guild_id = None;
        self.channel_id = channel_id;
        self.thread = None;
        self
    }

    /// The payload's `attachment_size_limit` (default: the fake's limit when it is sent, see
    /// [`FakeDiscord::set_attachment_size_limit`](super::FakeDiscord::set_attachment_size_limit));
    /// files answering the interaction may be no larger.
    pub fn attachment_size_limit(mut self, bytes: u64) -> Self {
        self.attachment_size_limit = Some(bytes);
        self
    }

    pub fn locale(mut self, locale: &str) -> Self {
        self.locale = locale.to_string();
        self
    }

    /// Puts the options added so far and later into this subcommand (`["sub"]` or
    /// `["group", "sub"]`).
    pub fn subcommand(mut self, path: &[&str]) -> Self {
        self.subcommand = path.iter().map(|s| s.to_string()).collect();
        self
    }

    /// Any option: `kind` is Discord's option type (3 string, 4 integer, 5 boolean, 6 user,
    /// 7 channel, 8 role, 10 number).
    pub fn option(mut self, name: &str, kind: u64, value: Value) -> Self {
        self.options
            .push(json!({"name": name, "type": kind, "value": value}));
        self
    }

    pub fn string(self, name: &str, value: &str) -> Self {
        self.option(name, 3, json!(value))
    }

    pub fn integer(self, name: &str, value: i64) -> Self {
        self.option(name, 4, json!(value))
    }

    pub fn boolean(self, name: &str, value: bool) -> Self {
        self.option(name, 5, json!(value))
    }

    pub fn number(self, name: &str, value: f64) -> Self {
        self.option(name, 10, json!(value))
    }

    /// A channel option: a text channel of the server, named `channel_name`, which goes into
    /// `data.resolved.channels`.
    pub fn channel(mut self, name: &str, id: u64, channel_name: &str) -> Self {
        self.resolved_channels.push((id, channel_name.to_string()));
        self.option(name, 7, json!(id.to_string()))
    }

    /// A user option; the user (and, in a guild, the member) goes into `data.resolved`.
    pub fn user(mut self, name: &str, user: &TestUser) -> Self {
        self.resolved_users.push(user.clone());
        self.option(name, 6, json!(user.id.to_string()))
    }

    /// The option being typed, for autocomplete (a string option).
    pub fn focused(self, name: &str, partial: &str) -> Self {
        self.focused_of_type(name, 3, partial)
    }

    /// The option being typed, for autocomplete, of any type (the value is what was typed).
    pub fn focused_of_type(mut self, name: &str, kind: u64, partial: &str) -> Self {
        self.options
            .push(json!({"name": name, "type": kind, "value": partial, "focused": true}));
        self
    }

    /// The message the clicked component (or the button that opened the modal) is on, e.g. from
    /// [`FakeDiscord::message_with_component`](super::FakeDiscord::message_with_component).
    /// Without it a message from the bot carrying just that component is made up.
    pub fn on_message(mut self, message: &Value) -> Self {
        self.message = Some(message.clone());
        self
    }

    /// Sets a top-level field of the payload after it is built (e.g. `app_permissions`).
    pub fn set(mut self, key: &str, value: Value) -> Self {
        self.overrides.push((key.to_string(), value));
        self
    }

    pub(crate) fn command_name(&self) -> Option<&str> {
        matches!(self.kind, 2 | 4).then_some(self.name.as_str())
    }

    pub(crate) fn guild_id(&self) -> Option<u64> {
        self.guild_id
    }

    pub(crate) fn channel_id(&self) -> u64 {
        self.channel_id
    }

    /// Whether the thread it comes from is set, or it comes from a DM.
    pub(crate) fn channel_settled(&self) -> bool {
        self.thread.is_some() || self.guild_id.is_none()
    }

    pub(crate) fn default_attachment_size_limit(mut self, bytes: u64) -> Self {
        self.attachment_size_limit.get_or_insert(bytes);
        self
    }

    /// The payload, with `id` for the interaction, `command_id` for `data.id` and `message_id`
    /// for a made-up component message.
    pub(crate) fn build(
        self,
        id: u64,
        command_id: u64,
        message_id: u64,
    ) -> (Value, SentInteraction) {
        let token = format!("fake-interaction-token-{id}");
        let guild = self.guild_id;
        let mut p = json!({
            "id": id.to_string(),
            "application_id": APPLICATION_ID.to_string(),
            "type": self.kind,
            "token": token,
            "version": 1,
            "channel_id": self.channel_id.to_string(),
            "locale": self.locale,
            "entitlements": [],
            "attachment_size_limit": self.attachment_size_limit.unwrap_or(ATTACHMENT_SIZE_LIMIT),
            "app_permissions": APP_PERMISSIONS.to_string(),
        });
        match guild {
            Some(g) => {
                p["guild_id"] = json!(g.to_string());
                p["guild_locale"] = json!("en-US");
                p["member"] = self.user.member_json();
                p["channel"] = match &self.thread {
                    Some(thread) => {
                        let mut c = thread.json();
                        c["permissions"] = json!(self.user.permissions.to_string());
                        c
                    }
                    None => json!({
                        "id": self.channel_id.to_string(), "type": 0, "name": "general",
                        "guild_id": g.to_string(), "permissions": self.user.permissions.to_string()
                    }),
                };
                p["authorizing_integration_owners"] = json!({"0": g.to_string()});
                p["context"] = json!(0);
            }
            None => {
                p["user"] = self.user.user_json();
                p["channel"] = json!({
                    "id": self.channel_id.to_string(), "type": 1,
                    "recipients": [self.user.user_json()]
                });
                p["authorizing_integration_owners"] = json!({"0": "0"});
                p["context"] = json!(1);
            }
        }

        if self.kind == 5 {
            let rows: Vec<Value> = self
                .fields
                .iter()
                .map(|(id, value)| {
                    json!({"type": 1, "components": [{"type": 4, "custom_id": id, "value": value}]})
                })
                .collect();
            p["data"] = json!({"custom_id": self.name, "components": rows});
            if let Some(message) = &self.message {
                p["message"] = message.clone();
            }
        } else if self.kind == 3 {
            let mut data = json!({
                "custom_id": self.name,
                "component_type": self.component_type,
            });
            if let Some(values) = &self.values {
                data["values"] = json!(values);
            }
            p["data"] = data;
            let message = self
                .message
                .clone()
                .unwrap_or_else(|| made_up_message(message_id, self.channel_id, &self.name));
            p["message"] = message;
        } else {
            let mut options = self.options.clone();
            if let Some((last, groups)) = self.subcommand.split_last() {
                options = vec![json!({"type": 1, "name": last, "options": options})];
                for g in groups.iter().rev() {
                    options = vec![json!({"type": 2, "name": g, "options": options})];
                }
            }
            let mut data = json!({
                "id": command_id.to_string(),
                "name": self.name,
                "type": self.command_type,
                "options": options,
            });
            if let Some(g) = guild {
                data["guild_id"] = json!(g.to_string());
            }
            if !self.resolved_users.is_empty() {
                let mut users = Map::new();
                let mut members = Map::new();
                for u in &self.resolved_users {
                    users.insert(u.id.to_string(), u.user_json());
                    members.insert(u.id.to_string(), u.partial_member_json());
                }
                let mut resolved = json!({ "users": users });
                if guild.is_some() {
                    resolved["members"] = Value::Object(members);
                }
                data["resolved"] = resolved;
            }
            if !self.resolved_channels.is_empty() {
                let mut channels = Map::new();
                for (id, name) in &self.resolved_channels {
                    channels.insert(
                        id.to_string(),
                        json!({"id": id.to_string(), "name": name, "type": 0, "permissions": "0"}),
                    );
                }
                data["resolved"]["channels"] = Value::Object(channels);
            }
            p["data"] = data;
        }
        for (k, v) in &self.overrides {
            p[k.as_str()] = v.clone();
        }
        let sent = SentInteraction {
            id,
            token,
            kind: self.kind,
            channel_id: self.channel_id,
            guild_id: guild,
            user_id: self.user.id,
            shard: 0,
        };
        (p, sent)
    }
}

/// A message from the bot carrying one button (or select) with this custom id.
fn made_up_message(message_id: u64, channel_id: u64, custom_id: &str) -> Value {
    json!({
        "id": message_id.to_string(),
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
        "components": [{
            "type": 1,
            "components": [{"type": 2, "style": 1, "label": "button", "custom_id": custom_id}]
        }],
        "pinned": false,
        "type": 0,
        "flags": 0,
        "application_id": APPLICATION_ID.to_string(),
        "webhook_id": APPLICATION_ID.to_string()
    })
}
