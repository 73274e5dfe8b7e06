//! The host's integration tests, as one test binary (`--test host`): each
//! file of this directory is a module, named as the file (`cargo test
//! --release -p tasklists-host --test host serve::` runs `serve.rs`). One
//! binary links wasmtime once instead of once per file.

mod cache_trust;
mod cli;
mod cli_dashboard;
mod cli_person;
mod cli_views;
mod mcp_python;
mod serve;
mod store_privacy;
mod wasm_target;

/// Tests that must run alone in a process of their own.
// The same child-process runner as the contract suite's, one file.
#[path = "../../tests/src/alone.rs"]
mod alone;
/// The person's tests' shared helpers: the binary on a test database, a
/// plan made as `planner`.
mod plan;
/// The dashboard's tests' pseudo-terminal.
mod pty;
