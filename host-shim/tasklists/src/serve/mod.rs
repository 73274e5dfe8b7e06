//! What every serving mode shares, whatever its transport: the host actor,
//! the one thread that owns the [`tasklists_host::Host`] and runs calls and
//! pages in arrival order, with panic recovery ([`actor`]).

pub mod actor;
