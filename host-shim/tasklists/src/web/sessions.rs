//! The board's sign-in sessions. Opening the link `serve` printed (or
//! `?token=` with one's own token) starts a session: a fresh random
//! secret, kept by the browser as a cookie, that opens the board and
//! nothing else (it is no token: `/mcp` refuses it). The token itself
//! never becomes a cookie, so another service on the same host, which a
//! browser sends this host's cookies to whatever the port, receives
//! nothing it could call the tools with.
//!
//! A session ends when it has been idle for [`IDLE`], at most [`MAX_AGE`]
//! after sign-in, when `serve` stops (sessions live in its memory only),
//! and for a token the store holds, as soon as that token is revoked (the
//! server asks the store on each request).

use super::access::{Identity, TokenError, digest_hex, new_token};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A session unused this long is over.
pub const IDLE: Duration = Duration::from_secs(12 * 60 * 60);
/// A session is over this long after sign-in, used or not.
pub const MAX_AGE: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// Sessions kept at most; signing in beyond it ends the oldest.
const MAX_SESSIONS: usize = 4096;

/// The token a session was opened with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opened {
    /// One of the server's own (printed, or from `--token-file`), by its
    /// digest: valid for as long as the server runs.
    Own(String),
    /// One the store holds, by its digest: asked again on each request.
    Stored(String),
}

/// A live sign-in on the board: a browser's session (named apart from
/// the store's `tasklists_store::Session`, a connection's transaction
/// state).
#[derive(Clone, Debug)]
pub struct SignIn {
    /// Who it signs in as.
    pub identity: Identity,
    /// The token it was opened with.
    pub opened: Opened,
    /// The digest of its own secret (its key, and its event streams' count).
    pub key: String,
}

struct Kept {
    session: SignIn,
    started: Instant,
    used: Instant,
}

/// The sessions of one server.
#[derive(Default)]
pub struct Sessions {
    by_digest: Mutex<HashMap<String, Kept>>,
}

impl Sessions {
    /// Starts a session for `identity` opened with `opened`; returns the
    /// secret the browser keeps.
    pub fn start(&self, identity: Identity, opened: Opened) -> Result<String, TokenError> {
        let secret = new_token()?;
        let key = digest_hex(&secret);
        let now = Instant::now();
        let mut all = self.lock();
        all.retain(|_, kept| live(kept, now));
        if all.len() >= MAX_SESSIONS
            && let Some(oldest) = all
                .iter()
                .min_by_key(|(_, kept)| kept.started)
                .map(|(key, _)| key.clone())
        {
            all.remove(&oldest);
        }
        all.insert(
            key.clone(),
            Kept {
                session: SignIn {
                    identity,
                    opened,
                    key,
                },
                started: now,
                used: now,
            },
        );
        Ok(secret)
    }

    /// The live session of `secret` (its idle time starts again), if any.
    pub fn find(&self, secret: &str) -> Option<SignIn> {
        let key = digest_hex(secret);
        let now = Instant::now();
        let mut all = self.lock();
        let kept = all.get_mut(&key)?;
        if !live(kept, now) {
            all.remove(&key);
            return None;
        }
        kept.used = now;
        Some(kept.session.clone())
    }

    /// Ends the session whose key is `key` (a revoked token's).
    pub fn end(&self, key: &str) {
        self.lock().remove(key);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Kept>> {
        // A panic while counting leaves a usable map.
        self.by_digest.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Whether `kept` is neither idle too long nor too old at `now`.
fn live(kept: &Kept, now: Instant) -> bool {
    now.duration_since(kept.used) < IDLE && now.duration_since(kept.started) < MAX_AGE
}

#[cfg(test)]
mod tests {
    use super::*;
    use tasklists_host::CallContext;

    fn ann() -> Identity {
        Identity {
            name: "ann".into(),
            ctx: CallContext::default(),
            board: true,
        }
    }

    #[test]
    fn a_session_is_found_by_its_secret_only_and_ends() {
        let sessions = Sessions::default();
        let secret = sessions.start(ann(), Opened::Own(String::new())).unwrap();
        assert_eq!(secret.len(), 64);
        let found = sessions.find(&secret).unwrap();
        assert_eq!(found.identity.name, "ann");
        assert_eq!(found.key, digest_hex(&secret));
        assert!(sessions.find(&secret[..63]).is_none());
        let other = sessions.start(ann(), Opened::Own(String::new())).unwrap();
        assert_ne!(secret, other, "each sign-in gets its own secret");
        sessions.end(&found.key);
        assert!(sessions.find(&secret).is_none());
        assert!(sessions.find(&other).is_some());
    }

    #[test]
    fn an_idle_or_old_session_is_over() {
        let now = Instant::now();
        let kept = |started: Duration, used: Duration| Kept {
            session: SignIn {
                identity: ann(),
                opened: Opened::Own(String::new()),
                key: String::new(),
            },
            started: now - started,
            used: now - used,
        };
        let hour = Duration::from_secs(3600);
        assert!(live(&kept(hour, hour), now));
        assert!(!live(&kept(IDLE + hour, IDLE + hour), now));
        assert!(!live(&kept(MAX_AGE + hour, Duration::ZERO), now));
    }
}
