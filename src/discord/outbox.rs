//! Posting the outbox: the announcements the game service queued (time-outs, expiries,
//! reminders, the AI's moves after a restart), oldest first, each deleted once Discord has it.
//!
//! A post that fails for a while (a 5xx, a time-out, a network error, a 429) is tried again later,
//! with a growing pause, or after the `retry_after` Discord asked for; one Discord will never
//! accept (no access to the channel, no permission, the channel gone) is dropped with a warning.
//! Neither holds up the rest.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serde_json::Value;
use serenity::http::{LightMethod, Request, Route};
use tokio::sync::Notify;
use tracing::{error, warn};

use crate::game::{Games, Owed, Place};
use crate::i18n::Lang;

use super::view;

/// Announcements taken from the outbox at a time.
const BATCH: i64 = 50;

/// The pause before the first retry of a failed post; it doubles with each failure, up to
/// [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// The longest the task sleeps without looking at the outbox: rows queued by another process
/// sharing the database are seen this late at worst.
const MAX_IDLE: Duration = Duration::from_secs(5);

/// Starts the task that posts the outbox. `wake` is notified when something was queued;
/// each post may take `timeout` before it counts as failed.
pub(super) fn spawn_outbox(
    http: Arc<serenity::Http>,
    cache: Arc<serenity::Cache>,
    games: Games,
    wake: Arc<Notify>,
    timeout: Duration,
) {
    tokio::spawn(async move {
        let poster = match Poster::new(http, timeout) {
            Ok(p) => p,
            Err(e) => {
                error!(error = %e, "could not build the HTTP client for announcements");
                return;
            }
        };
        loop {
            let full = match games.due_announcements(unix_ms(), BATCH).await {
                Ok(due) => {
                    let full = due.len() as i64 == BATCH;
                    for owed in due {
                        post_one(&poster, &cache, &games, owed).await;
                    }
                    full
                }
                Err(e) => {
                    error!(error = ?e, "could not read the outbox");
                    false
                }
            };
            if full {
                continue;
            }
            let wait = match games.next_announcement_at().await {
                Ok(Some(at)) => Duration::from_millis(at.saturating_sub(unix_ms()).max(0) as u64),
                Ok(None) => MAX_IDLE,
                Err(e) => {
                    error!(error = ?e, "could not read the outbox");
                    MAX_IDLE
                }
            };
            // Never spin, even on a row that keeps failing to be postponed.
            let wait = wait.clamp(Duration::from_millis(50), MAX_IDLE);
            tokio::select! {
                () = wake.notified() => {}
                () = tokio::time::sleep(wait) => {}
            }
        }
    });
}

/// The language of a post in `place`: in a server, the server's as the gateway last told it;
/// else (a direct message, or a server the gateway has not mentioned since start-up) the
/// channel's as its last command showed it; English when neither is known.
async fn post_lang(cache: &serenity::Cache, games: &Games, place: Place) -> Lang {
    if !place.is_direct() {
        let id = serenity::GuildId::new(place.guild.get());
        if let Some(locale) = cache.guild(id).map(|g| g.preferred_locale.clone()) {
            return Lang::from_locale(&locale);
        }
    }
    match games.lang_in(place).await {
        Ok(lang) => lang.unwrap_or_default(),
        Err(e) => {
            warn!(error = ?e, "could not read a channel's language; posting in English");
            Lang::En
        }
    }
}

