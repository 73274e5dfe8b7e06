//! A TCP proxy on loopback that delays every chunk by a fixed time each
//! way, so a PostgreSQL server on this machine answers like one across a
//! network (`tc netem` is not available here). It also counts round trips:
//! each time the client speaks again after the server answered, per
//! connection, summed over all connections. Pipelined messages sent
//! together (or before any answer arrives) count once, as they cost one
//! wait for the network.
//!
//! ```no_run
//! # use std::time::Duration;
//! let proxy = tasklists_tests::LatencyProxy::start("127.0.0.1:5432".parse().unwrap(), Duration::from_millis(10)).unwrap();
//! let url = format!("postgresql://user@127.0.0.1:{}/db", proxy.port());
//! ```

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// Who spoke last on one proxied connection.
const CLIENT: u8 = 1;
const SERVER: u8 = 2;

/// A running proxy: connections to [`LatencyProxy::port`] on 127.0.0.1 are
/// forwarded to the upstream address, each chunk held `one_way` in each
/// direction. Stops accepting when dropped (open connections run on until
/// either side closes).
pub struct LatencyProxy {
    port: u16,
    round_trips: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl LatencyProxy {
    /// Starts a proxy to `upstream` adding `one_way` each way (a round trip
    /// costs twice that more).
    pub fn start(upstream: SocketAddr, one_way: Duration) -> io::Result<LatencyProxy> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let round_trips = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (trips, stopping) = (Arc::clone(&round_trips), Arc::clone(&stop));
        thread::spawn(move || {
            for client in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(client) = client else { continue };
                let trips = Arc::clone(&trips);
                thread::spawn(move || {
                    if let Ok(server) = TcpStream::connect(upstream) {
                        connect_pair(client, server, one_way, trips).ok();
                    }
                });
            }
        });
        Ok(LatencyProxy {
            port,
            round_trips,
            stop,
        })
    }

    /// The port on 127.0.0.1 to connect to.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `url` (a PostgreSQL URL) with its host and port replaced by the
    /// proxy's.
    pub fn url(&self, url: &str) -> String {
        url.replacen(authority(url), &format!("127.0.0.1:{}", self.port), 1)
    }

    /// The server a PostgreSQL URL names, to proxy (`localhost` read as
    /// 127.0.0.1). Panics on a URL that names no `host:port` as an IP
    /// address (the test servers' URLs do).
    pub fn server_of(url: &str) -> SocketAddr {
        authority(url)
            .replace("localhost", "127.0.0.1")
            .parse()
            .expect("the URL names host:port as an IP address")
    }

    /// Round trips so far over every connection (see the module doc).
    pub fn round_trips(&self) -> u64 {
        self.round_trips.load(Ordering::SeqCst)
    }
}

impl Drop for LatencyProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so it sees the flag.
        TcpStream::connect(("127.0.0.1", self.port)).ok();
    }
}

/// `host:port` of a URL's authority.
fn authority(url: &str) -> &str {
    let rest = &url[url.find("://").map_or(0, |i| i + 3)..];
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    &rest[..end]
}

/// Forwards both directions of one connection, each through a delay line.
fn connect_pair(
    client: TcpStream,
    server: TcpStream,
    one_way: Duration,
    trips: Arc<AtomicU64>,
) -> io::Result<()> {
    client.set_nodelay(true)?;
    server.set_nodelay(true)?;
    let last = Arc::new(AtomicU8::new(SERVER));
    let up = (client.try_clone()?, server.try_clone()?);
    let (l, t) = (Arc::clone(&last), Arc::clone(&trips));
    thread::spawn(move || {
        pump(up.0, up.1, one_way, move || {
            if l.swap(CLIENT, Ordering::SeqCst) != CLIENT {
                t.fetch_add(1, Ordering::SeqCst);
            }
        })
    });
    thread::spawn(move || {
        pump(server, client, one_way, move || {
            last.store(SERVER, Ordering::SeqCst)
        })
    });
    Ok(())
}

/// Reads `from`, and writes each chunk to `to` `delay` after it arrived
/// (a writer thread, so reading never waits on the delay). `seen` runs as
/// each chunk arrives.
fn pump(mut from: TcpStream, to: TcpStream, delay: Duration, seen: impl Fn()) {
    let (send, receive) = mpsc::channel::<(Instant, Vec<u8>)>();
    let writer = thread::spawn(move || {
        let mut to = to;
        for (due, chunk) in receive {
            let now = Instant::now();
            if due > now {
                thread::sleep(due - now);
            }
            if to.write_all(&chunk).is_err() {
                break;
            }
        }
        to.shutdown(Shutdown::Write).ok();
    });
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                seen();
                if send
                    .send((Instant::now() + delay, buf[..n].to_vec()))
                    .is_err()
                {
                    break;
                }
            }
        }
    }
    drop(send);
    writer.join().ok();
}
