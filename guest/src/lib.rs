//! The tasklists component: persistent, ordered, shareable task lists for AI
//! agents. Every rule, validation, help text and renderer lives here as plain
//! Rust (testable natively with `cargo test`); `glue.rs` generates the WIT
//! bindings (the boundary types are used as they are, on every target; the
//! exports exist on wasm only) and `store/wit.rs` adapts the imports.

pub mod actions;
pub mod clock;
pub mod context;
pub mod contract;
pub mod envelope;
pub mod error;
pub mod ids;
pub mod model;
pub mod registry;
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
