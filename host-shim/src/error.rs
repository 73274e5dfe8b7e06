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
    /// A call that has no reply (catalogue, renderers, views) or the
    /// reply to a failed call could not be had: the component's words for
    /// why (WIT `describe-failure`).
    #[error("{0}")]
    Trap(String),
    /// The component failed, and a fresh instance could not word why
    /// either (it failed too, or the host lost its store): the failure as
    /// the host classified it.
    #[error("the component failed and could not say why: {0:?}")]
    Unworded(crate::bindings::FailureKind),
}
