//! `/team-game`: a vote game, this channel against the AI or another channel. Votes come through
//! `/move` and the Move button (see `play` and `taps`).

use poise::serenity_prelude as serenity;

use crate::discord::params::{read_size, sizes, Side};
use crate::discord::reply::{self, Linked};
use crate::discord::views::Markdown;
use crate::discord::{caller, place, public_lang, user_member, BotError, Context};
use crate::engine::{Level, LevelError};
use crate::game::{Against, Member, TeamRequest, TimeControl};
use crate::rules::Color;
use crate::text;

/// How long each of the channel's votes lasts.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Window {
    #[name = "10 minutes"]
    TenMinutes,
    #[name = "1 hour"]
    OneHour,
    #[name = "1 day"]
    OneDay,
}

impl From<Window> for TimeControl {
    fn from(w: Window) -> Self {
        match w {
            Window::TenMinutes => TimeControl::TenMinutes,
            Window::OneHour => TimeControl::OneHour,
            Window::OneDay => TimeControl::OneDay,
        }
    }
}

/// Start a vote game: this channel plays the AI or another channel, its members voting on each move
#[poise::command(slash_command, guild_only, rename = "team-game")]
pub async fn team_game(
    ctx: Context<'_>,
    #[description = "Another channel of this server to play; leave empty to play the AI"]
    #[channel_types("Text")]
    opponent: Option<serenity::PartialChannel>,
    #[description = "Board size, columns x rows (default 8x8)"]
    #[autocomplete = "sizes"]
    size: Option<String>,
    #[description = "The channel's side (default random)"] color: Option<Side>,
    #[description = "The AI's strength: 1 beginner to 5 strong (default 3)"]
    #[min = 1]
    #[max = 5]
    level: Option<i64>,
    #[description = "How long each vote lasts (default 1 hour)"] window: Option<Window>,
) -> Result<(), BotError> {
    let color = match color {
        Some(Side::Black) => Some(Color::Black),
        Some(Side::White) => Some(Color::White),
        Some(Side::Random) | None => None,
    };
    let level = match level {
        Some(n) => u8::try_from(n)
            .ok()
            .and_then(Level::new)
            .ok_or(BotError::refused(LevelError))?,
        None => Level::DEFAULT,
    };
    let here = place(ctx);
    let against = match &opponent {
        Some(channel) => Against::Channel(Member::new(
            channel.id.get(),
            format!(
                "#{}",
                channel
                    .name
                    .clone()
                    .unwrap_or_else(|| channel.id.to_string())
            ),
        )),
        None => {
            let me = ctx.serenity_context().cache.current_user().clone();
            Against::Ai(user_member(&me), level)
        }
    };
    let request = TeamRequest {
        place: here,
        team: Member::new(here.channel.get(), channel_name(ctx)),
        by: caller(ctx).await,
        against,
        size: read_size(size)?,
        color,
        window: window.map_or(TimeControl::OneHour, TimeControl::from),
    };
    let game = ctx.data().games.teams.start(request).await?;
    let started = text::team_game_started(public_lang(ctx), &Markdown, &game);
    // Recorded: the post the window's votes are counted on.
    reply::reply_board_saying(ctx, &game, Linked::Record, Some(started)).await;
    Ok(())
}

/// The channel's name as the game shows it: `#general`.
fn channel_name(ctx: Context<'_>) -> String {
    let name = match ctx {
        poise::Context::Application(app) => app
            .interaction
            .channel
            .as_ref()
            .and_then(|c: &serenity::PartialChannel| c.name.clone()),
        poise::Context::Prefix(_) => None,
    };
    format!("#{}", name.unwrap_or_else(|| ctx.channel_id().to_string()))
}
