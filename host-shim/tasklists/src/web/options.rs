//! What `tasklists serve` is told: where to listen, whose tokens, which
//! names browsers may use for it.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address and port to listen on (port 0: a free one).
    pub listen: SocketAddr,
    /// A file of `NAME TOKEN` lines: the people who may open the board.
    /// Required to listen beyond loopback.
    pub token_file: Option<PathBuf>,
    /// Host names (with or without `:PORT`) browsers may reach the server
    /// by, besides its own address (a DNS name, a reverse proxy's name).
    pub allow_hosts: Vec<String>,
    /// A PEM certificate chain to serve HTTPS with (with `tls_key`).
    pub tls_cert: Option<PathBuf>,
    /// The PEM private key of `tls_cert`.
    pub tls_key: Option<PathBuf>,
    /// Connections open at most (more are closed at once).
    pub max_connections: usize,
    /// Requests to `/mcp` in progress at most (more: `503`).
    pub max_requests: usize,
    /// Requests to `/mcp` in progress at most for one token (more: `429`).
    pub max_requests_per_token: usize,
    /// How long a request's body may take to arrive once its headers
    /// have (the board's forms and `/mcp` alike; longer: `408`).
    pub body_timeout: Duration,
    /// The notifier to run beside the board (`--notify-*`), on its host
    /// actor, if any.
    pub notify: Option<crate::notify::Plan>,
}

/// Connections open at most, by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// Requests to `/mcp` in progress at most, by default.
pub const DEFAULT_MAX_REQUESTS: usize = 128;
/// Requests to `/mcp` in progress at most for one token, by default.
pub const DEFAULT_MAX_REQUESTS_PER_TOKEN: usize = 8;
/// How long a request's body may take to arrive, in seconds, by default.
pub const DEFAULT_BODY_TIMEOUT_SECS: u64 = 30;

/// A `--listen` value that is not an address.
#[derive(Debug, thiserror::Error)]
#[error(
    "--listen {0:?} is not an address and port: give one such as 127.0.0.1:8080, [::1]:8080 or localhost:8080"
)]
pub struct ListenError(String);

impl ServeOptions {
    /// Parses a `--listen` value: `IP:PORT`, `[IPv6]:PORT` or
    /// `localhost:PORT` (which is 127.0.0.1: a name is never resolved, so
    /// the address is the one given).
    pub fn parse_listen(text: &str) -> Result<SocketAddr, ListenError> {
        if let Ok(addr) = text.parse::<SocketAddr>() {
            return Ok(addr);
        }
        match text.strip_prefix("localhost:").map(str::parse::<u16>) {
            Some(Ok(port)) => Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port)),
            _ => Err(ListenError(text.to_string())),
        }
    }
}
