//! `/settings` (a member's own choices) and `/server-settings` (a server's), each showing the
//! choices without options and saving them with.

use crate::discord::views::Audience;
use crate::discord::views::Markdown;
use crate::discord::{place, private_lang, views, BotError, Context};
use crate::game::{BoardStyle, MemberSettingsChange, ServerSettingsChange};
use crate::text;

/// How boards are shown.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Board {
    #[name = "emoji"]
    Emoji,
    #[name = "image"]
    Image,
}

impl From<Board> for BoardStyle {
    fn from(b: Board) -> Self {
        match b {
            Board::Emoji => BoardStyle::Emoji,
            Board::Image => BoardStyle::Image,
        }
    }
}

/// A setting turned on or off.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum OnOff {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

impl From<OnOff> for bool {
    fn from(o: OnOff) -> Self {
        matches!(o, OnOff::On)
    }
}

/// Your own settings, for what only you see (without options, shows them).
#[poise::command(slash_command)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Boards in your private replies and direct messages (default emoji)"]
    board: Option<Board>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let me = crate::discord::member_id(ctx.author().id);
    let lang = private_lang(ctx);
    let change = MemberSettingsChange {
        board: board.map(BoardStyle::from),
    };
    let now = games.settings.set_member_settings(me, change).await?;
    let shown = text::member_settings(lang, &now);
    let said = text::settings_answer(lang, shown, !change.is_empty());
    ctx.send(views::View::text(said).reply(Audience::Caller))
        .await?;
    Ok(())
}

// Discord lets only members who may manage the server use it, unless the server gives it to
// others in its Integrations settings: the bot checks nothing more.
/// This server's settings: boards in public posts, a thread per game (without options, shows them)
#[poise::command(
    slash_command,
    rename = "server-settings",
    guild_only,
    default_member_permissions = "MANAGE_GUILD"
)]
pub async fn server_settings(
    ctx: Context<'_>,
    #[description = "Boards in the posts everyone here sees (default emoji)"] board: Option<Board>,
    #[description = "A public thread for each game started in a channel (default off)"]
    threads: Option<OnOff>,
) -> Result<(), BotError> {
    let games = &ctx.data().games;
    let lang = private_lang(ctx);
    let change = ServerSettingsChange {
        board: board.map(BoardStyle::from),
        threads: threads.map(bool::from),
    };
    let guild = place(ctx).guild;
    let now = games.settings.set_server_settings(guild, change).await?;
    let trouble = games.threads.thread_trouble(guild).await?;
    let shown = text::server_settings(lang, &Markdown, &now, trouble.as_ref());
    let said = text::settings_answer(lang, shown, !change.is_empty());
    ctx.send(views::View::text(said).reply(Audience::Caller))
        .await?;
    Ok(())
}
