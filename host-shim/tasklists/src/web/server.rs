//! The HTTP server: one axum router whose every request is checked
//! (`Host`, then a session or a token, then for a state change its
//! `Origin`) before it reaches the component, the live events at
//! `/events` (bounded per session, per token and in all), MCP at `/mcp`
//! ([`super::remote`]), the security headers on every answer, one log line
//! per request on stderr. A token is one of the server's own (printed, or
//! from `--token-file`) or one the store holds (`tasklists token add`),
//! looked up by its digest on every request, so a revoked one is refused
//! at once. A browser signs in by opening `?token=…` once: that starts a
//! session ([`super::sessions`]) whose secret, not the token, becomes its
//! cookie; a sign-in link another site sent the browser to is confirmed
//! by the person first.

use super::access::{Identity, TokenError, Tokens};
use super::board::{BODY_TIMEOUT, Board, authenticate, failed, identify, refuse, respond, session};
use super::checks::{AllowedHosts, same_origin};
use super::connections::Conn;
use super::events::Changes;
use super::headers;
use super::limits::Limits;
use super::options::ServeOptions;
use super::sessions::Sessions;
use super::streams::Streams;
use super::tls::{self, TlsError};
use super::{listen, remote};
use crate::error::ServerError;
use crate::mcp::HttpMcp;
use crate::serve::actor::{self, Unanswered};
use axum::Router;
use axum::body::to_bytes;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use tasklists_host::{
    CallContext, Host, HostConfig, HostError, SignInLink, WebMethod, WebRefusal, WebRequest,
};
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
        "refusing to listen on {0} without named tokens: anyone who can reach it could act as you. Listen on 127.0.0.1 (the default), or add tokens first (`tasklists token add NAME [--person]`), or give --token-file FILE with one `NAME TOKEN` line per person"
    )]
    Exposed(SocketAddr),
    /// The TLS certificate or key is unusable.
    #[error(transparent)]
    Tls(#[from] TlsError),
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
    /// The host (component, store) or the server's runtime failed.
    #[error(transparent)]
    Server(#[from] ServerError),
}

impl From<HostError> for ServeError {
    fn from(e: HostError) -> Self {
        ServeError::Server(ServerError::Host(e))
    }
}

/// Every kind of refusal, to word each once.
const REFUSALS: [WebRefusal; 10] = [
    WebRefusal::Unauthenticated,
    WebRefusal::WrongHost,
    WebRefusal::CrossOrigin,
    WebRefusal::TooLarge,
    WebRefusal::Busy,
    WebRefusal::AgentToken,
    WebRefusal::TooMany,
    WebRefusal::TooSlow,
    WebRefusal::NoAgent,
    WebRefusal::TooManyStreams,
];

/// Serves the board until Ctrl-C or SIGTERM: prints the URL to open on
/// stdout (one line), then logs to stderr. `ctx` is the identity of the
/// printed token (the person who started it) when there is no token file.
pub fn serve(
    options: ServeOptions,
    config: HostConfig,
    ctx: CallContext,
) -> Result<(), ServeError> {
    let tls = match (&options.tls_cert, &options.tls_key) {
        (Some(cert), Some(key)) => Some(tls::acceptor(cert, key)?),
        _ => None,
    };
    let base = ctx.clone();
    let (tokens, printed) = match &options.token_file {
        Some(path) => (Tokens::from_file(path, &ctx)?, None),
        None => {
            let name = ctx.person.clone().unwrap_or_else(|| "you".into());
            let (tokens, token) = Tokens::generate(Identity {
                name,
                ctx,
                board: true,
            })?;
            (tokens, Some(token))
        }
    };
    crate::logging::init();
    // Two threads: a request whose body is being parsed (an `/mcp` call
    // near its bound) never holds up the pages on the other.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("tasklists-serve")
        .enable_all()
        .build()
        .map_err(|e| ServerError::Serve(format!("cannot start the server's runtime: {e}")))?;
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
        let (stop_tx, stop) = watch::channel(false);
        let changes = Changes::start(&config.store, stop)
            .map_err(|e| ServerError::Serve(format!("cannot start the change check: {e}")))?;
        let mcp_max_body = remote::max_body(config.max_params_bytes);
        // One host for the pages and `/mcp` alike (its store opened on
        // the first call); `/mcp`'s calls name their caller, the pages'
        // jobs carry theirs.
        let mut host = Host::open_lazily(config.clone())?;
        let tools = host.catalogue()?;
        let (actor, _thread) = actor::start(host, config, CallContext::default(), || {})
            .map_err(|e| ServerError::Serve(format!("cannot start the host's thread: {e}")))?;
        let mcp = HttpMcp::new(actor.clone(), &tools, mcp_max_body);
        if !options.listen.ip().is_loopback() && options.token_file.is_none() {
            let named = actor
                .run(|host| host.has_tokens())
                .await
                .map_err(|e| ServerError::Serve(format!("cannot read the tokens: {e:?}")))?;
            if !named {
                return Err(ServeError::Exposed(options.listen));
            }
        }
        let hosts = AllowedHosts::new(bound, &options.allow_hosts);
        if hosts.is_empty() {
            return Err(ServeError::Nameless(bound));
        }
        let mut refusals = Vec::new();
        for why in REFUSALS {
            let page = actor
                .run(move |host| host.web_refusal(why))
                .await
                .map_err(|e| ServerError::Serve(format!("cannot word the refusals: {e:?}")))?;
            refusals.push((why, page));
        }
        let board = Arc::new(Board {
            tokens,
            base,
            hosts,
            cookie: if tls.is_some() {
                format!("__Host-tasklists-{}", bound.port())
            } else {
                format!("tasklists-{}", bound.port())
            },
            secure: tls.is_some(),
            sessions: Sessions::default(),
            // Half the connections at most: the rest stay for requests.
            streams: Streams::new(options.max_connections / 2),
            actor,
            changes,
            refusals,
            mcp,
            limits: Limits::new(
                options.max_requests,
                options.max_requests_per_token,
                remote::MAX_HELD_BYTES,
            ),
            mcp_max_body,
        });
        let scheme = if tls.is_some() { "https" } else { "http" };
        print_url(
            scheme,
            bound,
            printed.as_deref(),
            options.token_file.as_deref(),
        );
        let app = Router::new().fallback(handle).with_state(board);
        listen::run(listener, app, tls, options.max_connections, async move {
            stopped().await;
            let _ = stop_tx.send(true);
        })
        .await;
        Ok(())
    })
}

