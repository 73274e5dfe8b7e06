//! The person's verbs at a shell (`tasklists add`, `next`, `done`, …) as a
//! person runs them: each acts through the component's person-act, and the
//! agents see the effect through the tools.

use crate::plan;

use plan::{call, get, list, tasklists};
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Output};

/// The binary on `db` as `person` (none: no person at all, neither flag
/// nor environment).
fn command(db: &Path, person: Option<&str>, args: &[&str]) -> Command {
    let mut cmd = tasklists(db);
    if let Some(person) = person {
        cmd.args(["--person", person]);
    }
    cmd.args(args);
    cmd
}

/// Runs a verb as `person`.
fn verb(db: &Path, person: Option<&str>, args: &[&str]) -> Output {
    command(db, person, args).output().expect("the binary runs")
}

/// Runs a verb as Ann and asserts it succeeded; its stdout.
fn ann(db: &Path, args: &[&str]) -> String {
    let out = verb(db, Some("ann"), args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    assert!(out.stderr.is_empty(), "{args:?}: {out:?}");
    text(&out.stdout)
}

/// Runs a verb as Ann with `--json`; the data it printed.
fn ann_json(db: &Path, args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.push("--json");
    let out = ann(db, &args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?} printed {out:?}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The task `id` in the list as the agents see it.
fn task(db: &Path, list_id: &str, id: &str) -> Value {
    get(db, list_id)["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} is not in the list"))
}

/// The last `n` characters of an id: what a person copies from a screen.
fn tail(id: &str, n: usize) -> &str {
    &id[id.len() - n..]
}

#[test]
fn each_verb_acts_as_the_person_and_the_agents_see_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, ids) = list(&db, json!({}), &["Write the changelog", "Tag", "Announce"]);
    let [a, b, c] = [&ids[0], &ids[1], &ids[2]];

    // add: a high-priority task, which `next` would hand out first.
    let added = ann_json(
        &db,
        &["add", &list_id, "Fix", "the", "build", "--priority", "high"],
    );
    let fix = added["task"]["id"]
        .as_str()
        .expect("the new task")
        .to_string();
    assert_eq!(added["task"]["title"], "Fix the build", "{added}");
    assert_eq!(task(&db, &list_id, &fix)["priority"], "high");
    let next = ann_json(&db, &["next", &list_id]);
    assert_eq!(next["task"]["id"], fix.as_str(), "{next}");
    // Nothing was claimed.
    assert_eq!(task(&db, &list_id, &fix)["status"], "todo");

    // add after a task.
    let after = ann_json(&db, &["add", &list_id, "Check", "--after", a]);
    assert_eq!(after["task"]["position"], 2, "{after}");

    // done, by a prefix of the id (without its `task_`).
    let shown = ann(
        &db,
        &["done", &fix[5..18], "--outcome", "fixed the linker flags"],
    );
    assert!(shown.contains("Fix the build"), "{shown}");
    let fixed = task(&db, &list_id, &fix);
    assert_eq!(fixed["status"], "done");
    assert_eq!(fixed["outcome"], "fixed the linker flags");

    // block / unblock, by a tail.
    ann(&db, &["block", tail(a, 6)]);
    assert_eq!(task(&db, &list_id, a)["status"], "blocked");
    ann(&db, &["unblock", tail(a, 6)]);
    assert_eq!(task(&db, &list_id, a)["status"], "todo");

    // priority, move, assign / unassign, edit.
    ann(&db, &["priority", b, "low"]);
    assert_eq!(task(&db, &list_id, b)["priority"], "low");
    ann(&db, &["move", c, "first"]);
    assert_eq!(task(&db, &list_id, c)["position"], 1);
    ann(&db, &["move", c, "3"]);
    assert_eq!(task(&db, &list_id, c)["position"], 3);
    ann(&db, &["assign", a, "builder-2"]);
    assert_eq!(task(&db, &list_id, a)["assigned_to_agent_id"], "builder-2");
    ann(&db, &["unassign", a]);
    assert_eq!(task(&db, &list_id, a).get("assigned_to_agent_id"), None);
    ann(&db, &["edit", a, "Write", "the", "release", "notes"]);
    assert_eq!(task(&db, &list_id, a)["title"], "Write the release notes");

    // cancel / restore.
    ann(&db, &["cancel", b, "--outcome", "not this release"]);
    let canceled = task(&db, &list_id, b);
    assert_eq!(canceled["status"], "canceled");
    assert_eq!(canceled["outcome"], "not this release");
    // A reopen asks first (nobody at stdin: --yes says it).
    let asked = verb(&db, Some("ann"), &["restore", b]);
    assert_eq!(asked.status.code(), Some(2), "{asked:?}");
    ann(&db, &["restore", b, "--yes"]);
    assert_eq!(task(&db, &list_id, b)["status"], "todo");

    // Every change is the person's, in the audit log.
    let events = call(
        &db,
        "planner",
        "task_audit",
        json!({"action": "get", "params": {"list_id": list_id, "task_id": a}}),
    );
    let by_ann: Vec<&Value> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["agent_id"] == "ann" && e["data"]["by"] == "person")
        .collect();
    // block, unblock, assign, unassign, edit: five changes, all Ann's.
    assert!(by_ann.len() >= 5, "{events}");
}

