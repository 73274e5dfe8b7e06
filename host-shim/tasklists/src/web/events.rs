//! Live updates: one thread reads the store's change check (SQLite's
//! `PRAGMA data_version`, PostgreSQL's last event number: `Location::watch`)
//! a few times a second while at least one page listens, and every page's
//! Server-Sent Events stream says `change` when the number moved. No page
//! open: no read at all. Nothing changed: nothing sent but a keep-alive
//! comment now and then (which also tells a page its connection is alive).
//!
//! Each `change` carries the count as its event id. A page is read at a
//! count (the component writes it in the page) and opens its stream with
//! it (`?since=N`; a browser reconnecting sends the last id it got as
//! `Last-Event-ID` instead): a stream whose page is behind says `change`
//! at once, else nothing until the next change, so a page just loaded is
//! not read a second time when its stream opens. The count starts at the
//! server's start time in milliseconds, so a page read by an earlier run
//! of the server is always behind.

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use std::convert::Infallible;
use std::time::Duration;
use tasklists_host::{Location, Watch};
use tokio::sync::watch;

/// How often the change check runs while a page listens.
const POLL: Duration = Duration::from_millis(200);
/// How long one check may wait on the store (a PostgreSQL server that
/// does not answer).
const CHECK_LIMIT: Duration = Duration::from_secs(2);
/// A comment on an idle stream this often, so proxies keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(25);
/// How long a browser waits before it reconnects a dropped stream.
const RETRY: Duration = Duration::from_secs(1);

/// The change count every stream follows, and the server's stop signal.
#[derive(Clone)]
pub struct Changes {
    count: watch::Receiver<u64>,
    stop: watch::Receiver<bool>,
}

impl Changes {
    /// Starts the change check on `location`; `stop` ends every stream
    /// (a stream never ends by itself, which would hold a graceful
    /// shutdown open for ever).
    pub fn start(location: &Location, stop: watch::Receiver<bool>) -> std::io::Result<Changes> {
        let start = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_millis() as u64);
        let (tx, count) = watch::channel(start);
        let mut check = location.watch();
        check.set_limit(CHECK_LIMIT);
        std::thread::Builder::new()
            .name("tasklists-changes".into())
            .spawn(move || poll(check.as_mut(), &tx))?;
        Ok(Changes { count, stop })
    }

    /// The count of changes told so far (a page read now names it).
    pub fn count(&self) -> u64 {
        *self.count.borrow()
    }

    /// A page's event stream: `change` (with the count, also its id) each
    /// time the store moved; first a `retry` hint so that a dropped stream
    /// is reconnected within a second. `since` is the count the page was
    /// read at (or the last it was told): when the count has moved since,
    /// the first `change` comes at once; without it (a page that names
    /// none) the page reads itself as the stream opens, as it always did.
    /// `held` is the stream's place among those open, given back when the
    /// stream ends (the page closed, the server stops).
    pub fn stream(
        &self,
        held: super::streams::Stream,
        since: Option<u64>,
    ) -> Sse<impl Stream<Item = Result<Event, Infallible>> + use<>> {
        let first = Event::default().retry(RETRY).comment("tasklists");
        let mut count = self.count.clone();
        // Only changes the page has not seen are its news.
        if since.is_some_and(|seen| seen != *count.borrow()) {
            count.mark_changed();
        } else {
            count.mark_unchanged();
        }
        let state = (count, self.stop.clone(), Some(first), held);
        let stream =
            futures_util::stream::unfold(state, |(mut count, mut stop, first, held)| async move {
                if let Some(first) = first {
                    return Some((Ok(first), (count, stop, None, held)));
                }
                if *stop.borrow() {
                    return None;
                }
                tokio::select! {
                    changed = count.changed() => {
                        changed.ok()?;
                        let n = *count.borrow_and_update();
                        let event = Event::default()
                            .event("change")
                            .id(n.to_string())
                            .data(n.to_string());
                        Some((Ok(event), (count, stop, None, held)))
                    }
                    _ = stop.changed() => None,
                }
            });
        Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
    }
}

/// The check's loop: reads the version only while a page listens, and
/// bumps the count when it moved (an error counts as a move: the pages
/// read themselves again and show what the component says of the store).
/// The version last read is kept while no page listens, and read once at
/// the start: a page compares against a version older than itself, so a
/// commit made just after it loaded, before the check's next read, is
/// still told (at worst a change made while nobody listened is told once
/// more, which costs one refresh).
fn poll(check: &mut dyn Watch, tx: &watch::Sender<u64>) {
    let mut seen = check.version().map_err(|_| ());
    loop {
        std::thread::sleep(POLL);
        if tx.is_closed() {
            return;
        }
        // Only the server's own receiver: no page is listening.
        if tx.receiver_count() <= 1 {
            continue;
        }
        let now = check.version().map_err(|_| ());
        if now != seen {
            tx.send_modify(|n| *n += 1);
        }
        seen = now;
    }
}