/// The one line on stdout: the URL to open (with the token when the
/// server made one), then nothing more on stdout.
fn print_url(scheme: &str, bound: SocketAddr, token: Option<&str>, file: Option<&std::path::Path>) {
    let base = format!("{scheme}://{bound}/");
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
    if parts.uri.path() == "/mcp" {
        return remote::mcp(board, parts, body).await;
    }
    let query = parts.uri.query().unwrap_or("");
    let method = match parts.method {
        Method::GET => WebMethod::Get,
        Method::POST => WebMethod::Post,
        _ => return StatusCode::METHOD_NOT_ALLOWED.into_response(),
    };
    // A token in the URL (the link `serve` printed) starts a session, and
    // the browser is sent to the same page without it.
    if let Some(token) = query_token(query) {
        if method != WebMethod::Get {
            return refuse(board, WebRefusal::Unauthenticated);
        }
        return sign_in(board, &parts, &token).await;
    }
    let who = match authenticate(board, &parts.headers).await {
        Ok(Some(who)) => who,
        Ok(None) => return refuse(board, WebRefusal::Unauthenticated),
        Err(refused) => return refused,
    };
    if !who.identity.board {
        return refuse(board, WebRefusal::AgentToken);
    }
    if let Some(conn) = parts.extensions.get::<Arc<Conn>>() {
        conn.trust();
    }
    if method == WebMethod::Post && who.session.is_some() {
        let origin = parts
            .headers
            .get(header::ORIGIN)
            .and_then(|v| v.to_str().ok());
        if !same_origin(origin, host) {
            return refuse(board, WebRefusal::CrossOrigin);
        }
    }
    if method == WebMethod::Get && parts.uri.path() == "/events" {
        return match board.streams.open(who.session.as_deref(), &who.token) {
            Some(held) => board.changes.stream(held).into_response(),
            None => refuse(board, WebRefusal::TooManyStreams),
        };
    }
    let body = match tokio::time::timeout(BODY_TIMEOUT, to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => return refuse(board, WebRefusal::TooLarge),
        Err(_) => return refuse(board, WebRefusal::TooSlow),
    };
    let request = WebRequest {
        method,
        path: parts.uri.path().to_string(),
        query: query.to_string(),
        // A body that is not UTF-8 is no form of ours: the component
        // refuses what it cannot read, so it gets the text as lossy.
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let ctx = who.identity.ctx.clone();
    match board.actor.run(move |host| host.web(&request, &ctx)).await {
        Ok(page) => respond(page),
        Err(Unanswered::Busy) => refuse(board, WebRefusal::Busy),
        Err(Unanswered::Failed(why)) => failed(&why),
    }
}

/// The `token` of a query string, percent-decoded.
fn query_token(query: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(key, _)| key == TOKEN_PARAM)
        .map(|(_, value)| value.into_owned())
}

