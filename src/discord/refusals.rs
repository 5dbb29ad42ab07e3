//! Discord refusing one of this process's gateway shards: close code 4010 (invalid shard) or 4011
//! (sharding required: the shard would serve too many servers). serenity 0.12 logs the close and
//! then tries the shard again for ever, so the process would run on without it, answering no one
//! in that shard's servers; its log is the one place that says so. [`Refusals::layer`] reads that
//! log, and [`run`](super::run) stops the bot with a line that says what to fix, so a service manager
//! shows it failed rather than running.
//!
//! No typed error reaches the bot instead. serenity 0.12.5's shard does turn the close into
//! `GatewayError::InvalidShardData` or `OverloadedShard` (`Shard::handle_gateway_closed`), but its
//! `ShardRunner::recv_event` hands only `InvalidAuthentication`, `InvalidGatewayIntents` and
//! `DisallowedGatewayIntents` on to the shard manager, and so to `Client::start`; any other error
//! it logs ("Shard handler received err") and drops, and the runner carries on.

use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::Notify;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::filter::{Filtered, Targets};
use tracing_subscriber::layer::{Context, Layer};

/// Where the first shard Discord refused is told: shared by the logging layer that hears of it
/// ([`Refusals::layer`]) and the bot that stops on it ([`Refusals::first`]).
#[derive(Clone, Debug, Default)]
pub struct Refusals(Arc<Heard>);

#[derive(Debug, Default)]
struct Heard {
    /// The first refusal seen, as the line to stop with.
    first: Mutex<Option<String>>,
    told: Notify,
}

impl Refusals {
    /// The logging layer that watches serenity's gateway for a refused shard. It sees serenity's
    /// warnings whatever `RUST_LOG` lets through to the log itself.
    pub fn layer<S>(&self) -> Filtered<Watch, Targets, S>
    where
        S: Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    {
        Watch(self.clone())
            .with_filter(Targets::new().with_target("serenity::gateway", Level::WARN))
    }

    /// Waits for Discord to refuse a shard of this process; the line that says why and what to
    /// do.
    pub async fn first(&self) -> String {
        loop {
            // Made before the check, so a refusal recorded in between still wakes it.
            let told = self.0.told.notified();
            let first = self
                .0
                .first
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            if let Some(why) = first {
                return why;
            }
            told.await;
        }
    }

    fn heard(&self, why: String) {
        let mut first = self.0.first.lock().unwrap_or_else(PoisonError::into_inner);
        if first.is_none() {
            *first = Some(why);
            self.0.told.notify_waiters();
        }
    }
}

/// See [`Refusals::layer`].
#[derive(Debug, Clone)]
pub struct Watch(Refusals);

impl<S: Subscriber> Layer<S> for Watch {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let mut message = Message(String::new());
        event.record(&mut message);
        if let Some(why) = refusal(&message.0) {
            self.0.heard(why);
        }
    }
}

struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0 = value.to_string();
        }
    }
}

/// What a log line of serenity's gateway says about a refused shard, if it is one: serenity
/// 0.12 writes `[ShardInfo { id: ShardId(1), total: 2 }] Sent invalid shard data.` for 4010 and
/// `… Shard has too many guilds.` for 4011.
fn refusal(message: &str) -> Option<String> {
    let shard =
        shard_of(message).map_or_else(String::new, |(id, total)| format!(" {id} of {total}"));
    if message.contains("Sent invalid shard data") {
        Some(format!(
            "Discord refused gateway shard{shard} (close code 4010, invalid shard): every process \
             of the bot must have the same SHARD_COUNT, and SHARDS within it"
        ))
    } else if message.contains("Shard has too many guilds") {
        Some(format!(
            "Discord refused gateway shard{shard} (close code 4011, sharding required): it would \
             serve too many servers; raise SHARD_COUNT, or leave SHARD_COUNT and SHARDS unset to \
             run as many shards as Discord recommends"
        ))
    } else {
        None
    }
}

/// The shard and the count in serenity's `ShardInfo { id: ShardId(1), total: 2 }`.
fn shard_of(message: &str) -> Option<(u32, u32)> {
    let number_after = |key: &str| {
        let rest = &message[message.find(key)? + key.len()..];
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        rest[..end].parse::<u32>().ok()
    };
    Some((number_after("ShardId(")?, number_after("total: ")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serenity_s_lines_for_a_refused_shard_say_which_and_what_to_do() {
        assert_eq!(
            refusal("[ShardInfo { id: ShardId(1), total: 2 }] Sent invalid shard data.").as_deref(),
            Some(
                "Discord refused gateway shard 1 of 2 (close code 4010, invalid shard): every \
                 process of the bot must have the same SHARD_COUNT, and SHARDS within it"
            )
        );
        let overloaded =
            refusal("[ShardInfo { id: ShardId(0), total: 1 }] Shard has too many guilds.");
        assert!(
            overloaded.as_deref().is_some_and(|w| w.starts_with(
                "Discord refused gateway shard 0 of 1 (close code 4011, sharding required): "
            )),
            "{overloaded:?}"
        );
        // A line without the shard's numbers still stops the bot, without them.
        let unnumbered = refusal("Sent invalid shard data.");
        assert!(
            unnumbered.as_deref().is_some_and(|w| w
                .starts_with("Discord refused gateway shard (close code 4010, invalid shard): ")),
            "{unnumbered:?}"
        );
        assert_eq!(
            refusal("[ShardInfo { id: ShardId(0), total: 1 }] Gateway ratelimited."),
            None
        );
    }
}
