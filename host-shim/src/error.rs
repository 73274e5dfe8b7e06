//! [`HostError`]: the host itself failing (no store, a file that is not a
//! database, a component that cannot load). A tool call's own failures are
//! the component's replies, never host errors.

/// The host itself failed: nothing the component said, but the machinery
/// around it (paths, the store, loading the component).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// No `--db`, `TASKLISTS_DB`, `XDG_DATA_HOME` or `HOME` to derive a path from.
    #[error("no database path: pass --db, or set TASKLISTS_DB, XDG_DATA_HOME or HOME")]
    NoDatabasePath,
    /// The store could not be opened (nothing was modified).
    #[error(transparent)]
    Store(#[from] tasklists_store::OpenError),
    /// The component could not be compiled, loaded, linked or instantiated.
    #[error("cannot load the tasklists component: {0}")]
    Component(String),
    /// The component trapped outside a tool call (catalogue, renderers).
    #[error("the component trapped: {0}")]
    Trap(String),
    /// The MCP server could not start or its connection failed.
    #[error("MCP server: {0}")]
    Mcp(String),
}
