//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod db;
pub mod fake_discord;
pub mod naive;
pub mod overdue;
pub mod postgres;
pub mod swept;
