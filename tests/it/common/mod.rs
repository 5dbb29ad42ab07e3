//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod db;
pub mod fake_discord;
pub mod naive;
pub mod overdue;
pub mod postgres;
pub mod refusals;
pub mod seeded;
pub mod swept;

use std::time::Duration;

/// `n` seconds: how far the tests move their clocks, and how far apart their moments are.
pub const fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}
