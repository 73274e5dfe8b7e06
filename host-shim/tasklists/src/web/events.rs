//! Live updates: one thread reads the store's change check (SQLite's
//! `PRAGMA data_version`, PostgreSQL's last event number: `Location::watch`)
//! a few times a second while at least one page listens, and every page's
//! Server-Sent Events stream says `change` when the number moved. No page
//! open: no read at all. Nothing changed: nothing sent but a keep-alive
//! comment now and then (which also tells a page its connection is alive).

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
        let (tx, count) = watch::channel(0u64);
        let mut check = location.watch();
        check.set_limit(CHECK_LIMIT);
        std::thread::Builder::new()
            .name("tasklists-changes".into())
            .spawn(move || poll(check.as_mut(), &tx))?;
        Ok(Changes { count, stop })
    }

    /// A page's event stream: `change` (with the count) each time the
    /// store moved; first a `retry` hint so that a dropped stream is
    /// reconnected within a second (the page then reads itself again).
    /// `held` is the stream's place among those open, given back when the
    /// stream ends (the page closed, the server stops).
    pub fn stream(
        &self,
        held: super::streams::Stream,
    ) -> Sse<impl Stream<Item = Result<Event, Infallible>> + use<>> {
        let first = Event::default().retry(RETRY).comment("tasklists");
        let mut count = self.count.clone();
        // A new page read the store as it loaded (and again when its stream
        // opens): only changes from now on are its news.
        count.mark_unchanged();
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
                        let event = Event::default().event("change").data(n.to_string());
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
