//! Breakthrough on Discord: the rules, the boards, the game service on SQLite or PostgreSQL, and
//! its front ends.
//!
//! The library's API is the game and what it stands on: [`rules`], [`engine`] and [`pairing`]
//! (pure), the values of [`domain`], the [`store`], the [`game`] service, and what is shown of it
//! ([`text`], [`i18n`], [`render`]).
//! The front ends, the benchmarks and the AI's matches are private. The binary in `main.rs` only
//! parses its command line and calls, for each subcommand, what runs it: [`serve`] (the bot),
//! [`console`], [`tools`] (`moves`, `bestmove`, `prove`, `puzzles`), the benchmarks and the
//! AI's matches, each job on [`run_async`]'s runtime and logs.

mod bench;
mod config;
mod console;
mod discord;
mod runtime;
mod selfplay;
mod telemetry;
pub mod tools;

// The game's API: public to the tests (the `test-support` feature they turn on), private in a
// release build, where the binary reaches it through the re-exports below and the compiler
// finds what nothing uses.
#[cfg(feature = "test-support")]
pub mod domain;
#[cfg(not(feature = "test-support"))]
mod domain;
#[cfg(feature = "test-support")]
pub mod game;
#[cfg(not(feature = "test-support"))]
mod game;
#[cfg(feature = "test-support")]
pub mod i18n;
#[cfg(not(feature = "test-support"))]
mod i18n;
#[cfg(feature = "test-support")]
pub mod render;
#[cfg(not(feature = "test-support"))]
mod render;
#[cfg(feature = "test-support")]
pub mod store;
#[cfg(not(feature = "test-support"))]
mod store;
#[cfg(feature = "test-support")]
pub mod text;
#[cfg(not(feature = "test-support"))]
mod text;

pub mod engine;
pub mod pairing;
pub mod rules;

pub use bench::{
    analysis as bench_analysis, compare as bench_compare, table as bench_table,
    windows as bench_windows,
};
pub use config::{forget_empty_settings, BotConfig, DatabaseConfig, MISSING_TOKEN};
pub use console::run as console;
pub use discord::{commands as discord_commands, locales, serve, Refusals as GatewayRefusals};
pub use game::LOCAL_SERVER;
pub use i18n::Lang;
pub use runtime::run_async;
pub use selfplay::run as selfplay;
