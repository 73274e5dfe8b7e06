//! What every serving mode shares, whatever its transport: the host actor,
//! a pool of threads each owning a [`tasklists_host::Host`], running calls
//! and pages from one queue in arrival order, with panic recovery
//! ([`actor`]), sized by the store ([`pool`]); the signals that stop a
//! mode that runs until told to ([`signals`]).

pub mod actor;
pub mod pool;
pub mod signals;