#[test]
fn edit_and_add_take_every_field_of_a_task() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, ids) = list(&db, json!({}), &["Schema", "Migration", "Ship"]);
    let [a, b, c] = [&ids[0], &ids[1], &ids[2]];

    // Every field of `edit`, dependencies named by a tail of their ids.
    ann(
        &db,
        &[
            "edit",
            c,
            "--description",
            "line one\n  line two",
            "--verification",
            "the tag exists",
            "--priority",
            "high",
            "--labels",
            "release, ops",
            "--depends-on",
            &format!("{} {}", tail(a, 6), b),
            "--assignee",
            "builder-7",
        ],
    );
    let t = task(&db, &list_id, c);
    assert_eq!(t["description"], "line one\n  line two", "{t}");
    assert_eq!(t["verification"], "the tag exists");
    assert_eq!(t["priority"], "high");
    assert_eq!(t["labels"], json!(["release", "ops"]));
    assert_eq!(t["depends_on"], json!([a, b]));
    assert_eq!(t["assigned_to_agent_id"], "builder-7");

    // Empty values clear the sets and the assignee.
    ann(
        &db,
        &[
            "edit",
            c,
            "--labels",
            "",
            "--depends-on",
            "",
            "--assignee",
            "",
        ],
    );
    let t = task(&db, &list_id, c);
    assert!(t.get("labels").is_none_or(|l| l == &json!([])), "{t}");
    assert!(t.get("depends_on").is_none_or(|d| d == &json!([])), "{t}");
    assert_eq!(t.get("assigned_to_agent_id"), None, "{t}");

    // A cycle is refused with the component's words, nothing changed.
    ann(&db, &["edit", b, "--depends-on", a]);
    let out = verb(&db, Some("ann"), &["edit", a, "--depends-on", b]);
    assert!(!out.status.success(), "{out:?}");
    assert!(text(&out.stderr).contains("cycle"), "{out:?}");
    assert!(
        task(&db, &list_id, a)
            .get("depends_on")
            .is_none_or(|d| d == &json!([]))
    );

    // add with every field.
    let added = ann_json(
        &db,
        &[
            "add",
            &list_id,
            "Announce",
            "--description",
            "post it",
            "--verification",
            "the post is up",
            "--priority",
            "low",
            "--labels",
            "comms",
            "--depends-on",
            c,
            "--assignee",
            "builder-7",
        ],
    );
    let t = &added["task"];
    assert_eq!(t["description"], "post it", "{added}");
    assert_eq!(t["verification"], "the post is up");
    assert_eq!(t["priority"], "low");
    assert_eq!(t["labels"], json!(["comms"]));
    assert_eq!(t["depends_on"], json!([c]));
    assert_eq!(t["assigned_to_agent_id"], "builder-7");

    // The help names the new flags.
    let help = ann(&db, &["edit", "--help"]);
    for flag in ["--priority", "--labels", "--depends-on", "--assignee"] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
}

