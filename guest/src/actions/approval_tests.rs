//! Native tests of plans a person approves: the tools' gate (claim_next,
//! get, find) and the person's decisions (`super::approval`), which only
//! the person's entry point reaches. The same rules are tested again
//! through the real component in `tests/` (`tests/tests/approval.rs`).

use serde_json::{Value, json};

use super::approval::{self, Decided};
use super::call::Call;
use super::{Action, Done};
use crate::context::CallContext;
use crate::contract::Params;
use crate::error::{ErrorCode, ToolResult};
use crate::results::ChangeCounts;
use crate::store::Store;
use crate::testing::Harness;

fn gated(h: &Harness) -> String {
    h.create_list(
        "planner",
        json!({"name": "Plan", "requires_approval": true}),
    )
}

fn add(h: &Harness, list: &str, titles: &[&str]) -> Vec<String> {
    h.add(list, titles)
}

/// Runs `f` in one committed transaction as `person` (None: as a tool
/// call would), the context's agent being `planner`.
fn as_person<R>(
    h: &Harness,
    person: Option<&str>,
    f: impl FnOnce(&Call) -> ToolResult<R>,
) -> ToolResult<R> {
    let ctx = CallContext {
        agent_id: Some("planner".into()),
        person: person.map(String::from),
        ..Default::default()
    };
    let tx = h.store.begin(true).unwrap();
    let call = Call {
        tx: &*tx,
        tool: super::lists_get::GetList::SPEC.tool,
        action: super::lists_get::GetList::SPEC,
        params: Params::default(),
        // As `invoke` sets them: a person acts as the person, on the
        // context agent's view.
        agent: Some(person.unwrap_or("planner").into()),
        ctx: &ctx,
        clock: &h.clock,
        dated: std::cell::OnceCell::new(),
        bypasses: Vec::new(),
        person: person.map(String::from),
        viewer: Some("planner".into()),
        ending: Default::default(),
    };
    let out = f(&call);
    drop(call);
    if out.is_ok() {
        tx.commit().unwrap();
    }
    out
}

fn approve(h: &Harness, list: &str, task: Option<&str>) -> ToolResult<Done<Decided>> {
    as_person(h, Some("ana"), |c| {
        approval::approve(c, list, task, Some("looks right"))
    })
}

fn claim(h: &Harness, agent: &str, list: &str) -> Value {
    h.ok(agent, "task_claims", "claim_next", json!({"list_id": list}))
}

fn changes(h: &Harness, list: &str) -> Option<ChangeCounts> {
    let row = {
        let tx = h.store.begin(false).unwrap();
        super::access::read_list(&*tx, list).unwrap()
    };
    as_person(h, Some("ana"), |c| approval::count_changes(c, &row)).unwrap()
}

#[test]
fn a_pending_plan_hands_out_nothing_and_says_who_can_approve() {
    let h = Harness::default();
    let l = gated(&h);
    add(&h, &l, &["one", "two"]);
    let got = h.ok("planner", "task_lists", "get", json!({"list_id": l}));
    assert_eq!(got["list"]["approval"], json!({"state": "pending"}));
    let found = h.ok("planner", "task_lists", "find", json!({}));
    assert_eq!(found["lists"][0]["approval"]["state"], "pending");
    let c = claim(&h, "a", &l);
    assert_eq!(c["task"], Value::Null);
    assert_eq!(c["waiting"]["approval"]["state"], "pending");
    let hint = c["waiting"]["hint"].as_str().unwrap();
    assert!(hint.contains(&format!("/task-approve {l}")), "{hint}");
    assert!(hint.contains(&format!("tasklists approve {l}")), "{hint}");
    // A list without approval has none of it.
    let plain = h.ok("planner", "task_lists", "create", json!({"name": "Plain"}));
    assert!(plain["list"].get("approval").is_none(), "{plain}");
}

#[test]
fn only_a_person_decides_and_only_on_a_gated_live_list() {
    let h = Harness::default();
    let l = gated(&h);
    let no_person = as_person(&h, None, |c| approval::approve(c, &l, None, None));
    assert_eq!(no_person.unwrap_err().code, ErrorCode::Forbidden);
    let no_person = as_person(&h, None, |c| approval::reject(c, &l, "no"));
    assert_eq!(no_person.unwrap_err().code, ErrorCode::Forbidden);
    let plain = h.ok("planner", "task_lists", "create", json!({"name": "Plain"}))["list"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        approve(&h, &plain, None).unwrap_err().code,
        ErrorCode::Conflict
    );
    assert_eq!(
        approve(&h, "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B", None)
            .unwrap_err()
            .code,
        ErrorCode::NotFound
    );
    let empty = as_person(&h, Some("ana"), |c| approval::reject(c, &l, "  "));
    assert_eq!(empty.unwrap_err().code, ErrorCode::InvalidParams);
    let long = "x".repeat(approval::MAX_REASON_CHARS + 1);
    let long = as_person(&h, Some("ana"), |c| approval::reject(c, &l, &long));
    assert_eq!(long.unwrap_err().code, ErrorCode::InvalidParams);
    h.ok("planner", "task_lists", "delete", json!({"list_id": l}));
    assert_eq!(approve(&h, &l, None).unwrap_err().code, ErrorCode::NotFound);
}

