//! A component that runs away under a normal, non-zero deadline: a
//! fault-injection hook (`FaultInjection::flood_query`, feature
//! `fault-injection`) answers the call's first non-empty query with
//! millions of copies of its rows, which the component must take in and
//! walk in wasm code. Proves that the epoch deadline stops it within the
//! call timeout plus a margin, or the memory cap stops it, with a typed
//! `internal` error; that nothing was written (raw dump before == after);
//! that the next call on the same host works; and that twenty runaways in
//! a row do not make the host process grow without bound.
//!
//! Zero timeouts and host traps mid-transaction are covered by
//! `robustness.rs` and `host-shim/src/component_host_tests.rs`.
//!
//! Bounded (CI): 20 runaways per test. Long: `TASKLISTS_TORTURE=long`
//! runs 200.
//!
//! `cargo test --release -p tasklists-tests --test contract runaway:: -- --nocapture`

use crate::torture;

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};
use tasklists_tests::*;
use torture::{pick, rss_kib};

/// Why this file's tests skip themselves on PostgreSQL.
const ON_POSTGRES: &str = "the deadline and the memory cap are the host's, whatever the store: they ran in the SQLite pass";

/// The host's RSS is the whole test process's: each test here runs alone
/// in a process of its own ([`in_own_process`]), so that its growth check
/// never reads another test's allocations (the suite is one binary), and
/// the two take turns, so that one's floods (the memory test alone moves
/// RSS by hundreds of MiB) never slow the other's deadline.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const A: &str = "builder-1";

/// The call timeout of the deadline test: an ordinary limit, long enough
/// for every real call here (a few ms) and far below what the flood needs.
const TIMEOUT: Duration = Duration::from_millis(800);

/// Epoch ticks (10 ms), unwinding the instance and the component's own
/// reply to the failure (`failed`, a fresh instance, a few ms): what a
/// stopped call may take beyond its timeout on a loaded 2-core machine.
const MARGIN: Duration = Duration::from_millis(1200);

/// Arms a flood of `values`, runs one write, and checks it fails typed,
/// within `bound`, changing nothing; then that the next call works.
/// Returns the elapsed time of the runaway call.
fn runaway_write(
    db: &TestDb,
    list: &str,
    values: usize,
    needle: &str,
    bound: Duration,
) -> Duration {
    try_runaway_write(db, list, values, needle, bound)
        .unwrap_or_else(|done| panic!("the runaway call succeeded: {done}"))
}

/// [`runaway_write`], except that a call which managed to finish (the
/// flood was not enough on a machine running faster than when it was
/// sized) is returned as `Err(its reply)` instead of failing the test.
fn try_runaway_write(
    db: &TestDb,
    list: &str,
    values: usize,
    needle: &str,
    bound: Duration,
) -> Result<Duration, String> {
    let before = db.dump();
    let (result, elapsed) = flooded_create(db, list, values, "never written");
    let e = match result {
        Ok(out) => return Err(out.to_content_text()),
        Err(e) => e,
    };
    expect(&e, ErrorCode::Internal, &[needle, "nothing was changed"]);
    assert!(!e.hint.is_empty(), "{}", e.message);
    assert!(
        elapsed < bound,
        "stopped after {elapsed:?}, bound {bound:?}: {}",
        e.message
    );
    assert_eq!(db.dump(), before, "the runaway call wrote something");
    // The host survived: the very next call works, on a fresh instance.
    let g = db.get(A, list);
    assert!(g["tasks"].as_array().is_some());
    Ok(elapsed)
}

/// One `task_items create` of `title` with a flood of `values` armed for
/// it (disarmed after): its outcome and how long it took.
fn flooded_create(
    db: &TestDb,
    list: &str,
    values: usize,
    title: &str,
) -> (Result<ToolOutput, ToolError>, Duration) {
    db.host()
        .set_fault_injection(Some(FaultInjection::flood_query(values)));
    let started = Instant::now();
    let result = db.call(
        &ctx(A),
        "task_items",
        "create",
        &json!({"list_id": list, "title": title}),
    );
    let elapsed = started.elapsed();
    db.host().set_fault_injection(None);
    (result, elapsed)
}

/// How many values the flood needs so that the component cannot finish
/// within [`TIMEOUT`]: grown until a flood times out (printed).
fn values_that_time_out(db: &TestDb, list: &str) -> usize {
    let mut values = 1 << 20;
    loop {
        let before = db.dump();
        let (result, elapsed) = flooded_create(db, list, values, "probe");
        match result {
            Err(e) if e.message.contains("time limit") => {
                eprintln!("runaway: {values} values time out ({elapsed:?})");
                assert_eq!(db.dump(), before);
                return values;
            }
            other => {
                eprintln!(
                    "runaway: {values} values: {:?} in {elapsed:?}",
                    other.as_ref().map(|_| "ok").map_err(|e| &e.message)
                );
                assert!(
                    values < 1 << 27,
                    "no flood size made the component run past {TIMEOUT:?}"
                );
                // A flood the component survived may have written: start
                // the next probe from the state it left.
                values *= 2;
            }
        }
    }
}

