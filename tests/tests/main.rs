//! The contract suite and the torture tests of `tasklists-tests`, as one
//! test binary (`--test contract`): each file of this directory is a
//! module, named as the file (`cargo test --release -p tasklists-tests
//! --test contract claims::` runs `claims.rs`). One binary links wasmtime
//! once instead of once per file, and one command runs every test on the
//! store under test (`TASKLISTS_TEST_STORE=postgres` for PostgreSQL; the
//! tests that are SQLite's only say so and skip themselves there).

mod approval;
mod atomicity;
mod audit;
mod called;
mod catalogue;
mod claims;
mod edge_cases;
mod fuzz;
mod identity;
mod items;
mod labels;
mod lists;
mod migrations;
mod person;
mod postgres_store;
mod priority;
mod privacy;
mod race;
mod renderers;
mod robustness;
mod round_trips;
mod runaway;
mod safe_text;
mod scale;
mod storage_faults;
mod torture_kill;
mod torture_race;
mod transfer;
mod transfer_real;
mod update_rules;
mod validation;

/// Shared by the torture tests (`torture_race`, `torture_kill`,
/// `storage_faults`, `runaway`).
mod torture;