#[test]
fn approval_opens_the_list_and_is_audited_as_the_person() {
    let h = Harness::default();
    let l = gated(&h);
    let ids = add(&h, &l, &["one", "two"]);
    h.advance_secs(1);
    let done = approve(&h, &l, None).unwrap();
    assert!(done.summary.contains("ana approved"), "{}", done.summary);
    let a = done.result.list.approval.unwrap();
    assert_eq!(a.state, crate::model::Approval::Approved);
    assert_eq!(a.note.as_deref(), Some("looks right"));
    assert_eq!(a.by.as_deref(), Some("ana"));
    assert!(a.at.is_some());
    assert_eq!(claim(&h, "a", &l)["task"]["id"], ids[0].as_str());
    let events = h.ok(
        "planner",
        "task_audit",
        "get",
        json!({"list_id": l, "kinds": "approved"}),
    );
    let e = &events["events"][0];
    assert_eq!(e["agent_id"], "ana", "{events}");
    assert_eq!(e["data"]["by"], "person");
    assert_eq!(e["data"]["note"], "looks right");
}

#[test]
fn a_task_added_after_approval_waits_for_its_own() {
    let h = Harness::default();
    let l = gated(&h);
    let ids = add(&h, &l, &["one"]);
    approve(&h, &l, None).unwrap();
    h.advance_secs(1);
    let late = h.ok(
        "planner",
        "task_items",
        "create",
        json!({"list_id": l, "title": "late"}),
    );
    assert_eq!(late["task"]["awaits_approval"], true);
    let late = late["task"]["id"].as_str().unwrap().to_string();
    assert_eq!(claim(&h, "a", &l)["task"]["id"], ids[0].as_str());
    let c = claim(&h, "b", &l);
    assert_eq!(c["task"], Value::Null, "{c}");
    assert_eq!(c["waiting"]["awaiting_approval"], 1);
    assert!(c["waiting"].get("approval").is_none(), "{c}");
    assert!(c["waiting"]["hint"].as_str().unwrap().contains("approve"));
    let got = h.ok("planner", "task_lists", "get", json!({"list_id": l}));
    assert_eq!(got["list"]["approval"]["changes"], json!({"added": 1}));
    // Approving that one task opens it.
    let done = approve(&h, &l, Some(&late)).unwrap();
    assert_eq!(done.result.approved_tasks, vec![late.clone()]);
    assert_eq!(claim(&h, "b", &l)["task"]["id"], late.as_str());
    // Approving a task that awaits nothing is refused.
    assert_eq!(
        approve(&h, &l, Some(&late)).unwrap_err().code,
        ErrorCode::Conflict
    );
    // Another late task: approving the list again opens it too.
    let later = add(&h, &l, &["later"]);
    let done = approve(&h, &l, None).unwrap();
    assert_eq!(done.result.approved_tasks, later);
    assert_eq!(claim(&h, "c", &l)["task"]["id"], later[0].as_str());
}

#[test]
fn a_rejection_reaches_the_agent_and_held_work_is_handed_back() {
    let h = Harness::default();
    let l = gated(&h);
    let ids = add(&h, &l, &["one", "two"]);
    approve(&h, &l, None).unwrap();
    let held = claim(&h, "a", &l);
    assert_eq!(held["task"]["id"], ids[0].as_str());
    as_person(&h, Some("ana"), |c| {
        approval::reject(c, &l, "split step two first")
    })
    .unwrap();
    let want = "split step two first";
    let got = h.ok("planner", "task_lists", "get", json!({"list_id": l}));
    assert_eq!(got["list"]["approval"]["state"], "rejected");
    assert_eq!(got["list"]["approval"]["reason"], want);
    assert_eq!(got["list"]["approval"]["by"], "ana");
    let found = h.ok("planner", "task_lists", "find", json!({}));
    assert_eq!(found["lists"][0]["approval"]["reason"], want);
    let c = claim(&h, "b", &l);
    assert_eq!(c["task"], Value::Null);
    assert_eq!(c["waiting"]["approval"]["reason"], want);
    // The caller's own claim is still handed back.
    let again = claim(&h, "a", &l);
    assert_eq!(again["task"]["id"], ids[0].as_str());
    assert_eq!(again["resumed"], true);
}

#[test]
fn changes_since_approval_count_added_removed_and_retitled() {
    let h = Harness::default();
    let l = gated(&h);
    let ids = add(&h, &l, &["one", "two", "three"]);
    assert_eq!(changes(&h, &l), None, "not approved");
    approve(&h, &l, None).unwrap();
    assert_eq!(changes(&h, &l), None);
    h.advance_secs(1);
    add(&h, &l, &["four"]);
    h.ok(
        "planner",
        "task_items",
        "delete",
        json!({"task_id": ids[1]}),
    );
    h.ok(
        "planner",
        "task_items",
        "update",
        json!({"task_id": ids[2], "title": "THREE"}),
    );
    assert_eq!(
        changes(&h, &l),
        Some(ChangeCounts {
            added: 1,
            removed: 1,
            retitled: 1
        })
    );

    let got = h.ok("planner", "task_lists", "get", json!({"list_id": l}));
    assert_eq!(
        got["list"]["approval"]["changes"],
        json!({"added": 1, "removed": 1, "retitled": 1})
    );
    // A new approval takes the plan as it stands.
    h.advance_secs(1);
    approve(&h, &l, None).unwrap();
    assert_eq!(changes(&h, &l), None);
    let got = h.ok("planner", "task_lists", "get", json!({"list_id": l}));
    assert!(got["list"]["approval"].get("changes").is_none(), "{got}");
}
