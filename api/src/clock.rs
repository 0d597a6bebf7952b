//! Time and randomness come from here, so tests can move time forward instead of sleeping.

use rand::RngCore;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// Seconds since the Unix epoch.
pub trait Clock: Send + Sync {
    fn now(&self) -> i64;
}

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        chrono::Utc::now().timestamp()
    }
}

/// A clock that only moves when told to.
#[derive(Clone)]
pub struct ManualClock(Arc<AtomicI64>);

impl ManualClock {
    pub fn new(start: i64) -> Self {
        Self(Arc::new(AtomicI64::new(start)))
    }

    pub fn advance(&self, seconds: i64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Where secrets (codes, tokens, session ids) get their bytes.
pub trait Entropy: Send + Sync {
    fn fill(&self, buf: &mut [u8]);
}

pub struct OsEntropy;

impl Entropy for OsEntropy {
    fn fill(&self, buf: &mut [u8]) {
        rand::rngs::OsRng.fill_bytes(buf);
    }
}
