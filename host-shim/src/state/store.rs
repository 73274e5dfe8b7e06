//! The store an instance reaches, as data: the session it runs on (which
//! outlives instances: a trapped instance is discarded, its connection is
//! kept), the faults a test arms around it, and the host side of the
//! WIT's `transaction` resource. The import's functions over it live in
//! `crate::imports::store`; the bindings name [`Transaction`] as the
//! resource's type, so it sits below both.

#[cfg(any(test, feature = "fault-injection"))]
use tasklists_store::WriteState;
use tasklists_store::{Session, TxId};

#[cfg(any(test, feature = "fault-injection"))]
use super::faults::Faults;

/// The host side of a `transaction` resource: which transaction it is.
#[derive(Debug)]
pub struct Transaction {
    /// The session's transaction.
    pub(crate) id: TxId,
}

/// The store a component instance reaches: a session, and (in test
/// builds) the faults armed around it.
pub(crate) struct StoreImport {
    session: Session,
    #[cfg(any(test, feature = "fault-injection"))]
    pub(crate) faults: Faults,
}

impl StoreImport {
    /// The import over `session`.
    pub(crate) fn new(session: Session) -> Self {
        StoreImport {
            session,
            #[cfg(any(test, feature = "fault-injection"))]
            faults: Faults::default(),
        }
    }

    /// The session, for what the host does around calls.
    pub(crate) fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The pause a test armed after a commit, given what it came to.
    #[cfg(any(test, feature = "fault-injection"))]
    pub(crate) fn after_commit_fault(&mut self) {
        let applied = self.session.write_state() != WriteState::NotApplied;
        std::thread::sleep(self.faults.on_commit(applied));
    }

    /// Starts a tool call.
    pub(crate) fn begin_call(&mut self) {
        #[cfg(any(test, feature = "fault-injection"))]
        self.faults.begin_call();
        self.session.begin_call();
    }
}
