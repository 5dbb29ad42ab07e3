//! Start-up against Discord, before the gateway: the token is checked, the application id read,
//! and the commands registered. A transient failure (5xx, 429, a dropped or timed-out
//! connection, no network) is retried with backoff, and the log says which host could not be
//! reached and why; a permanent one (a rejected token, a server the bot cannot reach) ends
//! start-up with one sentence that says what to fix. So the bot either serves or exits: it never
//! sits online answering nothing.

use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::http::{HttpError, StatusCode};
use tracing::{info, warn};

use super::reach;
use super::retry::{self, Backoff, Verdict};
use super::{BotError, Data};

/// The waits after transient failures: from half a second, doubling, up to a minute.
const BACKOFF: Backoff = Backoff {
    first: Duration::from_millis(500),
    cap: Duration::from_secs(60),
};

/// Why start-up cannot go on: what to fix, in one sentence.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StartError(String);

/// Discord's JSON error codes met at start-up.
const MISSING_ACCESS: isize = 50_001;
const UNKNOWN_GUILD: isize = 10_004;

/// What a failed request means for start-up: `None` when it is worth trying again, else what to
/// fix.
fn lasting(e: &serenity::Error, guild: Option<u64>) -> Option<String> {
    let serenity::Error::Http(http) = e else {
        return Some(format!("unexpected error from Discord: {e}"));
    };
    if let HttpError::UnsuccessfulRequest(r) = http {
        let (status, code) = (r.status_code, r.error.code);
        match (status, guild) {
            (StatusCode::UNAUTHORIZED, _) => {
                return Some(
                    "Discord rejected DISCORD_TOKEN (401 Unauthorized): open the developer \
                     portal, Bot, press Reset Token, and put the new token in .env"
                        .into(),
                )
            }
            (StatusCode::FORBIDDEN, Some(g)) if code == MISSING_ACCESS => {
                return Some(format!(
                    "the bot cannot access the server DISCORD_GUILD_ID={g} (403 Missing \
                     Access): invite it there with the applications.commands scope, or \
                     leave DISCORD_GUILD_ID empty to register the commands globally"
                ))
            }
            (StatusCode::NOT_FOUND, Some(g)) if code == UNKNOWN_GUILD => {
                return Some(format!(
                    "Discord knows no server DISCORD_GUILD_ID={g} (404 Unknown Guild): check \
                     the id (right-click the server, Copy Server ID), or leave it empty"
                ))
            }
            _ => {}
        }
    }
    match (retry::verdict(e), http) {
        (Verdict::Later, _) => None,
        (_, HttpError::UnsuccessfulRequest(r)) => Some(format!(
            "Discord refused start-up ({}, code {}): {}",
            r.status_code, r.error.code, r.error.message
        )),
        (_, other) => Some(format!("cannot talk to Discord: {other}")),
    }
}

/// Runs `step` until it succeeds, waiting longer after each transient failure.
async fn with_retry<T, F, Fut>(what: &str, guild: Option<u64>, mut step: F) -> Result<T, StartError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, serenity::Error>>,
{
    let mut failures = 0;
    loop {
        match step().await {
            Ok(v) => return Ok(v),
            Err(e) => {
                if let Some(why) = lasting(&e, guild) {
                    return Err(StartError(why));
                }
                let wait = BACKOFF.pause(failures);
                let retry_in_ms = wait.as_millis() as u64;
                match reach::unreached(&e) {
                    Some(why) => warn!(retry_in_ms, "{why} while {what}; trying again"),
                    None => {
                        let error = reach::with_causes(&e);
                        warn!(%error, retry_in_ms, "{what} failed; trying again");
                    }
                }
                tokio::time::sleep(wait).await;
                failures += 1;
            }
        }
    }
}

/// Checks the token, learns the application id, and registers `commands` (in `guild`, or
/// globally), retrying what may pass.
///
/// # Errors
/// A [`StartError`] that says what to fix when Discord refuses for good.
pub async fn prepare(
    http: &serenity::Http,
    commands: &[poise::Command<Data, BotError>],
    guild: Option<u64>,
) -> Result<(), StartError> {
    let me = with_retry("checking the token", guild, || http.get_current_user()).await?;
    let app = with_retry("reading the application", guild, || {
        http.get_current_application_info()
    })
    .await?;
    http.set_application_id(app.id);
    let builders = poise::builtins::create_application_commands(commands);
    match guild.map(serenity::GuildId::new) {
        Some(g) => {
            with_retry("registering the commands", guild, || {
                g.set_commands(http, builders.clone())
            })
            .await?;
        }
        None => {
            with_retry("registering the commands", guild, || {
                serenity::Command::set_global_commands(http, builders.clone())
            })
            .await?;
        }
    }
    info!(user = %me.name, commands = commands.len(), ?guild, "commands registered");
    Ok(())
}
