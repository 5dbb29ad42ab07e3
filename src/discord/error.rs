//! Why a command or a click did not go through, and what the member is told of it.

use std::time::Duration;

use poise::serenity_prelude as serenity;
use tracing::{error, warn};

use crate::game::{Error, Failure};
use crate::i18n::tr;
use crate::i18n::Lang;
use crate::text::{self, AnyError, Refusal};

use super::measure::{self, Outcome};
use super::views as view;
use super::{private_lang, Data};

/// Why a command or a click did not go through.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A refusal from a service (or of the rules), or a fault inside one.
    #[error(transparent)]
    Game(#[from] AnyError),
    /// Input the Discord layer itself cannot use; the text speaks to the member.
    #[error("{0}")]
    Input(String),
    /// The member is over the rate limit, and may send again after this wait.
    #[error("over the rate limit for {0:?}")]
    SlowDown(Duration),
    /// Boxed: serenity's error is large, and every `Result` here carries this type.
    #[error("discord: {0}")]
    Discord(Box<serenity::Error>),
}

impl<R: Refusal> From<Error<R>> for BotError {
    fn from(e: Error<R>) -> Self {
        BotError::Game(e.into())
    }
}

impl From<Failure> for BotError {
    fn from(f: Failure) -> Self {
        BotError::Game(f.into())
    }
}

impl BotError {
    /// A refusal of the rules' or of the Discord layer's own reading of an option.
    pub(super) fn refused(r: impl Refusal) -> BotError {
        BotError::Game(AnyError::refused(r))
    }
}

impl From<serenity::Error> for BotError {
    fn from(e: serenity::Error) -> Self {
        BotError::Discord(Box::new(e))
    }
}

impl BotError {
    /// What the member is told, in `lang`. Faults on our side are logged, and the member gets
    /// an apology.
    pub(super) fn for_member(&self, lang: Lang) -> String {
        match self {
            BotError::Game(e) if !e.is_internal() => e.localized(lang, &view::Markdown),
            BotError::Input(s) => s.clone(),
            BotError::SlowDown(wait) => text::slow_down(lang, *wait),
            other => {
                error!(error = ?other, "request failed");
                text::apology(lang)
            }
        }
    }
}

pub(super) async fn on_error(err: poise::FrameworkError<'_, Data, BotError>) {
    let (ctx, message) = match err {
        poise::FrameworkError::Command { error, ctx, .. } => {
            measure::finished(ctx, Outcome::of(&error)).await;
            (ctx, error.for_member(private_lang(ctx)))
        }
        // The rate limit's refusal, before the command ran (autocomplete is never refused).
        poise::FrameworkError::CommandCheckFailed {
            error: Some(error),
            ctx,
            ..
        } => {
            measure::finished(ctx, Outcome::of(&error)).await;
            (ctx, error.for_member(private_lang(ctx)))
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            measure::finished(ctx, Outcome::Refused).await;
            // The parser's own words are English and about types: the log keeps them.
            warn!(%error, "could not read a command's option");
            let what =
                input.map_or_else(String::new, |i| format!(" `{}`", crate::rules::shorten(&i)));
            (
                ctx,
                tr!(private_lang(ctx), "discord-unreadable-option", what = what),
            )
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            warn!(%description, "command options do not match; re-register the commands");
            let ctx = poise::Context::Application(ctx);
            measure::finished(ctx, Outcome::Failed).await;
            (ctx, tr!(private_lang(ctx), "discord-command-changed"))
        }
        poise::FrameworkError::CommandPanic { payload, ctx, .. } => {
            let payload = payload.as_deref().unwrap_or("(no message)");
            let command = &ctx.command().qualified_name;
            error!(%command, %payload, "a command panicked");
            measure::finished(ctx, Outcome::Failed).await;
            (ctx, tr!(private_lang(ctx), "error-internal"))
        }
        // The rest of what the framework refuses before a command runs: none of the commands
        // asks for it today, but a member still gets a sentence in their language.
        other => match other.ctx() {
            Some(ctx) => {
                warn!(error = %other, "the framework refused a command");
                measure::finished(ctx, Outcome::Refused).await;
                (ctx, tr!(private_lang(ctx), "discord-command-refused"))
            }
            None => {
                if let Err(e) = poise::builtins::on_error(other).await {
                    error!(error = %e, "while handling an error");
                }
                return;
            }
        },
    };
    let reply = poise::CreateReply::default()
        .content(message)
        .ephemeral(true);
    if let Err(e) = ctx.send(reply).await {
        measure::unanswered();
        warn!(error = %e, "could not send an error reply");
    }
}
