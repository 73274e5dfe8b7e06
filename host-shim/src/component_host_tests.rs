//! Host tests through the real component: limits, traps, rollback after a
//! trap, the sandbox's imports, and the clock. The contract itself is
//! tested in `tests/`; these only use a few stable actions.

use crate::{CallContext, ErrorCode, FaultInjection, Host, HostConfig, ManualClock, ToolError};
use std::path::Path;
use std::time::Duration;

fn config(dir: &Path) -> HostConfig {
    HostConfig::new(dir.join("tasks.db")).with_cache_dir(dir.join("cache"))
}

fn create_list(host: &mut Host, name: &str) -> Result<String, ToolError> {
    let request = format!(r#"{{"action":"create","params":{{"name":"{name}"}}}}"#);
    let out = host.call_json(&request, "task_lists", &CallContext::agent("tester"))?;
    Ok(out.data["list"]["id"]
        .as_str()
        .expect("list id")
        .to_string())
}

fn list_count(host: &mut Host) -> usize {
    let out = host
        .call_json(
            r#"{"action":"find"}"#,
            "task_lists",
            &CallContext::agent("tester"),
        )
        .unwrap();
    out.data["lists"].as_array().expect("lists").len()
}

/// The names of the tools in `host`'s catalogue, in order.
fn tool_names(host: &mut Host) -> Vec<String> {
    host.catalogue()
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect()
}

fn assert_trapped(err: &ToolError, needle: &str) {
    assert_eq!(err.code, ErrorCode::Internal, "{err:?}");
    assert!(
        err.message.starts_with("the component trapped: "),
        "{}",
        err.message
    );
    assert!(
        err.message.ends_with("; nothing was changed"),
        "{}",
        err.message
    );
    assert!(err.message.contains(needle), "{}", err.message);
}

#[test]
fn host_is_send() {
    fn assert_send<T: Send>() {}
    assert_send::<Host>();
}

#[test]
fn zero_timeout_traps_and_the_next_call_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = Host::open(config(dir.path()).with_call_timeout(Duration::ZERO)).unwrap();
    let err = host
        .call("task_help", "workflow", "", &CallContext::default())
        .unwrap_err();
    assert_trapped(&err, "time limit");
    host.set_call_timeout(Duration::from_secs(10));
    host.call("task_help", "workflow", "", &CallContext::default())
        .unwrap();
}

#[test]
fn a_trap_mid_transaction_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = Host::open(config(dir.path())).unwrap();
    create_list(&mut host, "first").unwrap();
    host.set_fault_injection(Some(FaultInjection::trap_on_execute(1)));
    let err = create_list(&mut host, "second").unwrap_err();
    assert_trapped(&err, "injected host fault on execute #1");
    // Rolled back, and the next call runs in a fresh instance.
    assert_eq!(list_count(&mut host), 1);
    create_list(&mut host, "third").unwrap();
    assert_eq!(list_count(&mut host), 2);
}

/// A deadline only stops the component in its own code, never inside a
/// store import: a commit that outlasts the call has returned by then, and
/// the reply says the change stands (never "nothing was changed").
#[test]
fn a_deadline_passed_during_a_commit_says_the_change_was_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = Host::open(config(dir.path())).unwrap();
    create_list(&mut host, "first").unwrap();
    host.set_call_timeout(Duration::from_millis(300));
    host.set_fault_injection(Some(FaultInjection::slow_commit(Duration::from_millis(
        900,
    ))));
    let err = create_list(&mut host, "second").unwrap_err();
    assert_eq!(err.code, ErrorCode::Internal, "{err:?}");
    assert!(
        err.message.contains("time limit")
            && err
                .message
                .ends_with("; its change had been committed and was saved"),
        "{}",
        err.message
    );
    assert!(err.hint.contains("task_lists get"), "{}", err.hint);
    host.set_call_timeout(Duration::from_secs(10));
    assert_eq!(list_count(&mut host), 2, "the write stands");
}

#[test]
fn the_memory_cap_traps() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = Host::open(config(dir.path()).with_memory_limit(64 << 10)).unwrap();
    let err = host
        .call("task_help", "workflow", "", &CallContext::default())
        .unwrap_err();
    assert_trapped(&err, "memory");
}

