//! Starting the HTTP server: the tokens (printed, or from `--token-file`;
//! the store's are looked up by their digest on every request, so a
//! revoked one is refused at once), the host actor the pages and `/mcp`
//! share, the refusal pages worded once, the [`Board`] every request
//! shares, the notifier beside it when asked for, the URL to open on
//! stdout; then [`super::router`]'s routes on [`super::listen`]'s accept
//! loop until Ctrl-C or SIGTERM.

use super::access::{Identity, TokenError, Tokens};
use super::board::Board;
use super::checks::AllowedHosts;
use super::events::Changes;
use super::limits::Limits;
use super::options::ServeOptions;
use super::sessions::Sessions;
use super::sign_in::TOKEN_PARAM;
use super::streams::Streams;
use super::tls::{self, TlsError};
use super::{listen, remote, router};
use crate::error::ServerError;
use crate::mcp::HttpMcp;
use crate::serve::signals::stopped;
use crate::serve::{actor, pool};
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use tasklists_host::{CallContext, Host, HostConfig, HostError, WebRefusal};
use tokio::sync::watch;

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
        let (workers, drain) = (pool::shape(&config), pool::drain_limit(&config));
        let (actor, workers) =
            actor::start(host, config, CallContext::default(), workers, || {})
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
        let scheme = if tls.is_some() { "https" } else { "http" };
        if let Some(plan) = options.notify {
            // Beside the board, on its host: links to the board's own
            // address unless told otherwise (a proxy's), never a token.
            let board_url = plan
                .board_url()
                .map_or_else(|| format!("{scheme}://{bound}/"), str::to_string);
            tokio::spawn(crate::notify::run(
                actor.clone(),
                base.clone(),
                plan,
                board_url,
            ));
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
            body_timeout: options.body_timeout,
        });
        print_url(
            scheme,
            bound,
            printed.as_deref(),
            options.token_file.as_deref(),
        );
        listen::run(
            listener,
            router::app(board),
            tls,
            options.max_connections,
            async move {
                stopped().await;
                let _ = stop_tx.send(true);
            },
        )
        .await;
        // The calls already accepted finish before the process exits.
        let _ = tokio::task::spawn_blocking(move || workers.drain(drain)).await;
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
