//! Breakthrough on Discord: the rules, the boards, the game service on SQLite or PostgreSQL, and
//! its front ends.
//!
//! The library's API is the game and what it stands on: [`rules`] and [`engine`] (pure), the
//! values of [`domain`], the [`store`], the [`game`] service, its words ([`i18n`], [`render`]).
//! The front ends, the benchmarks and the AI's matches are private; the binary in `main.rs`, a
//! thin command line, reaches them through the few items re-exported below.

mod bench;
mod config;
mod console;
mod discord;
mod selfplay;

pub mod domain;
pub mod engine;
pub mod game;
pub mod i18n;
pub mod render;
pub mod rules;
pub mod store;

pub use bench::{analysis as bench_analysis, compare as bench_compare, table as bench_table};
pub use config::{forget_empty_settings, BotConfig, DatabaseConfig, MISSING_TOKEN};
pub use console::{Console, ConsoleClock};
pub use discord::{commands as discord_commands, gateway_refusals, locales, run as serve_discord};
pub use selfplay::{play_match, row as selfplay_row, Player, HEADER as SELFPLAY_HEADER};
