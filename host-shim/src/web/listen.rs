//! The accept loop: each connection counted against a cap (over it, the
//! connection is closed at once), TLS when configured (its handshake
//! bounded in time), then hyper's HTTP/1 with a header read timeout, so a
//! client that sends slowly (slowloris) holds one counted connection for a
//! bounded time, never the server.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;

/// How long a request's headers (and a TLS handshake) may take to arrive.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `stop` completes, at most `max_conns`
/// connections at once.
pub async fn run(
    listener: TcpListener,
    app: Router,
    tls: Option<TlsAcceptor>,
    max_conns: usize,
    stop: impl Future<Output = ()>,
) {
    let open = Arc::new(Semaphore::new(max_conns));
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => return,
        };
        let (stream, _) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                // Out of file descriptors and the like: wait, then go on.
                eprintln!("tasklists serve: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            // Full: closed at once, costing nothing to keep.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let service = TowerToHyperService::new(app);
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            let _ = match tls {
                None => http.serve_connection(TokioIo::new(stream), service).await,
                Some(tls) => match tokio::time::timeout(HEADER_TIMEOUT, tls.accept(stream)).await {
                    Ok(Ok(stream)) => http.serve_connection(TokioIo::new(stream), service).await,
                    _ => return,
                },
            };
        });
    }
}
