//! Breakthrough on Discord: the rules, the boards, the game service on SQLite or PostgreSQL, and
//! its front ends.
//! The binary in `main.rs` is a thin command line over this library.

pub mod bench;
pub mod config;
pub mod console;
pub mod discord;
pub mod domain;
pub mod engine;
pub mod game;
pub mod i18n;
pub mod render;
pub mod rules;
pub mod selfplay;
pub mod store;