#[test]
fn without_a_person_the_verbs_only_read() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, ids) = list(&db, json!({}), &["Write the changelog"]);

    let refused = verb(&db, None, &["block", &ids[0]]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(refused.stdout.is_empty(), "{refused:?}");
    let why = text(&refused.stderr);
    assert!(
        why.contains("--person") && why.contains("TASKLISTS_PERSON"),
        "{why}"
    );
    assert_eq!(task(&db, &list_id, &ids[0])["status"], "todo");
    // --json changes nothing: the refusal is on stderr, nothing on stdout.
    let refused = verb(&db, None, &["block", &ids[0], "--json"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(refused.stdout.is_empty(), "{refused:?}");

    // Reading needs no person.
    let next = verb(&db, None, &["next", &list_id, "--json"]);
    assert!(next.status.success(), "{next:?}");
    let next: Value = serde_json::from_slice(&next.stdout).unwrap();
    assert_eq!(next["task"]["id"], ids[0].as_str(), "{next}");

    // The environment names the person as the flag does.
    let blocked = command(&db, None, &["block", &ids[0]])
        .env("TASKLISTS_PERSON", "ann")
        .output()
        .unwrap();
    assert!(blocked.status.success(), "{blocked:?}");
    assert_eq!(task(&db, &list_id, &ids[0])["status"], "blocked");
}

#[test]
fn an_id_that_names_no_task_or_several_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, ids) = list(&db, json!({}), &["One", "Two", "Three"]);

    // Ids made in the same millisecond share their first characters (the
    // time): that prefix names all three, and the candidates are listed.
    let shared = (0..ids[0].len())
        .take_while(|&i| {
            ids.iter()
                .all(|id| id.as_bytes()[i] == ids[0].as_bytes()[i])
        })
        .count();
    assert!(shared > "task_".len() + 4, "{ids:?}");
    let ambiguous = verb(&db, Some("ann"), &["block", &ids[0][..shared]]);
    assert_eq!(ambiguous.status.code(), Some(1), "{ambiguous:?}");
    let why = text(&ambiguous.stderr);
    assert!(
        ids.iter().filter(|id| why.contains(id.as_str())).count() >= 2,
        "{why}"
    );
    let unknown = verb(&db, Some("ann"), &["block", "task_nothing"]);
    assert_eq!(unknown.status.code(), Some(1), "{unknown:?}");
    for id in &ids {
        assert_eq!(task(&db, &list_id, id)["status"], "todo");
    }
}

#[test]
fn delete_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, ids) = list(&db, json!({}), &["One", "Two"]);

    // Nobody at stdin to say yes: nothing is deleted.
    let asked = verb(&db, Some("ann"), &["delete", &ids[0]]);
    assert_eq!(asked.status.code(), Some(2), "{asked:?}");
    assert!(text(&asked.stderr).contains("--yes"), "{asked:?}");
    assert_eq!(get(&db, &list_id)["tasks"].as_array().unwrap().len(), 2);

    ann(&db, &["delete", &ids[0], "--yes"]);
    let left = get(&db, &list_id);
    let left = left["tasks"].as_array().unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["id"], ids[1].as_str());
}

#[test]
fn done_takes_what_the_verification_showed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, _) = list(&db, json!({}), &["Write the changelog"]);
    let added = ann_json(
        &db,
        &[
            "add",
            &list_id,
            "Fix CI",
            "--verification",
            "the CI run is green",
        ],
    );
    let id = added["task"]["id"].as_str().unwrap().to_string();

    let refused = verb(&db, Some("ann"), &["done", &id, "--outcome", "fixed"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(
        text(&refused.stderr).contains("verification"),
        "{refused:?}"
    );
    assert_eq!(task(&db, &list_id, &id)["status"], "todo");

    let done = ann_json(
        &db,
        &[
            "done",
            &id,
            "--outcome",
            "fixed",
            "--verified",
            "run 812 green",
        ],
    );
    assert_eq!(done["task"]["status"], "done", "{done}");
    let closed = task(&db, &list_id, &id);
    assert_eq!(closed["verification"], "the CI run is green");
    assert_eq!(closed["verification_result"], "run 812 green");
}

#[test]
fn a_person_approves_or_rejects_a_plan() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, ids) = list(&db, json!({"requires_approval": true}), &["One", "Two"]);

    // Pending: nothing would be handed out.
    let next = ann_json(&db, &["next", &list_id]);
    assert_eq!(next["task"], Value::Null, "{next}");

    ann(&db, &["reject", &list_id, "--reason", "split step one"]);
    let rejected = get(&db, &list_id);
    assert_eq!(
        rejected["list"]["approval"]["state"], "rejected",
        "{rejected}"
    );
    assert_eq!(rejected["list"]["approval"]["reason"], "split step one");

    ann(&db, &["approve", &list_id, "--note", "go"]);
    let approved = get(&db, &list_id);
    assert_eq!(
        approved["list"]["approval"]["state"], "approved",
        "{approved}"
    );
    let next = ann_json(&db, &["next", &list_id]);
    assert_eq!(next["task"]["id"], ids[0].as_str(), "{next}");
    let claimed = call(
        &db,
        "builder-1",
        "task_claims",
        json!({"action": "claim_next", "params": {"list_id": list_id}}),
    );
    assert_eq!(claimed["task"]["id"], ids[0].as_str(), "{claimed}");
}

