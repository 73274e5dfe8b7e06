//! How many live-event streams (`/events`) may be open: per session, per
//! token and in all. A stream holds its connection for as long as the page
//! is open, so without a bound one holder's tabs (or a script with its
//! token) could fill the connection table and keep everyone else out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Streams one session may hold (a browser's tabs on the board).
pub const PER_SESSION: usize = 8;
/// Streams one token may hold, over all its sessions and bearers.
pub const PER_TOKEN: usize = 32;

/// The open streams.
pub struct Streams {
    /// Streams open at most in all.
    total: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    total: usize,
    by_key: HashMap<String, usize>,
}

/// One open stream, counted until dropped.
pub struct Stream {
    streams: Arc<Streams>,
    keys: Vec<String>,
}

impl Streams {
    /// At most `total` streams in all.
    pub fn new(total: usize) -> Arc<Streams> {
        Arc::new(Streams {
            total: total.max(1),
            state: Mutex::new(State::default()),
        })
    }

    /// A place for one more stream of the session `session` (if by a
    /// session) opened with the token `token` (its digest), if neither
    /// they nor the server hold as many as they may.
    pub fn open(self: &Arc<Self>, session: Option<&str>, token: &str) -> Option<Stream> {
        let mut keys = vec![format!("token:{token}")];
        if let Some(session) = session {
            keys.push(format!("session:{session}"));
        }
        let mut state = self.lock();
        let over = |key: &String| {
            let limit = if key.starts_with("session:") {
                PER_SESSION
            } else {
                PER_TOKEN
            };
            state.by_key.get(key).copied().unwrap_or(0) >= limit
        };
        if state.total >= self.total || keys.iter().any(over) {
            return None;
        }
        state.total += 1;
        for key in &keys {
            *state.by_key.entry(key.clone()).or_default() += 1;
        }
        drop(state);
        Some(Stream {
            streams: self.clone(),
            keys,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while counting leaves plain numbers: still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut state = self.streams.lock();
        state.total -= 1;
        for key in &self.keys {
            if let Some(count) = state.by_key.get_mut(key) {
                *count -= 1;
                if *count == 0 {
                    state.by_key.remove(key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_bounded_per_session_per_token_and_in_all() {
        let streams = Streams::new(PER_TOKEN + 4);
        let mine: Vec<_> = (0..PER_SESSION)
            .map(|_| streams.open(Some("s1"), "t1").unwrap())
            .collect();
        assert!(
            streams.open(Some("s1"), "t1").is_none(),
            "the session is full"
        );
        let other: Vec<_> = (PER_SESSION..PER_TOKEN)
            .map(|i| streams.open(Some(&format!("s{i}")), "t1").unwrap())
            .collect();
        assert!(streams.open(None, "t1").is_none(), "the token is full");
        let theirs: Vec<_> = (0..4).map(|_| streams.open(None, "t2").unwrap()).collect();
        assert!(streams.open(None, "t3").is_none(), "the server is full");
        drop((mine, other, theirs));
        assert_eq!(streams.lock().total, 0);
        assert!(streams.lock().by_key.is_empty());
        assert!(streams.open(Some("s1"), "t1").is_some());
    }
}
