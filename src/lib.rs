//! Breakthrough on Discord: the rules, the boards, and (in later layers) the game service and its
//! front ends. The binary in `main.rs` is a thin command line over this library.

pub mod render;
pub mod rules;
