//! A clock for the tests: it moves only when told. Built only with the `test-support` feature,
//! which the tests turn on, so it never reaches a release build.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use super::{Clock, Timestamp};

/// A clock that moves only when told.
#[derive(Debug)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(now: Timestamp) -> ManualClock {
        ManualClock(AtomicI64::new(now.unix_millis()))
    }

    pub fn advance(&self, by: Duration) {
        let moved = |ms| Some((Timestamp::from_unix_millis(ms) + by).unix_millis());
        let _always = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, moved);
    }

    pub fn set(&self, now: Timestamp) {
        self.0.store(now.unix_millis(), Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_unix_millis(self.0.load(Ordering::SeqCst))
    }
}
