//! The remote clients' tokens, kept by the component in the store (WIT
//! `tokens`): the host makes a token, hands the component only its SHA-256
//! digest, and asks it who holds the digest of a request's token.

use crate::bindings::{TokenAnswer, TokenKind, TokenLookup};
use crate::component_host::Host;
use crate::error::HostError;

impl Host {
    /// Records the token whose SHA-256 (lowercase hex) is `digest` for
    /// `name`: the component's line to show, or why it refused.
    pub fn add_token(
        &mut self,
        name: &str,
        kind: TokenKind,
        digest: &str,
    ) -> Result<TokenAnswer, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_tokens()
                .call_add_token(store, name, kind, digest)
        })
    }

    /// The lines of `tasklists token list`.
    pub fn list_tokens(&mut self) -> Result<TokenAnswer, HostError> {
        self.plain(|b, store| b.tasklists_component_tokens().call_list_tokens(store))
    }

    /// Revokes `name`'s token: the line to show, or why it refused.
    pub fn revoke_token(&mut self, name: &str) -> Result<TokenAnswer, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_tokens()
                .call_revoke_token(store, name)
        })
    }

    /// Whether anyone holds a token (false when the store cannot be read).
    pub fn has_tokens(&mut self) -> Result<bool, HostError> {
        self.plain(|b, store| b.tasklists_component_tokens().call_has_tokens(store))
    }

    /// The holder of the token whose SHA-256 (lowercase hex) is `digest`.
    pub fn resolve_token(&mut self, digest: &str) -> Result<TokenLookup, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_tokens()
                .call_resolve_token(store, digest)
        })
    }
}
