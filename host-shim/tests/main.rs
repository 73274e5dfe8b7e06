//! The host library's integration tests, as one test binary (`--test
//! host`): each file of this directory is a module, named as the file.
//! The `tasklists` binary's own tests (the CLI, MCP, the board, the
//! dashboard) are in `host-shim/tasklists/tests/`.

mod wasm_target;

/// Tests that must run alone in a process of their own.
// The same child-process runner as the contract suite's, one file.
#[path = "../../tests/src/alone.rs"]
mod alone;