/// Whether a request was sent by the person themselves: typed or opened
/// from outside the browser (`Sec-Fetch-Site: none`), sent from one of
/// the board's own pages (`same-origin`), or by a client that is no
/// browser (no such header: it keeps no cookie another site could use).
fn own_navigation(headers: &HeaderMap) -> bool {
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        None => true,
        Some(site) => site == "none" || site == "same-origin",
    }
}

/// `?token=…`: a new session and a redirect to the page without the
/// token; a link another site sent the browser to is first confirmed
/// on a page of the component's.
async fn sign_in(board: &Board, parts: &Parts, token: &str) -> Response {
    let (identity, opened) = match identify(board, token).await {
        Ok(Some((identity, _))) if !identity.board => return refuse(board, WebRefusal::AgentToken),
        Ok(Some(found)) => found,
        Ok(None) => return refuse(board, WebRefusal::Unauthenticated),
        Err(refused) => return refused,
    };
    let current = match session(board, &parts.headers).await {
        Ok(current) => current,
        Err(refused) => return refused,
    };
    let path = local_path(parts.uri.path());
    let query = parts.uri.query().unwrap_or("");
    if !own_navigation(&parts.headers) {
        let link = SignInLink {
            holder: identity.name.clone(),
            current: current.map(|who| who.identity.name),
            path: path.to_string(),
            query: query.to_string(),
        };
        return match board
            .actor
            .run(move |host| host.web_confirm_sign_in(&link))
            .await
        {
            Ok(page) => respond(page),
            Err(Unanswered::Busy) => refuse(board, WebRefusal::Busy),
            Err(Unanswered::Failed(why)) => failed(&why),
        };
    }
    if let Some(key) = current.and_then(|who| who.session) {
        board.sessions.end(&key);
    }
    let secret = match board.sessions.start(identity, opened) {
        Ok(secret) => secret,
        Err(e) => return failed(&e.to_string()),
    };
    let rest: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(
            form_urlencoded::parse(query.as_bytes()).filter(|(key, _)| key != TOKEN_PARAM),
        )
        .finish();
    let to = if rest.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{rest}")
    };
    let mut response = StatusCode::SEE_OTHER.into_response();
    let secure = if board.secure { "; Secure" } else { "" };
    let set = format!(
        "{}={secret}; HttpOnly; SameSite=Strict; Path=/{secure}",
        board.cookie
    );
    if let (Ok(set), Ok(to)) = (HeaderValue::from_str(&set), HeaderValue::from_str(&to)) {
        response.headers_mut().insert(header::SET_COOKIE, set);
        response.headers_mut().insert(header::LOCATION, to);
    }
    response
}

/// `path` if it is one of this server's, else `/`: `//host` (or `/\host`,
/// which browsers read as `//host`) would leave it.
fn local_path(path: &str) -> &str {
    let local = path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.chars().any(char::is_control);
    if local { path } else { "/" }
}
