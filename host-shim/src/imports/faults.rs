//! Test-only faults around the store backend (feature `fault-injection`):
//! the N-th `execute` or `query` of a call fails as a host bug would, which
//! traps the component in the middle of its transaction. A fault fires once
//! and then disarms itself, so the call after it runs normally.

use std::fmt;

/// Which statement of the next call fails. `0` means "never".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaultInjection {
    /// The N-th `execute` of a call returns a host error, which traps the
    /// component (as a host bug would) in the middle of its transaction.
    pub trap_on_execute: u32,
    /// The same for the N-th `query`.
    pub trap_on_query: u32,
}

impl FaultInjection {
    /// Traps on the `n`-th `execute` (1-based) of the next call.
    pub fn trap_on_execute(n: u32) -> Self {
        FaultInjection {
            trap_on_execute: n,
            ..FaultInjection::default()
        }
    }

    /// Traps on the `n`-th `query` (1-based) of the next call.
    pub fn trap_on_query(n: u32) -> Self {
        FaultInjection {
            trap_on_query: n,
            ..FaultInjection::default()
        }
    }
}

/// The trap a [`FaultInjection`] raises (a host error, as a host bug would).
#[derive(Debug)]
pub(crate) struct InjectedFault(pub(crate) &'static str, pub(crate) u32);

impl fmt::Display for InjectedFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "injected host fault on {} #{}", self.0, self.1)
    }
}

impl std::error::Error for InjectedFault {}

/// The armed fault and the statements counted in the call in progress.
#[derive(Debug, Default)]
pub(crate) struct Faults {
    armed: Option<FaultInjection>,
    executes: u32,
    queries: u32,
}

impl Faults {
    /// Arms (or, with `None`, disarms) a fault.
    pub(crate) fn arm(&mut self, fault: Option<FaultInjection>) {
        self.armed = fault;
    }

    /// Counting starts again at each call.
    pub(crate) fn begin_call(&mut self) {
        self.executes = 0;
        self.queries = 0;
    }

    /// Counts an `execute`; fails if it is the armed one.
    pub(crate) fn on_execute(&mut self) -> Result<(), InjectedFault> {
        self.executes += 1;
        self.fire(|f| f.trap_on_execute, self.executes, "execute")
    }

    /// Counts a `query`; fails if it is the armed one.
    pub(crate) fn on_query(&mut self) -> Result<(), InjectedFault> {
        self.queries += 1;
        self.fire(|f| f.trap_on_query, self.queries, "query")
    }

    fn fire(
        &mut self,
        nth: impl Fn(&FaultInjection) -> u32,
        count: u32,
        what: &'static str,
    ) -> Result<(), InjectedFault> {
        match self.armed {
            Some(fault) if nth(&fault) == count => {
                self.armed = None;
                Err(InjectedFault(what, count))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_once_on_the_nth_statement_of_a_call() {
        let mut faults = Faults::default();
        faults.arm(Some(FaultInjection::trap_on_execute(2)));
        faults.begin_call();
        assert!(faults.on_query().is_ok());
        assert!(faults.on_execute().is_ok());
        let fault = faults.on_execute().unwrap_err();
        assert_eq!(fault.to_string(), "injected host fault on execute #2");
        // Disarmed: the next call runs normally.
        faults.begin_call();
        for _ in 0..3 {
            assert!(faults.on_execute().is_ok());
        }
    }
}
