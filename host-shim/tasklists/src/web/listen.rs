//! The accept loop: each connection taken into the table of open ones
//! ([`Connections`]: at the cap, a newcomer takes the place of the most
//! expendable idle connection, or is closed at once when all are busy),
//! TLS when configured (its handshake bounded in time), then hyper's
//! HTTP/1 with a header read timeout (shorter once the table is crowded),
//! so a client that sends slowly (slowloris) or nothing at all holds one
//! place for a bounded time and never one a token holder needs.

use super::connections::{Conn, Connections, Tracked};
use axum::Router;
use axum::body::Body;
use futures_util::future::abortable;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// How long a request's headers (and a TLS handshake) may take to arrive.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The same, for a connection taken on while the table is crowded.
const CROWDED_HEADER_TIMEOUT: Duration = Duration::from_secs(2);

/// Serves `app` on `listener` until `stop` completes, at most `max_conns`
/// connections at once.
pub async fn run(
    listener: TcpListener,
    app: Router,
    tls: Option<TlsAcceptor>,
    max_conns: usize,
    stop: impl Future<Output = ()>,
) {
    let table = Connections::new(max_conns);
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
        let _ = stream.set_nodelay(true);
        let timeout = if table.crowded() {
            CROWDED_HEADER_TIMEOUT
        } else {
            HEADER_TIMEOUT
        };
        let conn = Arc::new(Conn::default());
        let (served, abort) = abortable(serve(
            stream,
            app.clone(),
            tls.clone(),
            conn.clone(),
            timeout,
        ));
        let Some(admitted) = table.admit(conn, abort) else {
            // Every place holds a request in progress: closed at once,
            // costing nothing to keep.
            continue;
        };
        tokio::spawn(async move {
            let _admitted = admitted;
            let _ = served.await;
        });
    }
}

/// One connection, to its end: TLS if configured, then HTTP/1, each
/// request carrying the connection's [`Conn`] and counted as in progress
/// until its answer has been sent.
async fn serve(
    stream: tokio::net::TcpStream,
    app: Router,
    tls: Option<TlsAcceptor>,
    conn: Arc<Conn>,
    header_timeout: Duration,
) {
    let inner = TowerToHyperService::new(app);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let busy = conn.begin();
        request.extensions_mut().insert(conn.clone());
        let answer = hyper::service::Service::call(&inner, request);
        async move {
            answer
                .await
                .map(|response| response.map(|body| Body::new(Tracked::new(body, busy))))
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let _ = match tls {
        None => http.serve_connection(TokioIo::new(stream), service).await,
        Some(tls) => match tokio::time::timeout(header_timeout, tls.accept(stream)).await {
            Ok(Ok(stream)) => http.serve_connection(TokioIo::new(stream), service).await,
            _ => return,
        },
    };
}
