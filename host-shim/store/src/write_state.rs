//! What a call's writes came to, as far as its store can tell. A host
//! reports it when it could not finish the call (a trap, its deadline), so
//! that the component's reply never says "nothing was changed" about a
//! write that stands, and an agent never repeats one that was applied.

/// Whether the writes of a call were committed. The order is how sure the
/// agent must make itself before retrying: a call with an unknown outcome
/// is [`MayBeApplied`](WriteState::MayBeApplied) even if an earlier
/// commit of it is known to have been applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum WriteState {
    /// No write of the call was committed: nothing changed.
    #[default]
    NotApplied,
    /// A write of the call was committed: it stands.
    Applied,
    /// A commit was sent and its outcome is unknown (the connection was
    /// lost during COMMIT, the host was stopped during it).
    MayBeApplied,
}

impl WriteState {
    /// The state after one more commit whose outcome is `next`.
    #[must_use]
    pub fn then(self, next: WriteState) -> WriteState {
        self.max(next)
    }

    /// The WIT `write-state` case (`not-applied`, `applied`,
    /// `may-be-applied`), as hosts that carry it by name spell it.
    pub fn wit_case(self) -> &'static str {
        match self {
            WriteState::NotApplied => "not-applied",
            WriteState::Applied => "applied",
            WriteState::MayBeApplied => "may-be-applied",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WriteState::{Applied, MayBeApplied, NotApplied};

    #[test]
    fn an_unknown_outcome_outweighs_a_known_one() {
        assert_eq!(NotApplied.then(NotApplied), NotApplied);
        assert_eq!(NotApplied.then(Applied), Applied);
        assert_eq!(Applied.then(NotApplied), Applied);
        assert_eq!(Applied.then(MayBeApplied), MayBeApplied);
        assert_eq!(MayBeApplied.then(Applied), MayBeApplied);
    }
}
