//! The tasklists component: persistent, ordered, shareable task lists for AI
//! agents. Every rule, validation, help text and renderer lives here as plain
//! Rust (testable natively with `cargo test`); `glue.rs` is the only file that
//! touches the generated WIT bindings (the boundary types it generates are
//! used as they are, on every target; the exports exist on wasm only).

pub mod actions;
pub mod clock;
pub mod context;
pub mod contract;
pub mod envelope;
pub mod error;
pub mod ids;
pub mod model;
pub mod render;
pub mod results;
pub mod schema;
pub mod store;
pub mod text;
pub mod text_budget;
pub mod views;

mod glue;

#[cfg(test)]
pub mod testing;
