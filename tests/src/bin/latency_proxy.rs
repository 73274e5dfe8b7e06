//! The latency proxy as a process, for benches outside Rust
//! (`tests/mcp/bench_pool.py`): `latency_proxy HOST:PORT ONE_WAY_MICROS`
//! prints the port it listens on (127.0.0.1), then forwards until killed.

use std::time::Duration;
use tasklists_tests::LatencyProxy;

fn main() {
    let mut args = std::env::args().skip(1);
    let upstream = args
        .next()
        .and_then(|a| a.parse().ok())
        .expect("usage: latency_proxy HOST:PORT ONE_WAY_MICROS");
    let one_way = args
        .next()
        .and_then(|a| a.parse().ok())
        .map(Duration::from_micros)
        .expect("usage: latency_proxy HOST:PORT ONE_WAY_MICROS");
    let proxy = LatencyProxy::start(upstream, one_way).expect("start the proxy");
    println!("{}", proxy.port());
    loop {
        std::thread::park();
    }
}
