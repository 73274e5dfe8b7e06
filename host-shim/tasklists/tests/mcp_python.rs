//! The MCP server under a client nobody here wrote: runs `tests/mcp/`
//! (pytest + the official MCP Python SDK) against this build's `tasklists`
//! binary. The Python environment is `.venv` at the repository root,
//! created or refreshed by `scripts/python-env` from the pinned
//! `tests/mcp/requirements.txt` (PyPI) when it is missing or stale.

use std::path::Path;
use std::process::Command;

#[test]
fn mcp_server_passes_the_python_sdk_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("host-shim/tasklists sits in the workspace");
    let env = Command::new("bash")
        .arg(root.join("scripts/python-env"))
        .status()
        .expect("bash runs scripts/python-env");
    assert!(
        env.success(),
        "scripts/python-env could not build .venv (Python 3.10+ and PyPI are needed)"
    );
    // pytest writes straight to the terminal: its report is the test's.
    let pytest = Command::new(root.join(".venv/bin/python"))
        .args(["-m", "pytest", "-p", "no:cacheprovider", "-q", "tests/mcp"])
        .env("TASKLISTS_BIN", env!("CARGO_BIN_EXE_tasklists"))
        .current_dir(root)
        .status()
        .expect(".venv/bin/python runs");
    assert!(
        pytest.success(),
        "the MCP suite failed: see pytest's report above"
    );
}
