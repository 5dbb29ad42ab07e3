//! Start-up against Discord, before the gateway: the token is checked, the application id read,
//! and the commands registered. A transient failure (5xx, 429, a dropped or timed-out
//! connection) is retried with backoff; a permanent one (a rejected token, a server the bot
//! cannot reach) ends start-up with one sentence that says what to fix. So the bot either serves
//! or exits: it never sits online answering nothing.

use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::http::{HttpError, StatusCode};
use tracing::{info, warn};

use super::{BotError, Data};

/// The first wait after a transient failure; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Why start-up cannot go on: what to fix, in one sentence.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StartError(String);

/// What a failed request means for start-up.
enum Failure {
    /// Worth trying again.
    Transient,
    /// Trying again cannot help; the text says what to fix.
    Permanent(String),
}

/// Discord's JSON error codes met at start-up.
const MISSING_ACCESS: isize = 50_001;
const UNKNOWN_GUILD: isize = 10_004;

fn classify(e: &serenity::Error, guild: Option<u64>) -> Failure {
    let serenity::Error::Http(http) = e else {
        return Failure::Permanent(format!("unexpected error from Discord: {e}"));
    };
    match http {
        HttpError::Request(_) => Failure::Transient,
        HttpError::UnsuccessfulRequest(r) => {
            let (status, code) = (r.status_code, r.error.code);
            match (status, guild) {
                (StatusCode::UNAUTHORIZED, _) => Failure::Permanent(
                    "Discord rejected DISCORD_TOKEN (401 Unauthorized): open the developer \
                     portal, Bot, press Reset Token, and put the new token in .env"
                        .into(),
                ),
                (StatusCode::FORBIDDEN, Some(g)) if code == MISSING_ACCESS => {
                    Failure::Permanent(format!(
                        "the bot cannot access the server DISCORD_GUILD_ID={g} (403 Missing \
                         Access): invite it there with the applications.commands scope, or \
                         leave DISCORD_GUILD_ID empty to register the commands globally"
                    ))
                }
                (StatusCode::NOT_FOUND, Some(g)) if code == UNKNOWN_GUILD => {
                    Failure::Permanent(format!(
                        "Discord knows no server DISCORD_GUILD_ID={g} (404 Unknown Guild): check \
                         the id (right-click the server, Copy Server ID), or leave it empty"
                    ))
                }
                (s, _) if s == StatusCode::TOO_MANY_REQUESTS || s.is_server_error() => {
                    Failure::Transient
                }
                (s, _) => Failure::Permanent(format!(
                    "Discord refused start-up ({s}, code {code}): {}",
                    r.error.message
                )),
            }
        }
        other => Failure::Permanent(format!("cannot talk to Discord: {other}")),
    }
}

/// Runs `step` until it succeeds, waiting longer after each transient failure.
async fn with_retry<T, F, Fut>(what: &str, guild: Option<u64>, mut step: F) -> Result<T, StartError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, serenity::Error>>,
{
    let mut wait = FIRST_BACKOFF;
    loop {
        match step().await {
            Ok(v) => return Ok(v),
            Err(e) => match classify(&e, guild) {
                Failure::Permanent(why) => return Err(StartError(why)),
                Failure::Transient => {
                    warn!(error = %e, retry_in_ms = wait.as_millis() as u64, "{what} failed; trying again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(MAX_BACKOFF);
                }
            },
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
