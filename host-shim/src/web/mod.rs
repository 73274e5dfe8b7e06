//! `tasklists serve`: the web board over HTTP. The component writes every
//! page, asset and answer (WIT `web`); this module is the transport around
//! it: who may ask (tokens, [`access`]), from where ([`checks`]: the `Host`
//! and `Origin` headers), the headers every answer carries
//! ([`headers`]), the live events ([`events`]: the store's change check
//! pushed over Server-Sent Events) and the one thread that owns the
//! component ([`worker`]). [`server`] joins them into one axum router,
//! which a later transport (MCP over HTTP) can share.

mod access;
mod checks;
mod events;
mod headers;
mod options;
mod server;
mod worker;

pub use access::{Identity, TokenError, Tokens};
pub use options::{ListenError, ServeOptions};
pub use server::{ServeError, serve};
