//! What every serving mode shares, whatever its transport: the host actor,
//! the one thread that owns the [`tasklists_host::Host`] and runs calls and
//! pages in arrival order, with panic recovery ([`actor`]); the signals
//! that stop a mode that runs until told to ([`signals`]).

pub mod actor;
pub mod signals;
