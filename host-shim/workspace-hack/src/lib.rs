//! No code: this crate exists for its `Cargo.toml`, which turns on the
//! features the whole workspace's test build gives shared dependencies,
//! so that the `tasklists` binary and the Node addon, built alone, get the
//! same ones and their dependencies are compiled once (see its manifest).
