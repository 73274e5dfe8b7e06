//! Tests that need a process of their own inside a test binary whose
//! tests run side by side in one process (the contract suite's, and the
//! host's, which includes this file by path). A test that measures the
//! process itself (its RSS, as the runaway tests do) would read its
//! neighbours' allocations too, and a fresh script another test's fork
//! holds open is "Text file busy" (`wasm_target`'s fake toolchains): such
//! a test runs again alone, in a child process of the same binary, and the
//! copy that the harness started only waits for it and reports its outcome.

use std::process::Command;

/// The variable that tells a child process which test it runs alone.
const ALONE: &str = "TASKLISTS_TEST_ALONE";

/// Runs the calling test `test` (its full name, `module::function`) alone
/// in a child process of this test binary. Returns `true` in the copy the
/// harness started, once the child has passed (its output printed, a
/// failure panics with it); `false` in the child, which runs the body.
pub fn in_own_process(test: &str) -> bool {
    if std::env::var(ALONE).as_deref() == Ok(test) {
        return false;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(ALONE, test)
        .output()
        .expect("run the test in its own process");
    let stdout = String::from_utf8_lossy(&out.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "{test}, alone in its own process, failed ({})",
        out.status
    );
    // A name that matched nothing would pass having run nothing.
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "{test} did not run in its own process (no such test?)"
    );
    true
}
