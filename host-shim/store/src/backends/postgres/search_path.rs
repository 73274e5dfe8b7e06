//! Which schema a connection's unqualified names resolve in: the one the
//! component owns, and no other.
//!
//! The component's SQL names its tables unqualified and creates them in
//! the first schema of the role's `search_path` that exists
//! (`current_schema()`: `public` by default; a connection string picks
//! another with `options=-c search_path=…`). Left as the role has it, the
//! rest of that path takes part too: a table the store's schema does not
//! have yet (before the first migration, say) is found in a later schema,
//! another application's, and functions or operators anyone may create in
//! `public` (before PostgreSQL 15) can stand in for the catalogue's. So
//! every connection, right after it is made, pins its `search_path` to
//! that one schema for the whole session: `pg_catalog` before it (as
//! always), `pg_temp` last (so no temporary object shadows a name).

use super::errors::{Failure, chain};
use std::time::Duration;
use tokio_postgres::SimpleQueryMessage;

/// Sets the session's `search_path` to its current schema alone; no row
/// when the role's path names no schema that exists (and it may use).
pub(super) const PIN: &str = "SELECT pg_catalog.set_config('search_path', \
     pg_catalog.quote_ident(own) || ', pg_temp', false) \
     FROM (SELECT pg_catalog.current_schema() AS own) AS s WHERE own IS NOT NULL";

/// What running [`PIN`] on a new connection (within `limit`) came to:
/// pinned, or why not. The session runs it (this module names no session:
/// the session depends on it, not the other way).
pub(super) fn pinned(
    ran: Result<Vec<SimpleQueryMessage>, Failure>,
    limit: Duration,
) -> Result<(), String> {
    let messages = ran.map_err(|failure| match failure {
        Failure::Pg(e) => match e.as_db_error() {
            Some(db) => format!(
                "cannot set the search_path: {} (SQLSTATE {})",
                db.message(),
                db.code().code()
            ),
            None => format!("cannot set the search_path: {}", chain(&e)),
        },
        Failure::TimedOut => format!(
            "the server did not answer within {} ms (setting the search_path)",
            limit.as_millis()
        ),
    })?;
    if messages
        .iter()
        .any(|m| matches!(m, SimpleQueryMessage::Row(_)))
    {
        Ok(())
    } else {
        Err(
            "the role's search_path names no schema that exists and it may use: create one, \
             or name one with options=-c search_path=…"
                .into(),
        )
    }
}
