//! `tasklists serve`: the web board over HTTP. The component writes every
//! page, asset and answer (WIT `web`); this module is the transport around
//! it: one axum router ([`router`]) whose layers log each request
//! ([`layers`]), set the security headers ([`headers`]) and check the
//! `Host` ([`checks`]); who sent a request is an extractor ([`who`]: a
//! session or a token, [`credentials`], [`access`], [`sessions`]; a sign-in
//! link first, [`sign_in`]); the routes are the component's pages
//! ([`pages`], their bounded [`body`]), the live events ([`live`] over
//! [`events`], bounded by [`streams`]) and MCP over Streamable HTTP at
//! `/mcp` ([`remote`]: a token's holder, pinned, within [`limits`]). The
//! one host actor runs the pages and `/mcp`'s calls alike
//! ([`crate::serve::actor`]); [`answers`] turns what the component says
//! into responses. [`server`] starts it all on the accept loop
//! ([`listen`]: a connection cap, header timeouts, TLS by [`tls`]).

mod access;
mod answers;
mod board;
mod body;
mod checks;
mod connections;
mod credentials;
mod events;
mod headers;
mod layers;
mod limits;
mod listen;
mod live;
mod options;
mod pages;
mod remote;
mod router;
mod server;
mod sessions;
mod sign_in;
mod streams;
mod tls;
mod who;

pub use access::{digest_hex, new_token};
pub use options::{
    DEFAULT_BODY_TIMEOUT_SECS, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_REQUESTS,
    DEFAULT_MAX_REQUESTS_PER_TOKEN, ServeOptions,
};
pub use server::{ServeError, serve};
