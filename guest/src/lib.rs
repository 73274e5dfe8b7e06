//! The tasklists component: persistent, ordered, shareable task lists for AI
//! agents. Every rule, validation, help text and renderer lives here as plain
//! Rust (testable natively with `cargo test`); `glue.rs` is the only file that
//! touches the generated WIT bindings, and it is compiled for wasm only.

pub mod catalogue;
pub mod clock;
pub mod context;
pub mod error;
pub mod ids;
pub mod model;
pub mod render;
pub mod results;
pub mod schema;
#[doc(hidden)]
pub mod spec;
pub mod store;
pub mod text;
pub mod tools;

#[cfg(target_arch = "wasm32")]
mod glue;

#[cfg(test)]
pub mod testing;
