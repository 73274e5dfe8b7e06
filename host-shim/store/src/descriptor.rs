//! What a kind of store registers once (`backends/mod.rs`): how a location's
//! text names it, how it is opened and watched, and how its location is
//! shown. Everything a host knows about a kind of store comes from here,
//! so a new backend is its folder plus one registration line.

use crate::{Backend, BackendOptions, Location, OpenError, Watch};

/// One kind of store: the functions its backend folder provides.
pub struct Descriptor {
    /// Its name, for messages (`sqlite`, `postgres`).
    pub name: &'static str,
    /// Whether a location's text, as a user writes it (`--db`,
    /// `TASKLISTS_DB`), names a store of this kind. The registry tries
    /// the kinds in order; the file kind, last, takes any text.
    pub recognizes: fn(&str) -> bool,
    /// Whether the text is a path to the store's file (any OS string, not
    /// only UTF-8; a path given as a path is always this kind).
    pub file: bool,
    /// The backend for `location`, not connected yet.
    pub open: fn(&Location, BackendOptions) -> Box<dyn Backend>,
    /// A change check on the store at `location`, opened when first read.
    pub watch: fn(&Location) -> Box<dyn Watch>,
    /// `location` as it may be shown: never with a password.
    pub show: fn(&Location) -> String,
    /// `text` with every secret of `location` masked.
    pub scrub: fn(&Location, &str) -> String,
    /// Why the location cannot be used as written, if it cannot, before
    /// anything connects (quoting no part of a secret).
    pub problem: fn(&Location) -> Option<OpenError>,
}

/// For a kind whose locations hold no secrets: `text` as it is.
pub fn no_secrets(_: &Location, text: &str) -> String {
    text.to_string()
}

/// For a kind whose every location text can be used as written.
pub fn no_problem(_: &Location) -> Option<OpenError> {
    None
}
