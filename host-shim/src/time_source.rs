//! The component's only source of time. Production uses the system clock;
//! tests hold a [`ManualClock`] and step it, so lease expiry is tested
//! without sleeping.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A source of "now", in milliseconds since the Unix epoch (UTC).
pub trait Clock: Send + Sync {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

/// The machine's wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(since) => i64::try_from(since.as_millis()).unwrap_or(i64::MAX),
            // A clock set before 1970 is broken; report it as negative time
            // rather than panicking inside a tool call.
            Err(before) => -i64::try_from(before.duration().as_millis()).unwrap_or(i64::MAX),
        }
    }
}

/// A clock that only moves when told to. Clones share the same time, so a
/// test keeps one handle and gives another to the host.
#[derive(Clone, Default)]
pub struct ManualClock {
    now_ms: Arc<AtomicI64>,
}

impl ManualClock {
    /// A clock stopped at `now_ms`.
    pub fn new(now_ms: i64) -> Self {
        ManualClock {
            now_ms: Arc::new(AtomicI64::new(now_ms)),
        }
    }

    /// Sets the time.
    pub fn set_ms(&self, now_ms: i64) {
        self.now_ms.store(now_ms, Ordering::SeqCst);
    }

    /// Moves the time forward (or back, with a negative delta); returns the new time.
    pub fn advance_ms(&self, delta_ms: i64) -> i64 {
        self.now_ms.fetch_add(delta_ms, Ordering::SeqCst) + delta_ms
    }

    /// Moves the time forward by `by`; returns the new time.
    pub fn advance(&self, by: Duration) -> i64 {
        self.advance_ms(i64::try_from(by.as_millis()).unwrap_or(i64::MAX))
    }

    /// This clock as the `Arc<dyn Clock>` a [`crate::HostConfig`] takes.
    pub fn shared(&self) -> Arc<dyn Clock> {
        Arc::new(self.clone())
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now_ms.load(Ordering::SeqCst)
    }
}

impl fmt::Debug for ManualClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ManualClock({} ms)", self.now_ms())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_clones_share_time() {
        let clock = ManualClock::new(1_000);
        let handle = clock.clone();
        let shared = clock.shared();
        assert_eq!(handle.advance_ms(500), 1_500);
        assert_eq!(shared.now_ms(), 1_500);
        handle.advance(Duration::from_secs(2));
        assert_eq!(clock.now_ms(), 3_500);
        clock.set_ms(42);
        assert_eq!(shared.now_ms(), 42);
    }

    #[test]
    fn system_clock_is_after_2020() {
        assert!(SystemClock.now_ms() > 1_577_836_800_000);
    }
}
