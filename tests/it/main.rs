//! The integration tests, one crate with a module per area, so the fake Discord and the other
//! shared helpers are built once and the dependency tree is linked once.
//!
//! `cargo test` runs them all; `cargo test --test it discord::` runs one area.

// A panic in a test (or its helpers) is a failed test, not a member's error.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod backup;
mod challenge_state;
mod cli;
mod cli_prove;
mod console;
mod discord;
mod engine;
mod i18n;
mod lost_replies;
mod names;
mod perft;
mod pictures;
mod postgres;
mod properties;
mod prover;
mod puzzle_pool;
mod render;
mod scaling;
mod schema;
mod service;
mod tournament;
mod wrong_channel;
