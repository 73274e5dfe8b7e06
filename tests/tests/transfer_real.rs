//! Real trackers' files (issue 36): Beads' and Taskmaster's own and other
//! public projects', listed in `tests/fixtures/real/manifest.json` with
//! the repository, commit and SHA-256 of each (where each came from:
//! `tests/fixtures/README.md`). Each is imported whole through the real
//! component on the suite's store (`TASKLISTS_TEST_STORE=postgres`:
//! PostgreSQL), with no refusal and a report; every list it made is
//! exported as JSON and checked against the SOURCE by an independent
//! reader, `tests/fixtures/check_import.py` (counts, statuses,
//! priorities, texts, refs, dependencies, labels when kept, times, and
//! what the report must say); then each export is imported back and
//! exported again: the same tasks, every field and time, and the same
//! approval requirement (one fixture goes into a list that requires it).

use std::path::PathBuf;
use std::process::Command;
use tasklists_host::{Format, ImportRequest};
use tasklists_tests::*;

const A: &str = "planner";

/// Where the real files are, next to their manifest.
fn real_dir() -> PathBuf {
    fixtures().join("real")
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The manifest's entries: (file, format).
fn manifest() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(fixtures().join("real/manifest.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (s(f, "/file"), s(f, "/format")))
        .collect()
}

/// Runs the independent reader with `args`; its output (panics, with it,
/// when it finds a mismatch).
fn checker(args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new("python3")
        .arg(fixtures().join("check_import.py"))
        .args(args)
        .output()
        .expect("python3 runs tests/fixtures/check_import.py");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "check_import.py {args:?}:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Whether the component keeps labels (the work adding them to tasks may
/// not have landed): a task created with one shows it.
fn labels_kept(db: &TestDb) -> bool {
    let list = db.list(A, "Labels probe");
    let params = json!({"list_id": list, "title": "probe", "labels": ["probe"]});
    db.call(&ctx(A), "task_items", "create", &params)
        .is_ok_and(|out| out.data["task"]["labels"] == json!(["probe"]))
}

/// The import of `text` as `format`, nothing else set (the transfer
/// tests' own request).
fn request(text: String, format: Format) -> ImportRequest {
    crate::transfer::request(&text, Some(format))
}

/// Imports `req`; the result's JSON, which must not be a refusal.
fn import(db: &TestDb, req: &ImportRequest, what: &str) -> Value {
    let r = db.host().import_text(req, &ctx(A)).expect("import_text");
    assert!(!r.failed, "{what} refused: {}", r.text);
    serde_json::from_str(&r.text).unwrap()
}

fn export(db: &TestDb, list: &str) -> String {
    let r = db.host().export_list(list, Format::Json, &ctx(A)).unwrap();
    assert!(!r.failed, "export refused: {}", r.text);
    r.text
}

/// A JSON export's tasks, every field (ids and positions aside: a
/// dependency by the position and title of the task it names), and the
/// list's name and approval requirement.
fn shape(export: &str) -> Value {
    let doc: Value = serde_json::from_str(export).unwrap();
    let tasks = doc["tasks"].as_array().unwrap();
    let named = |id: &Value| {
        let t = tasks.iter().find(|t| t["id"] == *id).unwrap();
        json!([t["position"], t["title"]])
    };
    let tasks: Vec<Value> = tasks
        .iter()
        .map(|t| {
            let mut t = t.as_object().unwrap().clone();
            for key in ["id", "list_id"] {
                t.remove(key);
            }
            if let Some(deps) = t.get_mut("depends_on") {
                *deps = deps.as_array().unwrap().iter().map(named).collect();
            }
            Value::Object(t)
        })
        .collect();
    json!({
        "name": doc["list"]["name"],
        "requires_approval": !doc["list"]["approval"].is_null(),
        "approval": doc["list"]["approval"]["state"],
        "tasks": tasks,
    })
}

/// The fixture that goes into a list requiring a person's approval, so
/// that the round trip carries the requirement.
const INTO_APPROVAL: &str = "beads/nathandela-compound-agent-0d5aec8.jsonl";

/// Imports the real file `file` whole, checks it against its source, and
/// each list through JSON and back.
fn real(file: &str) {
    let (_, format) = manifest()
        .into_iter()
        .find(|(f, _)| f == file)
        .unwrap_or_else(|| panic!("{file} is not in tests/fixtures/real/manifest.json"));
    let path = real_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let db = TestDb::new();
    let fmt = if format == "beads" {
        Format::Beads
    } else {
        Format::Taskmaster
    };
    let mut req = request(text, fmt);
    let approval = file == INTO_APPROVAL;
    if approval {
        let made = db.ok(
            A,
            "task_lists",
            "create",
            json!({"name": "Imported plan", "requires_approval": true}),
        );
        req.into = Some(s(&made, "/list/id"));
    }
    let imported = import(&db, &req, file);
    let report = &imported["report"];
    assert!(
        ["changed", "kept_as_refs", "dropped"]
            .iter()
            .any(|k| !report[k].as_array().unwrap().is_empty()),
        "{file}: every real file here has something to report: {report}"
    );

    let dir = tempfile::tempdir().unwrap();
    let import_json = dir.path().join("import.json");
    std::fs::write(&import_json, imported.to_string()).unwrap();
    let mut exports = Vec::new();
    for (n, one) in imported["lists"].as_array().unwrap().iter().enumerate() {
        let list = s(one, "/list/id");
        let text = export(&db, &list);
        let out = dir.path().join(format!("export-{n}.json"));
        std::fs::write(&out, &text).unwrap();
        exports.push((text, out));
    }
    assert!(
        !approval || shape(&exports[0].0)["approval"] == "pending",
        "{file}: the list requires approval"
    );

    let mut args: Vec<&std::ffi::OsStr> = vec![
        "check".as_ref(),
        "--format".as_ref(),
        format.as_ref(),
        "--source".as_ref(),
        path.as_os_str(),
        "--import".as_ref(),
        import_json.as_os_str(),
    ];
    let labels = labels_kept(&db);
    if labels {
        args.push("--labels".as_ref());
    }
    args.extend(exports.iter().map(|(_, p)| p.as_os_str()));
    print!("{}", checker(&args));

    // JSON export → import → JSON export: the same tasks and approval
    // requirement, and nothing the second import had to change.
    for (text, _) in &exports {
        let again = import(&db, &request(text.clone(), Format::Json), file);
        let report = &again["report"];
        for k in ["changed", "kept_as_refs", "dropped"] {
            assert_eq!(
                report[k],
                json!([]),
                "{file}: re-importing its export changed something"
            );
        }
        let copy = export(&db, &s(&again, "/list/id"));
        let (before, after) = (shape(text), shape(&copy));
        assert_eq!(before["requires_approval"], after["requires_approval"]);
        assert_eq!(before["name"], after["name"]);
        let (b, a) = (
            before["tasks"].as_array().unwrap(),
            after["tasks"].as_array().unwrap(),
        );
        assert_eq!(b.len(), a.len(), "{file}: tasks");
        for (x, y) in b.iter().zip(a) {
            assert_eq!(x, y, "{file}: a task changed through JSON");
        }
    }
}

#[test]
fn the_files_are_the_manifests_byte_for_byte() {
    print!(
        "{}",
        checker(&[
            "verify".as_ref(),
            fixtures().join("real/manifest.json").as_os_str(),
            real_dir().as_os_str()
        ])
    );
}

#[test]
fn every_file_of_the_manifest_has_its_test() {
    let tested = [
        "beads/steveyegge-beads-385c0c0.jsonl",
        "beads/steveyegge-beads-7b92b42.jsonl",
        "beads/steveyegge-beads-11a6755.jsonl",
        "beads/nathandela-compound-agent-0d5aec8.jsonl",
        "beads/nvidia-skyhook-60594dd.jsonl",
        "taskmaster/claude-task-master-c0c98d3.json",
        "taskmaster/claude-task-master-b1390e4.json",
        "taskmaster/5dlabs-taskmaster-sync-5e882d3.json",
        "taskmaster/acidicsoil-oraclepack-2ec65c9.json",
    ];
    let listed: Vec<String> = manifest().into_iter().map(|(f, _)| f).collect();
    assert_eq!(listed, tested);
}

#[test]
fn beads_own_issues_704() {
    real("beads/steveyegge-beads-385c0c0.jsonl");
}

#[test]
fn beads_own_issues_with_tombstones() {
    real("beads/steveyegge-beads-7b92b42.jsonl");
}

#[test]
fn beads_own_issues_oldest_schema() {
    real("beads/steveyegge-beads-11a6755.jsonl");
}

#[test]
fn beads_compound_agent_into_a_list_requiring_approval() {
    real("beads/nathandela-compound-agent-0d5aec8.jsonl");
}

#[test]
fn beads_skyhook() {
    real("beads/nvidia-skyhook-60594dd.jsonl");
}

#[test]
fn taskmaster_own_tasks_nine_tags() {
    real("taskmaster/claude-task-master-c0c98d3.json");
}

#[test]
fn taskmaster_own_tasks_untagged() {
    real("taskmaster/claude-task-master-b1390e4.json");
}

#[test]
fn taskmaster_sync_slug_ids_and_nested_subtasks() {
    real("taskmaster/5dlabs-taskmaster-sync-5e882d3.json");
}

#[test]
fn taskmaster_oraclepack_six_tags() {
    real("taskmaster/acidicsoil-oraclepack-2ec65c9.json");
}