/// A call without a reply (here the catalogue) that traps is the host's
/// error, in the component's words for the failure (`describe-failure`,
/// asked of a fresh instance under the reply's own limits).
#[test]
fn a_trapped_call_without_a_reply_is_worded_by_the_component() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = Host::open(config(dir.path()).with_call_timeout(Duration::ZERO)).unwrap();
    let err = host.catalogue().unwrap_err();
    assert_eq!(
        err.to_string(),
        "the component trapped: the call ran past its time limit of 0 ms"
    );
    host.set_call_timeout(Duration::from_secs(10));
    assert_eq!(tool_names(&mut host), FIVE_TOOLS);
}

#[test]
fn oversized_params_never_reach_the_component() {
    let dir = tempfile::tempdir().unwrap();
    // With a zero timeout, entering the component would trap: getting
    // invalid_params proves the host refused first.
    let cfg = config(dir.path())
        .with_call_timeout(Duration::ZERO)
        .with_max_params_bytes(1024);
    let mut host = Host::open(cfg).unwrap();
    let params = format!(r#"{{"name":"{}"}}"#, "x".repeat(2048));
    let err = host
        .call("task_lists", "create", &params, &CallContext::agent("a"))
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidParams, "{err:?}");
    let request = format!(r#"{{"action":"create","params":{params}}}"#);
    let err = host
        .call_json(&request, "task_lists", &CallContext::agent("a"))
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidParams, "{err:?}");
}

#[test]
fn imports_are_store_clock_and_wasi_only() {
    let dir = tempfile::tempdir().unwrap();
    let host = Host::open(config(dir.path())).unwrap();
    let imports = host.component_imports();
    assert!(
        imports
            .iter()
            .any(|i| i.starts_with("tasklists:component/store@")),
        "{imports:?}"
    );
    assert!(
        imports
            .iter()
            .any(|i| i.starts_with("tasklists:component/clock@")),
        "{imports:?}"
    );
    for import in &imports {
        let ours = ["store", "clock", "types"]
            .iter()
            .any(|i| import.starts_with(&format!("tasklists:component/{i}@")));
        assert!(
            ours || import.starts_with("wasi:"),
            "unexpected import {import}"
        );
    }
}

/// The contract's five tools, in catalogue order.
const FIVE_TOOLS: [&str; 5] = [
    "task_lists",
    "task_items",
    "task_claims",
    "task_audit",
    "task_help",
];

#[test]
fn catalogue_has_the_five_tools() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = Host::open(config(dir.path())).unwrap();
    let names = tool_names(&mut host);
    assert_eq!(names, FIVE_TOOLS);
}

#[test]
fn errors_render_through_the_component() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = Host::open(config(dir.path())).unwrap();
    let err = ToolError {
        code: ErrorCode::Conflict,
        message: "task_x is claimed by b2".into(),
        hint: "claim another".into(),
    };
    let text = crate::render_ansi(&host.render_error(&err).unwrap(), false);
    assert!(text.contains("task_x is claimed by b2"), "{text}");
}

#[test]
fn the_clock_import_is_the_configured_clock() {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::new(1_767_225_600_000); // 2026-01-01T00:00:00Z
    let mut host = Host::open(config(dir.path()).with_clock(clock.shared())).unwrap();
    let out = host
        .call_json(
            r#"{"action":"create","params":{"name":"l"}}"#,
            "task_lists",
            &CallContext::agent("a"),
        )
        .unwrap();
    assert_eq!(out.data["list"]["created_at"], "2026-01-01T00:00:00.000Z");
}

#[test]
fn every_cache_dir_gets_the_compiled_component() {
    let dir = tempfile::tempdir().unwrap();
    let _host = Host::open(config(dir.path())).unwrap();
    let cached: Vec<_> = std::fs::read_dir(dir.path().join("cache"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
    assert!(
        cached[0].ends_with(".cwasm") && cached[0].starts_with(&crate::component_sha256()[..16])
    );
}

#[test]
fn a_lazy_host_touches_the_database_only_for_calls_that_need_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let mut host = Host::open_lazily(config(dir.path())).unwrap();
    assert_eq!(tool_names(&mut host), FIVE_TOOLS);
    host.call("task_help", "all", "", &CallContext::default())
        .unwrap();
    assert!(!db.exists(), "task_help and the catalogue need no database");
    create_list(&mut host, "first").unwrap();
    assert!(db.exists());
    assert_eq!(list_count(&mut host), 1);
}
