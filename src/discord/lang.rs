//! The language of each answer: the member's own for what only they see, the server's for what
//! the channel sees.

use poise::serenity_prelude as serenity;
use tracing::warn;

use crate::i18n::Lang;

use super::{place, Context};

/// The language of a reply only the caller sees: their own Discord language.
pub(super) fn private_lang(ctx: Context<'_>) -> Lang {
    ctx.locale().map_or(Lang::En, Lang::from_locale)
}

/// The language of a message the channel sees: the server's, or in a direct message the
/// member's own.
pub(super) fn public_lang(ctx: Context<'_>) -> Lang {
    match ctx {
        poise::Context::Application(app) => shared_lang(
            app.interaction.guild_locale.as_deref(),
            &app.interaction.locale,
        ),
        poise::Context::Prefix(_) => Lang::En,
    }
}

/// The server's language when there is a server, else the member's.
fn shared_lang(guild_locale: Option<&str>, member_locale: &str) -> Lang {
    Lang::from_locale(guild_locale.unwrap_or(member_locale))
}

/// The language of a button's ephemeral answer: the clicker's.
pub(super) fn click_lang(click: &serenity::ComponentInteraction) -> Lang {
    Lang::from_locale(&click.locale)
}

/// The language of a button's public message: the server's, or in a DM the clicker's.
pub(super) fn click_public_lang(click: &serenity::ComponentInteraction) -> Lang {
    shared_lang(click.guild_locale.as_deref(), &click.locale)
}

/// Records the language of the channel a command came from, for the posts there that answer no
/// command. A failure costs only that: it is logged, and the command goes on.
pub(super) async fn remember_language(ctx: Context<'_>) {
    let (place, lang) = (place(ctx), public_lang(ctx));
    if let Err(e) = ctx.data().games.settings.spoken_in(place, lang).await {
        warn!(error = ?e, "could not record a channel's language");
    }
}
