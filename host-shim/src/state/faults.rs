//! Test-only faults around the store backend (feature `fault-injection`):
//! the N-th `execute` or `query` of a call fails as a host bug would, which
//! traps the component in the middle of its transaction; or a query result
//! is flooded with copies of its rows, so that the component itself runs
//! away (walks millions of rows until its deadline or memory cap stops
//! it); or a write's commit is slow, so the call's deadline passes while
//! the host is inside it. A fault fires once and then disarms itself, so
//! the call after it runs normally.

use std::fmt;
use std::time::Duration;
use tasklists_store::Rows;

/// Which statement of the next call fails. `0` means "never".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaultInjection {
    /// The N-th `execute` of a call returns a host error, which traps the
    /// component (as a host bug would) in the middle of its transaction.
    pub trap_on_execute: u32,
    /// The same for the N-th `query`.
    pub trap_on_query: u32,
    /// The first non-empty query result of the next call is padded with
    /// copies of its own rows to about this many values (rows × columns,
    /// so the host's memory for it stays bounded whatever the query): the
    /// component must walk them all, as it would a runaway result. `0`
    /// means "never".
    pub flood_values: usize,
    /// The next commit of a write sleeps this long after its COMMIT returned, as a
    /// slow disk or server would: the call's deadline can pass inside the
    /// `commit` import. Zero means "never".
    pub commit_delay: Duration,
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

impl FaultInjection {
    /// Floods the first non-empty query result of the next call to about
    /// `values` values.
    pub fn flood_query(values: usize) -> Self {
        FaultInjection {
            flood_values: values,
            ..FaultInjection::default()
        }
    }

    /// Makes the next commit take `delay` longer, after its COMMIT.
    pub fn slow_commit(delay: Duration) -> Self {
        FaultInjection {
            commit_delay: delay,
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

    /// How long the commit that just returned must still take: the first
    /// one after a write of the call was committed (`wrote`), once.
    pub(crate) fn on_commit(&mut self, wrote: bool) -> Duration {
        match self.armed.take() {
            Some(fault) if wrote && !fault.commit_delay.is_zero() => fault.commit_delay,
            other => {
                self.armed = other;
                Duration::ZERO
            }
        }
    }

    /// Floods `rows` if a flood is armed and `rows` has something to copy.
    pub(crate) fn on_rows(&mut self, rows: &mut Rows) {
        let Some(fault) = self.armed.filter(|f| f.flood_values > 0) else {
            return;
        };
        if rows.is_empty() {
            return;
        }
        self.armed = None;
        let copied = rows.values();
        let have = copied.len();
        let width = rows.width().max(1);
        for i in have..fault.flood_values.div_ceil(width) {
            for value in &copied[i % have] {
                rows.push(value.clone());
            }
        }
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

    #[test]
    fn floods_the_first_non_empty_result_once() {
        use tasklists_store::Value;
        let mut faults = Faults::default();
        faults.arm(Some(FaultInjection::flood_query(5)));
        faults.begin_call();
        let mut empty = Rows::default();
        faults.on_rows(&mut empty);
        assert!(empty.is_empty(), "nothing to copy: stays armed");
        let mut rows = Rows::from_values(1, vec![vec![Value::Integer(1)], vec![Value::Integer(2)]]);
        faults.on_rows(&mut rows);
        let xs: Vec<_> = rows.values().iter().map(|r| r[0].clone()).collect();
        assert_eq!(
            xs,
            [1, 2, 1, 2, 1].map(Value::Integer),
            "padded with copies, in order"
        );
        let mut again = Rows::from_values(1, vec![vec![Value::Integer(1)]]);
        faults.on_rows(&mut again);
        assert_eq!(again.len(), 1, "fired once");
    }
}
