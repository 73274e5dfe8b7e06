//! The `tasklists` command line as a user runs it (this build's binary):
//! what needs no database works without one, a broken database is the
//! contract's `storage` error, and `--json` prints nothing raw.

use std::path::Path;
use std::process::{Command, Output};

fn tasklists(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tasklists"))
        .arg("--db")
        .arg(db)
        .args(["--agent-id", "cli-test", "--color", "never"])
        .args(args)
        .env_remove("TASKLISTS_DB")
        .env_remove("TASKLISTS_AGENT_ID")
        .env(
            "TASKLISTS_CACHE_DIR",
            std::env::temp_dir().join("tasklists-tests-cache"),
        )
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn task_help_and_the_catalogue_need_no_database() {
    let dir = tempfile::tempdir().unwrap();
    // The database would have to live inside a regular file.
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let db = blocker.join("tasks.db");
    let help = tasklists(&db, &["call", "task_help", r#"{"action":"workflow"}"#]);
    assert!(help.status.success(), "{help:?}");
    assert!(stdout(&help).contains("claim_next"), "{}", stdout(&help));
    let tools = tasklists(&db, &["tools", "--json"]);
    assert!(tools.status.success(), "{tools:?}");
    let catalogue: serde_json::Value = serde_json::from_slice(&tools.stdout).unwrap();
    assert_eq!(catalogue.as_array().map(Vec::len), Some(5));
    // A call that needs the store: the contract's error, exit code 1.
    let find = tasklists(
        &db,
        &["call", "--json", "task_lists", r#"{"action":"find"}"#],
    );
    assert_eq!(find.status.code(), Some(1), "{find:?}");
    let error: serde_json::Value = serde_json::from_slice(&find.stdout).unwrap();
    assert_eq!(error["error"]["code"], "storage");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot create the directory"),
        "{error}"
    );
    assert_eq!(
        std::fs::read_to_string(&blocker).unwrap(),
        "not a directory"
    );
}

#[test]
fn json_output_escapes_what_a_terminal_would_obey() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let evil = "title\u{1b}[2J\u{9b}31m\u{9d}0;x\u{7}\u{7f}\u{202e}txt.exe\u{200b}";
    let request = serde_json::json!({"action": "create", "params": {"name": evil}});
    for args in [["call", "--json"], ["call", "--color=always"]] {
        let out = tasklists(&db, &[args[0], args[1], "task_lists", &request.to_string()]);
        assert!(out.status.success(), "{out:?}");
        let text = stdout(&out);
        assert_eq!(
            text.contains('\u{1b}'),
            args[1] == "--color=always",
            "colors only when asked: {text:?}"
        );
        // Only the colors the renderer asks for (ESC [ … m): nothing the
        // title carried.
        let without_colors = strip_sgr(&text);
        for c in [
            '\u{1b}', '\u{9b}', '\u{9d}', '\u{7}', '\u{7f}', '\u{202e}', '\u{200b}',
        ] {
            assert!(
                !without_colors.contains(c),
                "{args:?}: raw U+{:04X} in {text:?}",
                c as u32
            );
        }
    }
}

/// `text` without the SGR color sequences (`ESC [ digits ; … m`) a
/// renderer writes itself.
fn strip_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(after.len());
        if after[end..].starts_with('m') {
            rest = &after[end + 1..];
        } else {
            out.push_str("\u{1b}[");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}
