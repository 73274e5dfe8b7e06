//! The busy handler of every connection: short jittered sleeps, so that
//! many processes waiting on one file each get a fair chance at the lock.

use crate::Deadline;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The busy handler every connection gets.
///
/// SQLite's built-in handler (`busy_timeout`) sleeps on a fixed, growing
/// schedule (1, 2, 5, 10, … 100 ms). With many processes hammering one file
/// this is unfair: a waiter that just fell asleep for 50 ms misses every
/// release, while the process that held the lock re-takes it immediately,
/// so some agents starve while others run. Short sleeps with random jitter
/// (0.5–2 ms) give every waiter a fair chance at each release, and the total
/// wait is still bounded by `budget` (then the store reports `busy`).
pub(super) fn fair_busy_handler(
    budget: Duration,
    deadline: Deadline,
) -> impl FnMut(i32) -> bool + Send + 'static {
    let mut started = Instant::now();
    let mut rng = Jitter::seeded();
    move |attempt: i32| {
        // SQLite passes 0 on the first call of each new lock wait.
        if attempt == 0 {
            started = Instant::now();
        }
        // Give up at the budget, or earlier when the call's own deadline
        // comes first: `busy` is then a typed error, not a timeout trap.
        if started.elapsed() >= budget || deadline.passed() {
            return false;
        }
        let micros = 500 + rng.next() % 1_500;
        std::thread::sleep(Duration::from_micros(micros));
        true
    }
}

/// A tiny xorshift generator: jitter needs no quality, only to differ
/// between processes, so it is seeded from the pid and the time.
struct Jitter(u64);

impl Jitter {
    fn seeded() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        Jitter((nanos ^ (u64::from(std::process::id()) << 32)) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_handler_gives_up_after_its_budget() {
        let mut handler = fair_busy_handler(Duration::from_millis(20), Deadline::new());
        let start = Instant::now();
        let mut attempt = 0;
        while handler(attempt) {
            attempt += 1;
        }
        let waited = start.elapsed();
        assert!(
            waited >= Duration::from_millis(20) && waited < Duration::from_secs(1),
            "{waited:?}"
        );
        assert!(attempt >= 5, "{attempt} attempts");
    }
}
