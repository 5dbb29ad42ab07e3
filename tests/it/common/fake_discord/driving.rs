//! Driving the bot through the fake: the gateway's heartbeats, sessions, drops and
//! dispatches, and the interactions sent to the bot.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::Value;

use super::{
    gateway, rest, FakeDiscord, GatewayStats, InteractionBuilder, InteractionInfo, SentInteraction,
    TestUser,
};

impl FakeDiscord {
    // ----- gateway -------------------------------------------------------------------------

    /// The heartbeat interval sent in HELLO to connections opened from now on (default
    /// [`HEARTBEAT_INTERVAL_MS`](super::HEARTBEAT_INTERVAL_MS)); a short one makes serenity
    /// heartbeat within a test.
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        self.shared
            .heartbeat_ms
            .store(interval.as_millis() as u64, Ordering::Relaxed);
    }

    /// Takes the gateway down (`true`: connections opened from now on get no HELLO until it is
    /// back) or brings it back (`false`).
    pub fn hold_gateway(&self, held: bool) {
        self.shared.gateway_held.store(held, Ordering::Relaxed);
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

    /// `/name` run by `user` in `channel_id`: a channel of the test server, or a thread the
    /// fake knows (then sent from the thread: type 11 with `parent_id`). Add options, then send
    /// it with [`send_interaction`](Self::send_interaction).
    pub fn slash_in(&self, name: &str, user: &TestUser, channel_id: u64) -> InteractionBuilder {
        let b = InteractionBuilder::slash(name).by(user);
        match self.thread(channel_id) {
            Some(thread) => b.in_fake_thread(&thread),
            None => b.in_channel(channel_id),
        }
    }

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
        let mut builder = builder.default_attachment_size_limit(self.attachment_size_limit());
        if !builder.channel_settled() {
            if let Some(thread) = self.thread(builder.channel_id()) {
                builder = builder.in_fake_thread(&thread);
            }
        }
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
                attachment_size_limit: payload["attachment_size_limit"]
                    .as_u64()
                    .unwrap_or(super::ATTACHMENT_SIZE_LIMIT),
            },
        );
        (payload, sent)
    }
}
