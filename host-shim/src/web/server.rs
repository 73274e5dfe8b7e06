//! The HTTP server: one axum router whose every request is checked
//! (`Host`, then a token, then for a state change its `Origin`) before it
//! reaches the component, the live events at `/events`, the security
//! headers on every answer, one log line per request on stderr.

use super::access::{Identity, TokenError, Tokens};
use super::checks::{AllowedHosts, same_origin};
use super::events::Changes;
use super::headers;
use super::options::ServeOptions;
use super::worker::{Unanswered, Worker};
use crate::{CallContext, HostConfig, HostError, WebMethod, WebRefusal, WebRequest, WebResponse};
use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::watch;

/// The largest body a form may send (a task's texts fit well within it).
const MAX_BODY: usize = 256 * 1024;
/// The query parameter that carries a token in the URL to open.
const TOKEN_PARAM: &str = "token";

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Listening beyond loopback needs named tokens.
    #[error(
        "refusing to listen on {0} without --token-file: anyone who can reach it could act as you. Listen on 127.0.0.1 (the default), or give --token-file FILE with one `NAME TOKEN` line per person"
    )]
    Exposed(SocketAddr),
    /// A wildcard address and no `--allow-host`: no name would be accepted.
    #[error(
        "listening on {0} answers no name a browser would send: add --allow-host NAME for each name or address people will open it by"
    )]
    Nameless(SocketAddr),
    /// The token file is unusable.
    #[error(transparent)]
    Tokens(#[from] TokenError),
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The host (component, store, runtime) failed.
    #[error(transparent)]
    Host(#[from] HostError),
}

/// What every request handler shares.
struct Board {
    tokens: Tokens,
    hosts: AllowedHosts,
    cookie: String,
    worker: Worker,
    changes: Changes,
    /// The component's page for each refusal, asked once at the start (it
    /// touches no store): a flood of refused requests never reaches the
    /// component's queue, so it cannot crowd out the token holder.
    refusals: Vec<(WebRefusal, WebResponse)>,
}

/// Every kind of refusal, to word each once.
const REFUSALS: [WebRefusal; 5] = [
    WebRefusal::Unauthenticated,
    WebRefusal::WrongHost,
    WebRefusal::CrossOrigin,
    WebRefusal::TooLarge,
    WebRefusal::Busy,
];

/// Serves the board until Ctrl-C or SIGTERM: prints the URL to open on
/// stdout (one line), then logs to stderr. `ctx` is the identity of the
/// printed token (the person who started it) when there is no token file.
pub fn serve(
    options: ServeOptions,
    config: HostConfig,
    ctx: CallContext,
) -> Result<(), ServeError> {
    if !options.listen.ip().is_loopback() && options.token_file.is_none() {
        return Err(ServeError::Exposed(options.listen));
    }
    let (tokens, printed) = match &options.token_file {
        Some(path) => (Tokens::from_file(path, &ctx)?, None),
        None => {
            let name = ctx.person.clone().unwrap_or_else(|| "you".into());
            let (tokens, token) = Tokens::generate(Identity { name, ctx })?;
            (tokens, Some(token))
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| HostError::Serve(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .map_err(|source| ServeError::Bind {
                addr: options.listen,
                source,
            })?;
        let bound = listener.local_addr().map_err(|source| ServeError::Bind {
            addr: options.listen,
            source,
        })?;
        let hosts = AllowedHosts::new(bound, &options.allow_hosts);
        if hosts.is_empty() {
            return Err(ServeError::Nameless(bound));
        }
        let (stop_tx, stop) = watch::channel(false);
        let changes = Changes::start(&config.store, stop)
            .map_err(|e| HostError::Serve(format!("cannot start the change check: {e}")))?;
        let worker = Worker::start(config)?;
        let mut refusals = Vec::new();
        for why in REFUSALS {
            let page = worker
                .run(move |host| host.web_refusal(why))
                .await
                .map_err(|e| HostError::Serve(format!("cannot word the refusals: {e:?}")))?;
            refusals.push((why, page));
        }
        let board = Arc::new(Board {
            tokens,
            hosts,
            cookie: format!("tasklists-{}", bound.port()),
            worker,
            changes,
            refusals,
        });
        print_url(bound, printed.as_deref(), options.token_file.as_deref());
        let app = Router::new().fallback(handle).with_state(board);
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                stopped().await;
                let _ = stop_tx.send(true);
            })
            .await
            .map_err(|e| HostError::Serve(format!("the server failed: {e}")))?;
        Ok(())
    })
}