/// Renders and posts one announcement, and removes it or puts it off as the answer says.
async fn post_one(poster: &Poster, cache: &serenity::Cache, games: &Games, owed: Owed) {
    let channel = owed.place.channel.get();
    let announcement = match &owed.announcement {
        Ok(a) => a,
        Err(text) => {
            warn!(outbox = owed.id, %text, "dropping an announcement that cannot be read");
            forget(games, &owed).await;
            return;
        }
    };
    let now = games.now();
    let (message, dm_to, board_of) = match games.announcement(announcement).await {
        Ok(Some(what)) => {
            // A turn told by direct message goes to its member, in their language (the view
            // knows it); the rest to the game's channel, in the channel's.
            let dm_to = what.direct_to();
            let board_of = what.board_of();
            let lang = post_lang(cache, games, owed.place).await;
            (
                view::announcement(lang, &what, now).message(),
                dm_to,
                board_of,
            )
        }
        // Nothing left to say (a reminder for a move already made).
        Ok(None) => {
            forget(games, &owed).await;
            return;
        }
        Err(e) if !e.is_internal() => {
            warn!(outbox = owed.id, error = %e, "dropping an announcement about something gone");
            forget(games, &owed).await;
            return;
        }
        Err(e) => {
            error!(outbox = owed.id, error = ?e, "could not prepare an announcement");
            later(games, &owed, None).await;
            return;
        }
    };
    // The nonce lets Discord drop a second copy, should a post that timed out have arrived.
    let message = message
        .nonce(serenity::Nonce::String(format!("outbox-{}", owed.id)))
        .enforce_nonce(true);
    let target = match dm_to {
        None => Ok(channel),
        Some(member) => poster.open_dm(member.get()).await,
    };
    let posted = match target {
        Ok(channel) => poster.post(channel, &message).await,
        Err(e) => Err(e),
    };
    match posted {
        Ok(message_id) => {
            if let (Some(game), Some(message_id)) = (board_of, message_id) {
                if let Err(e) = games.board_posted(game, message_id).await {
                    warn!(outbox = owed.id, error = ?e, "could not record a board's message");
                }
            }
            forget(games, &owed).await;
        }
        Err(Failure::DmClosed(why)) => {
            warn!(outbox = owed.id, %why, "a member's direct messages are closed; their turn notifications are off");
            if let Some(member) = dm_to {
                if let Err(e) = games.turn_dms_refused(member).await {
                    error!(outbox = owed.id, error = ?e, "could not turn off refused notifications");
                }
            }
            forget(games, &owed).await;
        }
        Err(Failure::Never(why)) => {
            warn!(
                outbox = owed.id,
                channel,
                %why,
                "dropping an announcement Discord will not accept"
            );
            forget(games, &owed).await;
        }
        Err(Failure::Later { why, after }) => {
            warn!(
                outbox = owed.id,
                channel,
                %why,
                attempts = owed.attempts + 1,
                "could not post an announcement; will try again"
            );
            later(games, &owed, after).await;
        }
    }
}

/// Removes a posted (or hopeless) announcement. Until that is done nothing else is posted:
/// an announcement left behind would be posted a second time.
async fn forget(games: &Games, owed: &Owed) {
    let mut failures = 0;
    while let Err(e) = games.announced(owed.id).await {
        error!(outbox = owed.id, error = ?e, "could not remove an announcement from the outbox");
        tokio::time::sleep(backoff(failures)).await;
        failures += 1;
    }
}

/// Puts an announcement off: by `after` if Discord said how long, else by the backoff for its
/// failures so far.
async fn later(games: &Games, owed: &Owed, after: Option<Duration>) {
    let wait = after.unwrap_or_else(|| backoff(owed.attempts));
    let at = unix_ms().saturating_add(i64::try_from(wait.as_millis()).unwrap_or(i64::MAX));
    if let Err(e) = games.announce_later(owed, at).await {
        error!(outbox = owed.id, error = ?e, "could not put an announcement off");
    }
}

/// The pause after `attempts` earlier failures.
fn backoff(attempts: i64) -> Duration {
    let doublings = u32::try_from(attempts.clamp(0, 20)).unwrap_or(20);
    FIRST_BACKOFF
        .saturating_mul(1 << doublings)
        .min(MAX_BACKOFF)
}

/// Unix time in milliseconds.
fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Why a post did not go through.
#[derive(Debug)]
enum Failure {
    /// Discord will never take it.
    Never(String),
    /// The member takes no direct messages from the bot (code 50007): never, and their turn
    /// notifications go off.
    DmClosed(String),
    /// It may go through later; `after`: how long Discord asked to wait.
    Later {
        why: String,
        after: Option<Duration>,
    },
}

impl Failure {
    fn later(why: impl std::fmt::Display) -> Failure {
        Failure::Later {
            why: why.to_string(),
            after: None,
        }
    }
}

/// Posts messages to channels through the bot's `Http` (its token, its proxy, its rate limiter
/// when there is one), with a time limit, reading Discord's answer itself: serenity's error for
/// a failed request keeps neither a 429's `retry_after` nor its headers.
struct Poster {
    http: Arc<serenity::Http>,
    /// For requests when the rate limiter is off (it has its own client otherwise).
    client: reqwest::Client,
    timeout: Duration,
}

impl Poster {
    fn new(http: Arc<serenity::Http>, timeout: Duration) -> reqwest::Result<Poster> {
        let client = reqwest::Client::builder().timeout(timeout).build()?;
        Ok(Poster {
            http,
            client,
            timeout,
        })
    }

