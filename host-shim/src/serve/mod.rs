//! What every serving mode shares, whatever its transport: the one thread
//! that owns the [`crate::Host`] and runs calls in arrival order, with
//! panic recovery ([`queue`]).

pub mod queue;