/// The one line on stdout: the URL to open (with the token when the
/// server made one), then nothing more on stdout.
fn print_url(bound: SocketAddr, token: Option<&str>, file: Option<&std::path::Path>) {
    let base = format!("http://{bound}/");
    let line = match (token, file) {
        (Some(token), _) => format!("tasklists board: {base}?{TOKEN_PARAM}={token}"),
        (None, Some(file)) => format!(
            "tasklists board: {base} (sign in by adding ?{TOKEN_PARAM}= and your token from {})",
            file.display()
        ),
        (None, None) => format!("tasklists board: {base}"),
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Ctrl-C or SIGTERM.
async fn stopped() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

/// Every request: checked, then answered by the events or the component.
async fn handle(State(board): State<Arc<Board>>, request: Request) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let mut response = answer(&board, request).await;
    let immutable = response.headers().contains_key("x-tasklists-immutable");
    response.headers_mut().remove("x-tasklists-immutable");
    headers::secure(response.headers_mut(), immutable);
    eprintln!(
        "{method} {path} {} {} ms",
        response.status().as_u16(),
        started.elapsed().as_millis()
    );
    response
}

/// The checks in order, then the answer.
async fn answer(board: &Board, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let host = parts
        .headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !board.hosts.allows(host) {
        return refuse(board, WebRefusal::WrongHost);
    }
    let query = parts.uri.query().unwrap_or("");
    let method = match parts.method {
        Method::GET => WebMethod::Get,
        Method::POST => WebMethod::Post,
        _ => return StatusCode::METHOD_NOT_ALLOWED.into_response(),
    };
    // A token in the URL (the link `serve` printed) becomes the cookie,
    // and the browser is sent to the same page without it.
    if let Some(token) = query_token(query) {
        if method != WebMethod::Get || board.tokens.identify(&token).is_none() {
            return refuse(board, WebRefusal::Unauthenticated);
        }
        return sign_in(&board.cookie, &token, parts.uri.path(), query);
    }
    let (identity, by_cookie) = match authenticate(board, &parts.headers) {
        Some(found) => found,
        None => return refuse(board, WebRefusal::Unauthenticated),
    };
    if method == WebMethod::Post && by_cookie {
        let origin = parts
            .headers
            .get(header::ORIGIN)
            .and_then(|v| v.to_str().ok());
        if !same_origin(origin, host) {
            return refuse(board, WebRefusal::CrossOrigin);
        }
    }
    if method == WebMethod::Get && parts.uri.path() == "/events" {
        return board.changes.stream().into_response();
    }
    let body = match to_bytes(body, MAX_BODY).await {
        Ok(bytes) => bytes,
        Err(_) => return refuse(board, WebRefusal::TooLarge),
    };
    let request = WebRequest {
        method,
        path: parts.uri.path().to_string(),
        query: query.to_string(),
        // A body that is not UTF-8 is no form of ours: the component
        // refuses what it cannot read, so it gets the text as lossy.
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let ctx = identity.ctx.clone();
    match board.worker.run(move |host| host.web(&request, &ctx)).await {
        Ok(page) => respond(page),
        Err(Unanswered::Busy) => refuse(board, WebRefusal::Busy),
        Err(Unanswered::Failed(why)) => failed(&why),
    }
}

/// The identity of a request's token (cookie, else `Authorization:
/// Bearer`), and whether it came by cookie (which a browser attaches on
/// its own, so a state change then needs its `Origin` checked).
fn authenticate<'b>(board: &'b Board, headers: &HeaderMap) -> Option<(&'b Identity, bool)> {
    if let Some(token) = cookie(headers, &board.cookie) {
        return board.tokens.identify(token).map(|i| (i, true));
    }
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())?
        .strip_prefix("Bearer ")?;
    board.tokens.identify(bearer.trim()).map(|i| (i, false))
}

/// The value of the cookie `name`, if the request carries it.
fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// The `token` of a query string, percent-decoded.
fn query_token(query: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(key, _)| key == TOKEN_PARAM)
        .map(|(_, value)| value.into_owned())
}

/// The cookie set, and a redirect to the page without the token.
fn sign_in(cookie: &str, token: &str, path: &str, query: &str) -> Response {
    let rest: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(
            form_urlencoded::parse(query.as_bytes()).filter(|(key, _)| key != TOKEN_PARAM),
        )
        .finish();
    // Only a path of this server: `//host` (or `/\host`, which browsers
    // read as `//host`) would leave it.
    let local = path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.chars().any(char::is_control);
    let path = if local { path } else { "/" };
    let to = if rest.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{rest}")
    };
    let mut response = StatusCode::SEE_OTHER.into_response();
    let set = format!("{cookie}={token}; HttpOnly; SameSite=Strict; Path=/");
    if let (Ok(set), Ok(to)) = (HeaderValue::from_str(&set), HeaderValue::from_str(&to)) {
        response.headers_mut().insert(header::SET_COOKIE, set);
        response.headers_mut().insert(header::LOCATION, to);
    }
    response
}

/// The component's page for a refused request (worded at the start).
fn refuse(board: &Board, why: WebRefusal) -> Response {
    match board.refusals.iter().find(|(kind, _)| *kind == why) {
        Some((_, page)) => respond(page.clone()),
        None => failed(&format!("no page for the refusal {why:?}")),
    }
}

/// The component's answer as an HTTP response.
fn respond(page: WebResponse) -> Response {
    let status = StatusCode::from_u16(page.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, Body::from(page.body)).into_response();
    let headers = response.headers_mut();
    if let Ok(kind) = HeaderValue::from_str(&page.content_type) {
        headers.insert(header::CONTENT_TYPE, kind);
    }
    if !page.location.is_empty()
        && let Ok(to) = HeaderValue::from_str(&page.location)
    {
        headers.insert(header::LOCATION, to);
    }
    if page.immutable {
        headers.insert("x-tasklists-immutable", HeaderValue::from_static("1"));
    }
    response
}

/// The host itself failed: said in the log, and in a plain answer.
fn failed(why: &str) -> Response {
    eprintln!("tasklists serve: {why}");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        "tasklists serve: the host failed on this request; its log says why\n",
    )
        .into_response()
}
