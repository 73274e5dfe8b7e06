//! `tasklists serve`: the web board over HTTP. The component writes every
//! page, asset and answer (WIT `web`); this module is the transport around
//! it: who may ask (tokens, [`access`]), from where ([`checks`]: the `Host`
//! and `Origin` headers), the headers every answer carries
//! ([`headers`]), the live events ([`events`]: the store's change check
//! pushed over Server-Sent Events), the one host actor that runs the pages
//! and `/mcp`'s calls alike ([`crate::serve::actor`]), MCP over Streamable
//! HTTP at `/mcp`
//! ([`remote`]: a token's holder, pinned, within [`limits`]), the accept
//! loop ([`listen`]: a connection cap, header timeouts, TLS by [`tls`]).
//! [`server`] joins them into one axum router.

mod access;
mod board;
mod checks;
mod connections;
mod events;
mod headers;
mod limits;
mod listen;
mod options;
mod remote;
mod server;
mod sessions;
mod streams;
mod tls;

pub use access::{digest_hex, new_token};
pub use options::{
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_REQUESTS, DEFAULT_MAX_REQUESTS_PER_TOKEN, ServeOptions,
};
pub use server::{ServeError, serve};