#[test]
fn a_runaway_component_is_stopped_at_its_deadline_and_the_host_goes_on() {
    if skip_on_postgres(
        "runaway::a_runaway_component_is_stopped_at_its_deadline_and_the_host_goes_on",
        ON_POSTGRES,
    ) {
        return;
    }
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    if in_own_process(
        "runaway::a_runaway_component_is_stopped_at_its_deadline_and_the_host_goes_on",
    ) {
        return;
    }
    let rounds = pick("runaway deadline", 20usize, 200);
    // Memory is not what stops it here: a cap of 2 GiB leaves the deadline.
    let db = TestDb::with_config(|c| c.with_call_timeout(TIMEOUT).with_memory_limit(2 << 30));
    let list = db.list(A, "Work");
    db.add(&list, &["one", "two", "three"]);
    let mut values = values_that_time_out(&db, &list);
    let mut times = Vec::new();
    let mut rss = Vec::new();
    for _ in 0..rounds {
        // The flood was sized by time, on a machine whose load varies: a
        // round that finished anyway is run again with twice the flood,
        // so that every round counted is a real runaway, stopped.
        let elapsed = loop {
            match try_runaway_write(&db, &list, values, "time limit", TIMEOUT + MARGIN) {
                Ok(elapsed) => break elapsed,
                Err(done) => {
                    eprintln!("runaway: {values} values finished this time ({done}); doubling");
                    values *= 2;
                    assert!(
                        values < 1 << 27,
                        "no flood size made the component run past {TIMEOUT:?}"
                    );
                }
            }
        };
        times.push(elapsed);
        rss.push(rss_kib(std::process::id()).unwrap_or(0));
    }
    times.sort();
    eprintln!(
        "runaway: {rounds} runaways of {values} values stopped after {:?} (median), {:?} (max), timeout {TIMEOUT:?}; host RSS {} -> {} MiB",
        times[times.len() / 2],
        times[times.len() - 1],
        rss[0] >> 10,
        rss[rss.len() - 1] >> 10,
    );
    assert_bounded_growth(&rss);
    db.add(&list, &["after"]);
}

#[test]
fn a_runaway_into_the_memory_cap_is_stopped_and_the_host_goes_on() {
    if skip_on_postgres(
        "runaway::a_runaway_into_the_memory_cap_is_stopped_and_the_host_goes_on",
        ON_POSTGRES,
    ) {
        return;
    }
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    if in_own_process("runaway::a_runaway_into_the_memory_cap_is_stopped_and_the_host_goes_on") {
        return;
    }
    let rounds = pick("runaway memory", 20usize, 200);
    // The default cap (64 MiB) and a timeout far beyond what the flood needs
    // to fill it: the memory cap is what stops the component.
    let db = TestDb::with_config(|c| c.with_call_timeout(Duration::from_secs(10)));
    let list = db.list(A, "Work");
    db.add(&list, &["one", "two", "three"]);
    let mut times = Vec::new();
    let mut rss = Vec::new();
    for _ in 0..rounds {
        times.push(runaway_write(
            &db,
            &list,
            16 << 20,
            "memory",
            Duration::from_secs(10),
        ));
        rss.push(rss_kib(std::process::id()).unwrap_or(0));
    }
    times.sort();
    eprintln!(
        "runaway: {rounds} runaways into the memory cap stopped after {:?} (median), {:?} (max); host RSS {} -> {} MiB",
        times[times.len() / 2],
        times[times.len() - 1],
        rss[0] >> 10,
        rss[rss.len() - 1] >> 10,
    );
    assert_bounded_growth(&rss);
    db.add(&list, &["after"]);
}

/// The host's memory after the later runaways is not much above what it
/// was after the first few: no instance, flood or trap is kept around.
fn assert_bounded_growth(rss: &[u64]) {
    assert!(rss.iter().all(|&r| r > 0), "no RSS reading from /proc");
    let settled = rss[..3.min(rss.len())].iter().copied().max().unwrap();
    let last = *rss.last().unwrap();
    assert!(
        last <= settled + (256 << 10),
        "the host grew from {} MiB to {} MiB over {} runaways",
        settled >> 10,
        last >> 10,
        rss.len()
    );
}
