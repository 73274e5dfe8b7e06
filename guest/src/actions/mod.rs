//! The actions: one type per action of the contract ([`Action`]: its spec,
//! its result type and its handler), grouped by tool family, and the
//! machinery they share: one running call ([`Call`]), running an action by
//! its type ([`invoke`]), access and bypass rules, pages, dependencies,
//! positions and summaries.

pub(crate) mod access;
mod action;
pub mod approval;
#[cfg(test)]
mod approval_tests;
pub mod ask;
pub mod audit;
mod audit_event;
mod bypass;
mod call;
pub mod claims;
pub(crate) mod deps;
pub mod help;
#[cfg(test)]
mod hot_path_tests;
mod invoke;
pub mod items;
pub mod items_update;
mod items_update_close;
pub mod lists;
pub mod lists_get;
mod own_fields;
mod page;
mod positions;
#[cfg(test)]
mod priority_tests;
pub mod release;
pub mod reorder;
pub mod settle;
pub mod stored_json;
pub(crate) mod summary;
#[cfg(test)]
mod tests;

pub use action::{Action, Done};
pub use call::{Call, Output};
pub use invoke::{Request, invoke, invoke_fn, printable_error};
