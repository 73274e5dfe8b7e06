//! The `tasklists` binary's integration tests, as one test binary
//! (`--test cli`): each file of this directory is a module, named as the
//! file (`cargo test --release -p tasklists --test cli serve::` runs
//! `serve.rs`). One binary links wasmtime once instead of once per file.

mod cache_trust;
mod cli;
mod cli_dashboard;
mod cli_person;
mod cli_views;
mod inbox;
mod mcp_python;
mod notify;
mod serve;
mod store_privacy;

/// The called person's tests' shared helpers: an agent's question, work
/// finished for review.
mod called;
/// The person's tests' shared helpers: the binary on a test database, a
/// plan made as `planner`.
mod plan;
/// The dashboard's tests' pseudo-terminal.
mod pty;