    /// Posts `message` in `channel`; the new message's id, when Discord's answer says it.
    async fn post(
        &self,
        channel: u64,
        message: &serenity::CreateMessage,
    ) -> Result<Option<u64>, Failure> {
        let channel_id = std::num::NonZeroU64::new(channel)
            .map(serenity::ChannelId::from)
            .ok_or_else(|| Failure::Never("no channel".into()))?;
        let body = serde_json::to_vec(message).map_err(|e| Failure::Never(e.to_string()))?;
        let request =
            Request::new(Route::ChannelMessages { channel_id }, LightMethod::Post).body(Some(body));
        let answer = self.send(request).await?;
        Ok(answer
            .get("id")
            .and_then(Value::as_str)
            .and_then(|id| id.parse().ok()))
    }

    /// The direct-message channel with member `user` (Discord makes it on first use).
    async fn open_dm(&self, user: u64) -> Result<u64, Failure> {
        let body = serde_json::to_vec(&serde_json::json!({ "recipient_id": user.to_string() }))
            .map_err(|e| Failure::Never(e.to_string()))?;
        let request = Request::new(Route::UserMeDmChannels, LightMethod::Post).body(Some(body));
        let answer = self.send(request).await?;
        answer
            .get("id")
            .and_then(Value::as_str)
            .and_then(|id| id.parse().ok())
            .ok_or_else(|| Failure::later("no channel in Discord's answer"))
    }

    /// Sends `request` with the time limit; Discord's answer as JSON (`null` when it has none).
    async fn send(&self, request: Request<'_>) -> Result<Value, Failure> {
        let send = async {
            match &self.http.ratelimiter {
                // In production: serenity keeps the rate limits, and waits out a 429 itself.
                Some(limiter) => limiter.perform(request).await.map_err(Failure::later),
                None => {
                    let built = request
                        .build(&self.client, self.http.token(), self.http.proxy.as_deref())
                        .map_err(|e| Failure::Never(e.to_string()))?;
                    built.send().await.map_err(Failure::later)
                }
            }
        };
        let response = tokio::time::timeout(self.timeout, send)
            .await
            .map_err(|_| Failure::later("no answer in time"))??;
        let status = response.status().as_u16();
        let success = response.status().is_success();
        let header_wait = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<f64>().ok());
        // Discord's answer as JSON, either way: the new message, or why not.
        let body = tokio::time::timeout(self.timeout, response.bytes())
            .await
            .ok()
            .and_then(Result::ok)
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .unwrap_or(Value::Null);
        if success {
            return Ok(body);
        }
        Err(classify(status, &body, header_wait))
    }
}

/// What Discord's refusal `status` with `body` means for a post.
fn classify(status: u16, body: &Value, header_wait: Option<f64>) -> Failure {
    let code = body.get("code").and_then(Value::as_i64);
    let why = format!(
        "{status} {}",
        body.get("message").and_then(Value::as_str).unwrap_or("")
    );
    match (status, code) {
        (429, _) => Failure::Later {
            after: body
                .get("retry_after")
                .and_then(Value::as_f64)
                .or(header_wait)
                .and_then(|s| Duration::try_from_secs_f64(s).ok())
                .map(|d| d.min(MAX_BACKOFF)),
            why,
        },
        // The member takes no direct messages from the bot.
        (403, Some(50007)) => Failure::DmClosed(why),
        // Missing Access, Missing Permissions, Unknown Channel: it will not get better.
        (403, Some(50001 | 50013)) | (404, Some(10003)) => Failure::Never(why),
        // Discord's trouble, or the token's (which a restart with a good one fixes).
        (401 | 408 | 500..=599, _) => Failure::Later { why, after: None },
        // Anything else refused is refused for good.
        _ => Failure::Never(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_told_apart() {
        let limited = serde_json::json!({"message": "slow down", "retry_after": 1.5});
        assert!(matches!(
            classify(429, &limited, Some(9.0)),
            Failure::Later { after: Some(d), .. } if d == Duration::from_millis(1500)
        ));
        assert!(matches!(
            classify(429, &Value::Null, Some(2.0)),
            Failure::Later { after: Some(d), .. } if d == Duration::from_secs(2)
        ));
        let gone = serde_json::json!({"message": "Unknown Channel", "code": 10003});
        assert!(matches!(classify(404, &gone, None), Failure::Never(_)));
        let access = serde_json::json!({"message": "Missing Access", "code": 50001});
        assert!(matches!(classify(403, &access, None), Failure::Never(_)));
        assert!(matches!(
            classify(502, &Value::Null, None),
            Failure::Later { after: None, .. }
        ));
    }

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        assert_eq!(backoff(0), FIRST_BACKOFF);
        assert_eq!(backoff(2), FIRST_BACKOFF * 4);
        assert_eq!(backoff(1_000), MAX_BACKOFF);
    }
}
