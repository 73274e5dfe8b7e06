//! The wall-clock deadline of the call in progress, shared with SQLite's
//! busy and progress handlers and turned into a PostgreSQL server's
//! statement and lock timeouts. The epoch deadline only interrupts
//! WebAssembly code; this one bounds what the host does for the component
//! (waiting for another process's lock, running a long statement), so a
//! call can neither hang nor hold the write lock past its time limit.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// No call in progress: nothing is ever past this.
const NONE: u64 = u64::MAX;

/// A cheap, shareable handle on "the current call must stop at …".
#[derive(Clone, Debug)]
pub struct Deadline(Arc<AtomicU64>);

impl Default for Deadline {
    fn default() -> Self {
        Deadline::new()
    }
}

/// Nanoseconds since a process-wide origin, so a deadline fits an atomic.
fn nanos_since_origin(t: Instant) -> u64 {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    let origin = *ORIGIN.get_or_init(Instant::now);
    t.saturating_duration_since(origin)
        .as_nanos()
        .min(u128::from(NONE - 1)) as u64
}

impl Deadline {
    /// A deadline with no call in progress.
    pub fn new() -> Self {
        Deadline(Arc::new(AtomicU64::new(NONE)))
    }

    /// The current call must stop `budget` from now.
    pub fn start(&self, budget: Duration) {
        let at = Instant::now()
            .checked_add(budget)
            .map_or(NONE - 1, nanos_since_origin);
        self.0.store(at, Ordering::Relaxed);
    }

    /// The call is over.
    pub fn clear(&self) {
        self.0.store(NONE, Ordering::Relaxed);
    }

    /// Whether the current call is past its deadline.
    pub fn passed(&self) -> bool {
        let at = self.0.load(Ordering::Relaxed);
        at != NONE && nanos_since_origin(Instant::now()) >= at
    }

    /// How long the current call has left (zero once past its deadline);
    /// `None` while no call is in progress. A server store hands this to
    /// the server as its statement and lock timeouts, which it enforces
    /// itself.
    pub fn remaining(&self) -> Option<Duration> {
        let at = self.0.load(Ordering::Relaxed);
        (at != NONE)
            .then(|| Duration::from_nanos(at.saturating_sub(nanos_since_origin(Instant::now()))))
    }
}

/// How much of the call's time limit the host may spend in SQL. A little
/// is kept back so that the component, told `busy` or `interrupted`, can
/// still roll back and answer with a typed `storage` error before the
/// epoch deadline traps it.
pub fn sql_budget(call_timeout: Duration) -> Duration {
    call_timeout.mul_f64(0.8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_only_while_a_call_runs() {
        let d = Deadline::new();
        assert!(!d.passed());
        d.start(Duration::ZERO);
        assert!(d.passed());
        d.start(Duration::from_secs(60));
        assert!(!d.passed());
        d.clear();
        assert!(!d.passed());
    }

    #[test]
    fn tells_what_is_left_of_the_call() {
        let d = Deadline::new();
        assert_eq!(d.remaining(), None);
        d.start(Duration::from_secs(60));
        let left = d.remaining().unwrap();
        assert!(left > Duration::from_secs(59) && left <= Duration::from_secs(60));
        d.start(Duration::ZERO);
        assert_eq!(d.remaining(), Some(Duration::ZERO));
        d.clear();
        assert_eq!(d.remaining(), None);
    }
}
