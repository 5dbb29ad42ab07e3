//! The Discord front end: poise slash commands and buttons over the `game` API. Thin: read the
//! interaction, call `game`, build the message, reply.
//!
//! This file holds what every command reaches ([`Data`], [`Context`]). Beside it, in four
//! layers that each import only the ones below: `commands` (the handlers of commands and
//! clicks), `reply` (the replies they share: a board after a change, after a click, after the
//! AI's answer, handed to the outbox when Discord fails), `views` (how every message looks) and
//! `params` (the options commands share, with their autocompletes). Around them: `framework`
//! (the poise setup, the clicks, and [`run`]), `button` (the buttons' ids), `error` (what a
//! member is told when something fails), `ids` (Discord's ids as the game knows them), `lang`
//! (the language of each answer), `locales` (the commands' names in each language), `rate`
//! (the members' rate limit), `window` (a write that outlasts the interaction's three seconds),
//! `outbox` and `tasks` (what is posted in the background: announcements, the sweeper, the
//! AI's answers), `startup`, `reach`, `retry` and `refusals` (connecting to Discord, and what
//! its refusals mean), and `serve` (the bot as a process: its claim on the database, the
//! services, and this front end until it stops).

mod button;
mod commands;
mod error;
mod framework;
mod health;
mod ids;
mod lang;
pub mod locales;
mod measure;
mod outbox;
mod params;
mod rate;
mod reach;
mod refusals;
mod reply;
mod retry;
mod serve;
mod startup;
mod tasks;
mod views;
mod window;

use crate::game::Services;

pub use error::BotError;
#[cfg(test)]
pub(crate) use framework::localized_commands;
pub use framework::{commands, run};
use ids::{caller, click_place, guild_id, member_id, place, reach, user_member};
use lang::{click_lang, click_public_lang, private_lang, public_lang};
pub use refusals::Refusals;
pub use serve::serve;

/// What every command can reach: the game service, and nothing else (no game state in memory);
/// and the members' rate limit.
pub struct Data {
    pub games: Services,
    pub rate: rate::RateLimit,
}

pub type Context<'a> = poise::Context<'a, Data, BotError>;
