//! The tasklists component: persistent, ordered, shareable task lists for AI
//! agents. Every rule, validation, help text and renderer lives here as plain
//! Rust (testable natively with `cargo test`). `bindings.rs` generates the
//! WIT bindings (the boundary types are used as they are, on every target),
//! `exports.rs` implements the exports (wasm only) and `store/wit.rs` adapts
//! the imports. Modules depend one way, bottom to top
//! (`scripts/guest-layers` checks it): bindings; text, ids, clock, store,
//! schema; error; contract; context, waits, model, results, text_budget; actions;
//! render; registry; views, person; web, transfer; tokens; envelope; exports.

pub mod actions;
mod bindings;
pub mod clock;
pub mod context;
pub mod contract;
pub mod envelope;
pub mod error;
pub mod ids;
pub mod model;
pub mod person;
pub mod registry;
pub mod render;
pub mod results;
pub mod schema;
pub mod store;
pub mod text;
pub mod text_budget;
pub mod tokens;
pub mod transfer;
pub mod views;
pub mod waits;
pub mod web;

#[cfg(target_arch = "wasm32")]
mod exports;

#[cfg(test)]
pub mod testing;
