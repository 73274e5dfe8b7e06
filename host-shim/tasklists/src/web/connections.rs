//! The open connections and who may lose theirs when the table is full.
//!
//! A flood of connections that send nothing (or nothing but a refused
//! request) must not keep a token holder out, so a connection that arrives
//! at the cap takes the place of the most expendable one that is idle (no
//! request in progress): one that never sent a request first, then one
//! that never authenticated, then an authenticated one; the oldest first
//! within each. A connection with a request in progress (a call, an event
//! stream) is never closed for another: when every connection is busy,
//! the newcomer is closed at once.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::{Body, Bytes};
use futures_util::future::AbortHandle;
use http_body::{Frame, SizeHint};

/// One connection's state, shared by its task and the requests it carries
/// (each request finds it in its extensions).
#[derive(Debug, Default)]
pub struct Conn {
    /// Requests (and their answers' bodies) in progress.
    busy: AtomicUsize,
    /// It has sent at least one complete request.
    served: AtomicBool,
    /// One of its requests carried a valid token or session.
    trusted: AtomicBool,
}

impl Conn {
    /// Marks the connection as one a token holder uses: the last to be
    /// closed for a newcomer.
    pub fn trust(&self) {
        self.trusted.store(true, Ordering::Relaxed);
    }

    /// Counts a request as in progress until the guard (and the answer's
    /// body that holds it) is dropped.
    pub fn begin(self: &Arc<Self>) -> Busy {
        self.served.store(true, Ordering::Relaxed);
        self.busy.fetch_add(1, Ordering::AcqRel);
        Busy(self.clone())
    }

    /// How expendable it is when idle: lower goes first. `None` while a
    /// request is in progress (never closed for another).
    fn rank(&self) -> Option<u8> {
        if self.busy.load(Ordering::Acquire) > 0 {
            return None;
        }
        Some(
            match (
                self.served.load(Ordering::Relaxed),
                self.trusted.load(Ordering::Relaxed),
            ) {
                (false, _) => 0,
                (true, false) => 1,
                (true, true) => 2,
            },
        )
    }
}

/// A request in progress on its connection.
#[derive(Debug)]
pub struct Busy(Arc<Conn>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// An answer's body that keeps its request counted as in progress until
/// it has been sent (or the client left): an event stream stays busy.
pub struct Tracked {
    body: Body,
    _busy: Busy,
}

impl Tracked {
    /// `body`, counted by `busy` until dropped.
    pub fn new(body: Body, busy: Busy) -> Tracked {
        Tracked { body, _busy: busy }
    }
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The table of open connections.
pub struct Connections {
    cap: usize,
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    next: u64,
    open: HashMap<u64, Entry>,
}

struct Entry {
    conn: Arc<Conn>,
    abort: AbortHandle,
    opened: Instant,
}

/// A connection admitted: removed from the table when dropped (its task
/// ended, or was aborted).
pub struct Admitted {
    id: u64,
    connections: Arc<Connections>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.connections.lock().open.remove(&self.id);
    }
}

impl Connections {
    /// A table of at most `cap` connections.
    pub fn new(cap: usize) -> Arc<Connections> {
        Arc::new(Connections {
            cap: cap.max(1),
            table: Mutex::new(Table::default()),
        })
    }

    /// Takes a new connection whose task `abort` stops: in a free place,
    /// or in that of the most expendable idle one, which is closed. `None`:
    /// every connection is busy, the newcomer is to be closed.
    pub fn admit(self: &Arc<Self>, conn: Arc<Conn>, abort: AbortHandle) -> Option<Admitted> {
        let mut table = self.lock();
        if table.open.len() >= self.cap {
            let victim = table
                .open
                .iter()
                .filter_map(|(id, e)| e.conn.rank().map(|rank| (rank, e.opened, *id)))
                .min()
                .map(|(_, _, id)| id)?;
            if let Some(entry) = table.open.remove(&victim) {
                entry.abort.abort();
            }
        }
        let id = table.next;
        table.next += 1;
        table.open.insert(
            id,
            Entry {
                conn,
                abort,
                opened: Instant::now(),
            },
        );
        Some(Admitted {
            id,
            connections: self.clone(),
        })
    }

    /// Whether the table is at least three quarters full: a connection
    /// taken on now gets less time to send its request.
    pub fn crowded(&self) -> bool {
        self.lock().open.len() * 4 >= self.cap * 3
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        // A panic while counting leaves a usable table.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::future::AbortHandle;

    fn conn() -> (
        Arc<Conn>,
        AbortHandle,
        futures_util::future::AbortRegistration,
    ) {
        let (abort, registration) = AbortHandle::new_pair();
        (Arc::new(Conn::default()), abort, registration)
    }

    #[test]
    fn a_newcomer_at_the_cap_closes_the_most_expendable_idle_connection() {
        let table = Connections::new(3);
        let (trusted, a1, _r1) = conn();
        let (silent, a2, _r2) = conn();
        let (busy, a3, _r3) = conn();
        let _k1 = table.admit(trusted.clone(), a1.clone()).unwrap();
        drop(trusted.begin());
        trusted.trust();
        let _k2 = table.admit(silent, a2.clone()).unwrap();
        let _k3 = table.admit(busy.clone(), a3.clone()).unwrap();
        let held = busy.begin();
        // Full: the one that never sent a request goes, not the token
        // holder's, never the busy one.
        let (c4, a4, _r4) = conn();
        let k4 = table.admit(c4, a4.clone()).unwrap();
        assert!(a2.is_aborted() && !a1.is_aborted() && !a3.is_aborted());
        drop(k4);
        // Then an idle token holder's before a busy one's.
        let (c5, a5, _r5) = conn();
        let _k5 = table.admit(c5.clone(), a5).unwrap();
        let _busy5 = c5.begin();
        let (c6, a6, _r6) = conn();
        let _k6 = table.admit(c6, a6).unwrap();
        assert!(a1.is_aborted() && !a3.is_aborted());
        // Everyone busy: the newcomer is turned away.
        let _busy6 = _k6.connections.lock().open[&_k6.id].conn.begin();
        let (c7, a7, _r7) = conn();
        assert!(table.admit(c7, a7).is_none());
        drop(held);
        assert_eq!(table.lock().open.len(), 3);
    }
}