#[test]
fn a_person_takes_a_claim_back_and_refusals_speak_the_shells_words() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, ids) = list(&db, json!({}), &["Deploy", "Verify"]);
    let claimed = call(
        &db,
        "w3",
        "task_claims",
        json!({"action": "claim_next", "params": {"list_id": list_id}}),
    );
    let token = claimed["claim"]["token"].as_str().unwrap().to_string();

    // Done on a running task: refused, with the way out at this shell.
    let refused = verb(&db, Some("ann"), &["done", &ids[0], "--outcome", "x"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    let why = text(&refused.stderr);
    assert!(
        why.contains(&format!("tasklists release {}", ids[0])),
        "{why}"
    );
    // A verb's missing field is named as its flag.
    let missing = verb(&db, Some("ann"), &["done", &ids[1]]);
    let why = text(&missing.stderr);
    assert!(why.contains("done needs --outcome"), "{why}");

    // release asks first, then takes the task back (reserved for w4).
    let asked = verb(&db, Some("ann"), &["release", &ids[0]]);
    assert_eq!(asked.status.code(), Some(2), "{asked:?}");
    assert_eq!(task(&db, &list_id, &ids[0])["status"], "in_progress");
    let released = ann_json(&db, &["release", tail(&ids[0], 6), "--to", "w4", "--yes"]);
    assert_eq!(released["task"]["status"], "todo", "{released}");
    assert_eq!(released["task"]["assigned_to_agent_id"], "w4", "{released}");

    // The agent's next call on it: its claim is lost, and it is told why.
    let out = plan::tasklists(&db)
        .args(["--agent-id", "w3", "call", "--json", "task_items"])
        .arg(
            json!({"action": "update", "params": {"task_id": ids[0], "status": "done", "outcome": "deployed", "claim_token": token}})
                .to_string(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = text(&out.stdout);
    assert!(said.contains("\"code\":\"conflict\""), "{said}");
    assert_eq!(task(&db, &list_id, &ids[0])["status"], "todo");
    let events = call(
        &db,
        "w3",
        "task_audit",
        json!({"action": "get", "params": {"task_id": ids[0]}}),
    );
    let released = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "released")
        .cloned()
        .unwrap_or_else(|| panic!("no release in {events}"));
    assert_eq!(released["agent_id"], "ann");
    assert_eq!(released["data"]["from"], "w3");
}

#[test]
fn a_person_imports_as_themself_and_a_dry_run_needs_no_identity() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let plan_file = dir.path().join("PLAN.md");
    std::fs::write(
        &plan_file,
        "# Launch\n\n- [ ] Write the post\n- [ ] Publish it\n",
    )
    .unwrap();
    let file = plan_file.to_str().unwrap();

    // A dry run: no identity needed, nothing written.
    let dry = verb(&db, None, &["import", file, "--dry-run"]);
    assert!(dry.status.success(), "{dry:?}");
    assert!(
        text(&dry.stdout).contains("would import 2 tasks"),
        "{dry:?}"
    );
    // A real import still needs someone.
    let nobody = verb(&db, None, &["import", file]);
    assert_eq!(nobody.status.code(), Some(1), "{nobody:?}");
    assert!(text(&nobody.stderr).contains("--agent-id"), "{nobody:?}");

    // A person imports as themself: their list, events by the person.
    let done = ann_json(&db, &["import", file]);
    let list_id = done["list"]["id"].as_str().unwrap().to_string();
    assert_eq!(done["list"]["created_by_agent_id"], "ann", "{done}");
    let events = call(
        &db,
        "ann",
        "task_audit",
        json!({"action": "get", "params": {"list_id": list_id}}),
    );
    let events = events["events"].as_array().unwrap();
    assert!(!events.is_empty());
    assert!(
        events
            .iter()
            .all(|e| e["agent_id"] == "ann" && e["data"]["by"] == "person"),
        "{events:?}"
    );
    assert_eq!(get(&db, &list_id)["tasks"].as_array().unwrap().len(), 2);
}
