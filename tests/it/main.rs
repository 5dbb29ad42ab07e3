//! The integration tests, one crate with a module per area, so the fake Discord and the other
//! shared helpers are built once and the dependency tree is linked once.
//!
//! `cargo test` runs them all; `cargo test --test it discord::` runs one area.

mod common;

mod cli;
mod console;
mod discord;
mod engine;
mod perft;
mod properties;
mod render;
mod service;
