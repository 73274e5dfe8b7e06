//! `task_lists`: create (defaults, scopes, get_or_create), find (filters,
//! order, pages, visibility), get (status filter, include_tasks,
//! include_deleted), delete (soft, active tasks only).

use std::sync::{Arc, Barrier};
use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";

fn with_context(agent: &str, workspace: Option<&str>, thread: Option<&str>) -> CallContext {
    CallContext {
        agent_id: Some(agent.into()),
        agent_pinned: false,
        workspace: workspace.map(String::from),
        thread: thread.map(String::from),
        person: None,
    }
}

#[test]
fn create_fills_the_documented_defaults() {
    let db = TestDb::new();
    let out = db.out(A, "task_lists", "create", json!({"name": "Release 1.2"}));
    let d = &out.data;
    assert_eq!(d["created"], true);
    let list = &d["list"];
    let id = s(d, "/list/id");
    assert!(id.starts_with("list_"), "{id}");
    assert_eq!(list["name"], "Release 1.2");
    assert_eq!(list["scope_type"], "custom");
    assert_eq!(list["scope_key"], "");
    assert_eq!(list["visibility"], "shared");
    assert_eq!(list["created_by_agent_id"], A);
    assert!(
        list.get("owner_agent_id").is_none(),
        "a shared list has no default owner: {list}"
    );
    assert_eq!(list["created_at"], db.now());
    assert_eq!(list["updated_at"], db.now());
    assert!(list.get("deleted_at").is_none());
    assert!(out.summary.contains(&id), "{}", out.summary);
    // As stored.
    let g = db.get(B, &id);
    assert_eq!(g["list"], *list);
    assert_eq!(g["tasks"], json!([]));
    assert_eq!(
        g["counts"],
        json!({"todo": 0, "in_progress": 0, "blocked": 0, "done": 0, "canceled": 0})
    );
}

#[test]
fn private_lists_are_owned_by_their_creator_unless_told_otherwise() {
    let db = TestDb::new();
    let d = db.ok(
        A,
        "task_lists",
        "create",
        json!({"name": "Mine", "visibility": "private"}),
    );
    assert_eq!(d["list"]["visibility"], "private");
    assert_eq!(d["list"]["owner_agent_id"], A);
    let d = db.ok(
        A,
        "task_lists",
        "create",
        json!({"name": "For B", "visibility": "private", "owner_agent_id": B}),
    );
    assert_eq!(d["list"]["owner_agent_id"], B);
    assert_eq!(d["list"]["created_by_agent_id"], A);
    let for_b = s(&d, "/list/id");
    // Visible and usable only by the owner: the creator is not the owner here.
    db.get(B, &for_b);
    let e = db.err(A, "task_lists", "get", json!({"list_id": for_b}));
    expect(&e, ErrorCode::Forbidden, &[&for_b]);
}

#[test]
fn scope_key_defaults_from_the_host_context() {
    let db = TestDb::new();
    let c = with_context(A, Some("/work/repo"), Some("thread-7"));
    let d = db.ok_ctx(
        &c,
        "task_lists",
        "create",
        json!({"name": "W", "scope_type": "workspace"}),
    );
    assert_eq!(d["list"]["scope_type"], "workspace");
    assert_eq!(d["list"]["scope_key"], "/work/repo");
    let d = db.ok_ctx(
        &c,
        "task_lists",
        "create",
        json!({"name": "T", "scope_type": "thread"}),
    );
    assert_eq!(d["list"]["scope_key"], "thread-7");
    let d = db.ok_ctx(
        &c,
        "task_lists",
        "create",
        json!({"name": "G", "scope_type": "agent"}),
    );
    assert_eq!(d["list"]["scope_key"], A);
    let d = db.ok_ctx(&c, "task_lists", "create", json!({"name": "C"}));
    assert_eq!(d["list"]["scope_key"], "");
    // An explicit key wins over the context.
    let d = db.ok_ctx(
        &c,
        "task_lists",
        "create",
        json!({"name": "W2", "scope_type": "workspace", "scope_key": "/other"}),
    );
    assert_eq!(d["list"]["scope_key"], "/other");
    // No context and no key: the scope cannot be guessed.
    let e = db.err(
        A,
        "task_lists",
        "create",
        json!({"name": "W", "scope_type": "workspace"}),
    );
    expect(&e, ErrorCode::InvalidParams, &["workspace", "scope_key"]);
    let e = db.err(
        A,
        "task_lists",
        "create",
        json!({"name": "T", "scope_type": "thread"}),
    );
    expect(&e, ErrorCode::InvalidParams, &["thread", "scope_key"]);
    // find filters by the context's key.
    let f = db.ok(
        B,
        "task_lists",
        "find",
        json!({"scope_type": "workspace", "scope_key": "/work/repo"}),
    );
    assert_eq!(f["lists"].as_array().unwrap().len(), 1);
    assert_eq!(f["lists"][0]["name"], "W");
}

#[test]
fn global_lists_have_no_scope_key() {
    let db = TestDb::new();
    let c = with_context(A, Some("/work/repo"), Some("thread-7"));
    let d = db.ok_ctx(
        &c,
        "task_lists",
        "create",
        json!({"name": "Everywhere", "scope_type": "global"}),
    );
    assert_eq!(d["list"]["scope_type"], "global");
    assert_eq!(d["list"]["scope_key"], "");
    let e = db.err(
        A,
        "task_lists",
        "create",
        json!({"name": "G", "scope_type": "global", "scope_key": "/repo"}),
    );
    expect(&e, ErrorCode::InvalidParams, &["global", "scope_key"]);
    let d = db.ok(
        A,
        "task_lists",
        "create",
        json!({"name": "G", "scope_type": "global", "scope_key": ""}),
    );
    assert_eq!(d["list"]["scope_key"], "");
}

#[test]
fn get_or_create_returns_the_existing_list() {
    let db = TestDb::new();
    let p = json!({"name": "Release", "scope_type": "workspace", "scope_key": "/repo", "get_or_create": true});
    let first = db.ok(A, "task_lists", "create", p.clone());
    assert_eq!(first["created"], true);
    let id = s(&first, "/list/id");
    db.advance(5);
    let again = db.ok(B, "task_lists", "create", p.clone());
    assert_eq!(again["created"], false);
    assert_eq!(again["list"], first["list"], "the same list, unchanged");
    // Differences in name (exact match), scope key or scope type make a new list.
    for other in [
        json!({"name": "release", "scope_type": "workspace", "scope_key": "/repo", "get_or_create": true}),
        json!({"name": "Release", "scope_type": "workspace", "scope_key": "/repo2", "get_or_create": true}),
        json!({"name": "Release", "scope_type": "custom", "scope_key": "/repo", "get_or_create": true}),
    ] {
        let d = db.ok(A, "task_lists", "create", other.clone());
        assert_eq!(d["created"], true, "{other}");
        assert_ne!(s(&d, "/list/id"), id);
    }
    // Without get_or_create, a second list with the same name is made.
    let mut plain = p.clone();
    plain["get_or_create"] = json!(false);
    let d = db.ok(A, "task_lists", "create", plain);
    assert_eq!(d["created"], true);
    assert_ne!(s(&d, "/list/id"), id);
    // get_or_create finds the oldest one.
    assert_eq!(s(&db.ok(B, "task_lists", "create", p), "/list/id"), id);
    // Three workspace lists on /repo match "Release" case-insensitively.
    let f = db.ok(
        A,
        "task_lists",
        "find",
        json!({"scope_type": "workspace", "scope_key": "/repo", "name": "Release"}),
    );
    assert_eq!(f["lists"].as_array().unwrap().len(), 3);
}

#[test]
fn get_or_create_does_not_match_private_lists_of_others() {
    let db = TestDb::new();
    let p = json!({"name": "Notes", "visibility": "private", "get_or_create": true});
    let mine = db.ok(A, "task_lists", "create", p.clone());
    let mine_id = s(&mine, "/list/id");
    db.advance(1);
    let theirs = db.ok(
        B,
        "task_lists",
        "create",
        json!({"name": "Notes", "get_or_create": true}),
    );
    assert_eq!(theirs["created"], true, "{theirs}");
    let theirs_id = s(&theirs, "/list/id");
    assert_ne!(theirs_id, mine_id);
    assert_eq!(theirs["list"]["visibility"], "shared");
    // The owner gets its own (older) private list back; a third agent, who
    // cannot see it, gets the shared one.
    let again = db.ok(A, "task_lists", "create", p);
    assert_eq!(
        (again["created"].clone(), s(&again, "/list/id")),
        (json!(false), mine_id)
    );
    let third = db.ok(
        "builder-3",
        "task_lists",
        "create",
        json!({"name": "Notes", "get_or_create": true}),
    );
    assert_eq!(
        (third["created"].clone(), s(&third, "/list/id")),
        (json!(false), theirs_id)
    );
}

#[test]
fn get_or_create_does_not_return_deleted_lists() {
    let db = TestDb::new();
    let p = json!({"name": "Sprint", "get_or_create": true});
    let old = s(&db.ok(A, "task_lists", "create", p.clone()), "/list/id");
    db.ok(A, "task_lists", "delete", json!({"list_id": old}));
    let d = db.ok(A, "task_lists", "create", p);
    assert_eq!(d["created"], true);
    assert_ne!(s(&d, "/list/id"), old);
}

/// Several hosts (separate connections) race `get_or_create` on one file:
/// exactly one list is made and everyone gets it.
#[test]
fn get_or_create_is_atomic_when_agents_race() {
    let db = TestDb::new();
    db.ok(A, "task_lists", "find", json!({})); // migrate once
    race_get_or_create(&db, 6);
}

/// The same on a brand-new file: the racing first calls also race the
/// schema migration.
#[test]
fn get_or_create_races_safely_on_a_fresh_database() {
    let db = TestDb::new();
    race_get_or_create(&db, 8);
    let raw = db.dump();
    assert!(
        raw.starts_with("user_version=") && !raw.starts_with("user_version=0"),
        "migrated once: {}",
        &raw[..40]
    );
}

fn race_get_or_create(db: &TestDb, n: usize) {
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let location = db.location();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let mut host = Host::open(config(location)).expect("open");
                barrier.wait();
                let params = json!({"name": "Shared plan", "scope_type": "workspace", "scope_key": "/repo", "get_or_create": true});
                let out = host
                    .call("task_lists", "create", &params.to_string(), &ctx(&format!("agent-{i}")))
                    .expect("create");
                (s(&out.data, "/list/id"), out.data["created"].as_bool().unwrap())
            })
        })
        .collect();
    let results: Vec<(String, bool)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let created = results.iter().filter(|(_, c)| *c).count();
    assert_eq!(created, 1, "{results:?}");
    assert!(
        results.iter().all(|(id, _)| *id == results[0].0),
        "{results:?}"
    );
    let f = db.ok(A, "task_lists", "find", json!({"name": "shared plan"}));
    assert_eq!(f["lists"].as_array().unwrap().len(), 1);
}

#[test]
fn find_filters_by_scope_name_and_visibility() {
    let db = TestDb::new();
    let mk = |agent: &str, p: Value| s(&db.ok(agent, "task_lists", "create", p), "/list/id");
    let w1 = mk(
        A,
        json!({"name": "Release 1.2", "scope_type": "workspace", "scope_key": "/repo"}),
    );
    let w2 = mk(
        A,
        json!({"name": "Bugs", "scope_type": "workspace", "scope_key": "/repo"}),
    );
    let w3 = mk(
        A,
        json!({"name": "Release 2.0", "scope_type": "workspace", "scope_key": "/other"}),
    );
    let t1 = mk(
        A,
        json!({"name": "Chat todo", "scope_type": "thread", "scope_key": "t-1"}),
    );
    let p1 = mk(
        A,
        json!({"name": "My release notes", "visibility": "private"}),
    );
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let find = |agent: &str, p: Value| {
        sorted(strs(&db.ok(agent, "task_lists", "find", p), "/lists", "id"))
    };

    assert_eq!(
        find(A, json!({"scope_type": "workspace"})),
        sorted(vec![w1.clone(), w2.clone(), w3.clone()])
    );
    assert_eq!(
        find(A, json!({"scope_type": "workspace", "scope_key": "/repo"})),
        sorted(vec![w1.clone(), w2.clone()])
    );
    assert_eq!(find(A, json!({"scope_key": "t-1"})), vec![t1.clone()]);
    assert_eq!(
        find(A, json!({"name": "RELEASE"})),
        sorted(vec![w1.clone(), w3.clone(), p1.clone()])
    );
    assert_eq!(
        find(A, json!({"name": "release", "scope_key": "/repo"})),
        vec![w1.clone()]
    );
    assert_eq!(find(A, json!({"visibility": "private"})), vec![p1.clone()]);
    assert_eq!(find(A, json!({"visibility": "shared"})).len(), 4);
    assert_eq!(
        find(A, json!({"name": "nothing like it"})),
        Vec::<String>::new()
    );
    // Another agent never sees A's private list, whatever the filter.
    assert_eq!(find(B, json!({"name": "release"})), sorted(vec![w1, w3]));
    assert_eq!(
        find(B, json!({"visibility": "private"})),
        Vec::<String>::new()
    );
    assert_eq!(find(B, json!({})).len(), 4);
}

#[test]
fn find_name_is_case_insensitive_beyond_ascii() {
    let db = TestDb::new();
    let ete = db.list(A, "Plan d'Été");
    let ueber = db.list(A, "Überprüfung der API");
    let greek = db.list(A, "ΣΧΈΔΙΟ");
    db.list(A, "plain ascii");
    let find = |name: &str| {
        strs(
            &db.ok(B, "task_lists", "find", json!({"name": name})),
            "/lists",
            "id",
        )
    };
    assert_eq!(find("d'été"), vec![ete.clone()]);
    assert_eq!(find("PLAN D'ÉTÉ"), vec![ete]);
    assert_eq!(find("überPRÜF"), vec![ueber.clone()]);
    assert_eq!(find("ÜBERPRÜFUNG"), vec![ueber]);
    assert_eq!(find("σχέδιο"), vec![greek]);
    assert_eq!(find("ete"), Vec::<String>::new(), "accents are not folded");
}

#[test]
fn find_orders_most_recently_updated_first() {
    let db = TestDb::new();
    let l1 = db.list(A, "one");
    db.advance(1);
    let l2 = db.list(A, "two");
    db.advance(1);
    let l3 = db.list(A, "three");
    let order = || strs(&db.ok(B, "task_lists", "find", json!({})), "/lists", "id");
    assert_eq!(order(), [l3.clone(), l2.clone(), l1.clone()]);

    db.advance(1);
    let t1 = db.add(&l1, &["task"]);
    assert_eq!(order(), [l1.clone(), l3.clone(), l2.clone()]);
    let f = db.ok(B, "task_lists", "find", json!({}));
    assert_eq!(f["lists"][0]["updated_at"], db.now());

    db.add(&l2, &["task"]);
    db.advance(1);
    db.claim(B, &l2);
    assert_eq!(order(), [l2.clone(), l1.clone(), l3.clone()]);

    db.advance(1);
    db.update(A, json!({"task_id": t1[0], "notes": "touch"}));
    assert_eq!(order(), [l1, l2, l3]);
}

#[test]
fn find_pages_with_cursor_and_limit() {
    let db = TestDb::new();
    let mut ids = Vec::new();
    for i in 0..5 {
        ids.push(db.list(A, &format!("list {i}")));
        db.advance(1);
    }
    ids.reverse(); // newest first
    let page1 = db.ok(B, "task_lists", "find", json!({"limit": 2}));
    assert_eq!(strs(&page1, "/lists", "id"), ids[0..2]);
    let c1 = s(&page1, "/next_cursor");
    let page2 = db.ok(B, "task_lists", "find", json!({"limit": 2, "cursor": c1}));
    assert_eq!(strs(&page2, "/lists", "id"), ids[2..4]);
    let c2 = s(&page2, "/next_cursor");
    let page3 = db.ok(B, "task_lists", "find", json!({"limit": 2, "cursor": c2}));
    assert_eq!(strs(&page3, "/lists", "id"), ids[4..5]);
    assert_eq!(page3["next_cursor"], Value::Null);
    // An exact fit has no next page.
    let all = db.ok(B, "task_lists", "find", json!({"limit": 5}));
    assert_eq!(strs(&all, "/lists", "id"), ids);
    assert_eq!(all["next_cursor"], Value::Null);
    // A cursor combines with filters.
    let f = db.ok(B, "task_lists", "find", json!({"limit": 1, "name": "list"}));
    let f2 = db.ok(
        B,
        "task_lists",
        "find",
        json!({"limit": 1, "name": "list", "cursor": s(&f, "/next_cursor")}),
    );
    assert_eq!(strs(&f2, "/lists", "id"), ids[1..2]);
}

#[test]
fn find_pages_are_stable_when_lists_share_a_timestamp() {
    let db = TestDb::new();
    let mut ids: Vec<String> = (0..7)
        .map(|i| db.list(A, &format!("same time {i}")))
        .collect();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut p = json!({"limit": 3});
        if let Some(c) = &cursor {
            p["cursor"] = json!(c);
        }
        let page = db.ok(B, "task_lists", "find", p);
        let got = strs(&page, "/lists", "id");
        assert!(got.len() <= 3);
        seen.extend(got);
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(seen.len(), 7, "{seen:?}");
    let mut sorted_seen = seen.clone();
    sorted_seen.sort();
    sorted_seen.dedup();
    ids.sort();
    assert_eq!(sorted_seen, ids, "no duplicates, none missing");
}

#[test]
fn find_defaults_to_50_and_caps_at_200() {
    let db = TestDb::new();
    for i in 0..51 {
        db.list(A, &format!("l{i}"));
    }
    let f = db.ok(B, "task_lists", "find", json!({}));
    assert_eq!(f["lists"].as_array().unwrap().len(), 50);
    assert!(f["next_cursor"].is_string());
    let f = db.ok(B, "task_lists", "find", json!({"limit": 200}));
    assert_eq!(f["lists"].as_array().unwrap().len(), 51);
    assert_eq!(f["next_cursor"], Value::Null);
    let e = db.err(B, "task_lists", "find", json!({"limit": 201}));
    expect(&e, ErrorCode::InvalidParams, &["limit"]);
}

#[test]
fn find_and_get_count_tasks_per_status() {
    let db = TestDb::new();
    let list = db.list(A, "Counts");
    let other = db.list(A, "Empty");
    let ids = db.add(
        &list,
        &["done", "canceled", "blocked", "running", "todo", "deleted"],
    );
    for (agent, status, outcome) in [(A, "done", "ok"), (A, "canceled", "no")] {
        db.claim(agent, &list);
        db.update(agent, json!({"task_id": ids[if status == "done" { 0 } else { 1 }], "status": status, "outcome": outcome}));
    }
    db.update(A, json!({"task_id": ids[2], "status": "blocked"}));
    let c = db.claim(B, &list);
    assert_eq!(s(&c, "/task/id"), ids[3]);
    db.ok(A, "task_items", "delete", json!({"task_id": ids[5]}));
    let expected = json!({"todo": 1, "in_progress": 1, "blocked": 1, "done": 1, "canceled": 1});
    let f = db.ok(B, "task_lists", "find", json!({}));
    let mine = f["lists"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == list.as_str())
        .unwrap();
    assert_eq!(mine["counts"], expected);
    let empty = f["lists"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == other.as_str())
        .unwrap();
    assert_eq!(
        empty["counts"],
        json!({"todo": 0, "in_progress": 0, "blocked": 0, "done": 0, "canceled": 0})
    );
    assert_eq!(db.get(B, &list)["counts"], expected);
}

#[test]
fn find_hides_private_lists_of_others_and_shows_deleted_on_request() {
    let db = TestDb::new();
    let private = db.private_list(A, "secret");
    let shared = db.list(A, "open");
    let gone = db.list(A, "gone");
    db.ok(A, "task_lists", "delete", json!({"list_id": gone}));
    let ids = |agent: &str, p: Value| {
        let mut v = strs(&db.ok(agent, "task_lists", "find", p), "/lists", "id");
        v.sort();
        v
    };
    let mut mine = vec![private.clone(), shared.clone()];
    mine.sort();
    assert_eq!(ids(A, json!({})), mine);
    assert_eq!(ids(B, json!({})), vec![shared.clone()]);
    let mut with_deleted = vec![shared.clone(), gone.clone()];
    with_deleted.sort();
    assert_eq!(ids(B, json!({"include_deleted": true})), with_deleted);
    let f = db.ok(
        B,
        "task_lists",
        "find",
        json!({"include_deleted": true, "name": "gone"}),
    );
    assert!(f["lists"][0]["deleted_at"].is_string(), "{f}");
}

#[test]
fn get_returns_tasks_in_position_order_and_filters_by_status() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b", "c", "d"]);
    // Move d first so position order differs from creation order.
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[3]], "position": 1}),
    );
    db.claim(A, &list); // d
    db.update(
        A,
        json!({"task_id": ids[3], "status": "done", "outcome": "ok"}),
    );
    db.update(A, json!({"task_id": ids[1], "status": "blocked"}));
    db.claim(B, &list); // a

    let g = db.get(B, &list);
    assert_eq!(
        strs(&g, "/tasks", "id"),
        [
            ids[3].clone(),
            ids[0].clone(),
            ids[1].clone(),
            ids[2].clone()
        ]
    );
    let positions: Vec<i64> = g["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["position"].as_i64().unwrap())
        .collect();
    assert_eq!(positions, [1, 2, 3, 4]);

    let only = |status: Value| {
        let g = db.ok(
            B,
            "task_lists",
            "get",
            json!({"list_id": list, "status": status}),
        );
        // Counts always cover the whole list.
        assert_eq!(g["counts"]["todo"], 1);
        strs(&g, "/tasks", "id")
    };
    assert_eq!(only(json!("todo")), [ids[2].clone()]);
    assert_eq!(only(json!("in_progress")), [ids[0].clone()]);
    assert_eq!(
        only(json!(["blocked", "done"])),
        [ids[3].clone(), ids[1].clone()]
    );
    assert_eq!(only(json!(["canceled"])), Vec::<String>::new());
}

#[test]
fn get_can_leave_tasks_out() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    db.add(&list, &["a", "b"]);
    let g = db.ok(
        B,
        "task_lists",
        "get",
        json!({"list_id": list, "include_tasks": false}),
    );
    assert!(g.get("tasks").is_none(), "{g}");
    assert_eq!(g["counts"]["todo"], 2);
    assert_eq!(g["list"]["id"], list.as_str());
    let g = db.ok(
        B,
        "task_lists",
        "get",
        json!({"list_id": list, "include_tasks": true}),
    );
    assert_eq!(g["tasks"].as_array().unwrap().len(), 2);
}

#[test]
fn get_include_deleted_shows_deleted_tasks() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b", "c"]);
    db.advance(10);
    db.ok(A, "task_items", "delete", json!({"task_id": ids[1]}));
    let g = db.get(B, &list);
    assert_eq!(strs(&g, "/tasks", "id"), [ids[0].clone(), ids[2].clone()]);
    let g = db.ok(
        B,
        "task_lists",
        "get",
        json!({"list_id": list, "include_deleted": true}),
    );
    let tasks = g["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 3);
    let deleted = tasks.iter().find(|t| t["id"] == ids[1].as_str()).unwrap();
    assert_eq!(deleted["deleted_at"], db.now());
    assert!(
        tasks
            .iter()
            .filter(|t| t["id"] != ids[1].as_str())
            .all(|t| t.get("deleted_at").is_none())
    );
    assert_eq!(g["counts"]["todo"], 2, "deleted tasks are not counted");
}

#[test]
fn delete_soft_deletes_the_list_and_only_its_active_tasks() {
    let db = TestDb::new();
    let list = db.list(A, "Doomed");
    let ids = db.add(&list, &["done", "canceled", "todo", "running", "blocked"]);
    db.claim(A, &list);
    db.update(
        A,
        json!({"task_id": ids[0], "status": "done", "outcome": "shipped"}),
    );
    db.update(
        A,
        json!({"task_id": ids[1], "status": "canceled", "outcome": "dropped"}),
    );
    db.update(A, json!({"task_id": ids[4], "status": "blocked"}));
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[3]], "position": 1}),
    );
    let c = db.claim(B, &list);
    assert_eq!(s(&c, "/task/id"), ids[3]);
    db.advance(60);

    // While B's lease runs, the list is not deleted from under it.
    let before = db.snapshot(A, &list);
    let e = db.err(A, "task_lists", "delete", json!({"list_id": list}));
    expect(&e, ErrorCode::Conflict, &[&list, &ids[3], B]);
    assert_eq!(db.snapshot(A, &list), before);
    // Once the lease has run out, the list can go.
    db.advance(900);

    let out = db.out(A, "task_lists", "delete", json!({"list_id": list}));
    assert_eq!(out.data, json!({"list_id": list, "deleted_tasks": 3}));
    assert!(out.summary.contains(&list), "{}", out.summary);

    // Gone for normal calls.
    let e = db.err(A, "task_lists", "get", json!({"list_id": list}));
    expect(&e, ErrorCode::NotFound, &[&list]);
    assert!(e.hint.contains("include_deleted"), "{}", e.hint);
    for (tool, action, params) in [
        ("task_claims", "claim_next", json!({"list_id": list})),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": "late"}),
        ),
        (
            "task_items",
            "update",
            json!({"task_id": ids[0], "notes": "late"}),
        ),
        (
            "task_items",
            "update",
            json!({"task_id": ids[2], "notes": "late"}),
        ),
        ("task_claims", "refresh", json!({"task_id": ids[3]})),
        ("task_lists", "delete", json!({"list_id": list})),
    ] {
        let e = db.err(B, tool, action, params);
        assert_eq!(
            e.code,
            ErrorCode::NotFound,
            "{tool} {action}: {}",
            e.message
        );
    }
    assert!(strs(&db.ok(A, "task_lists", "find", json!({})), "/lists", "id").is_empty());

    // Nothing was erased.
    let g = db.ok(
        A,
        "task_lists",
        "get",
        json!({"list_id": list, "include_deleted": true}),
    );
    assert_eq!(g["list"]["deleted_at"], db.now());
    let by_id = |id: &str| {
        g["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .unwrap()
            .clone()
    };
    let done = by_id(&ids[0]);
    assert_eq!(
        (done["status"].clone(), done["outcome"].clone()),
        (json!("done"), json!("shipped"))
    );
    assert!(
        done.get("deleted_at").is_none(),
        "closed tasks keep their history: {done}"
    );
    assert!(by_id(&ids[1]).get("deleted_at").is_none());
    for id in &ids[2..] {
        assert_eq!(by_id(id)["deleted_at"], db.now(), "{id}");
    }
    assert_eq!(g["counts"]["done"], 1);
    assert_eq!(g["counts"]["canceled"], 1);
    assert_eq!(
        g["counts"]["todo"].as_i64().unwrap()
            + g["counts"]["in_progress"].as_i64().unwrap()
            + g["counts"]["blocked"].as_i64().unwrap(),
        0
    );
    // The audit log records it and stays readable.
    let events = db.events(A, &list);
    assert_eq!(events[0]["kind"], "deleted");
    assert_eq!(events[0]["task_id"], Value::Null);
    assert_eq!(events[0]["data"]["deleted_tasks"], 3);
    // …and each active task it deleted.
    let mut deleted: Vec<&str> = events[1..4]
        .iter()
        .map(|e| e["task_id"].as_str().unwrap())
        .collect();
    deleted.sort();
    let mut active: Vec<&str> = ids[2..].iter().map(String::as_str).collect();
    active.sort();
    assert_eq!(deleted, active);
    assert!(events[1..4].iter().all(|e| e["kind"] == "deleted"));
}

/// The squat: A makes a *shared* list with the name B would give its
/// private notes, in B's agent scope. B's private get_or_create must not
/// hand it A's list (what B writes there would be readable by A).
#[test]
fn get_or_create_private_only_ever_returns_the_callers_own_private_list() {
    let db = TestDb::new();
    let squat = db.ok(
        A,
        "task_lists",
        "create",
        json!({"name": "my private notes", "scope_type": "agent", "scope_key": B}),
    );
    let squat_id = s(&squat, "/list/id");
    let request = json!({"name": "my private notes", "scope_type": "agent", "visibility": "private", "get_or_create": true});
    let mine = db.ok(B, "task_lists", "create", request.clone());
    assert_eq!(mine["created"], true, "{mine}");
    let mine_id = s(&mine, "/list/id");
    assert_ne!(mine_id, squat_id);
    assert_eq!(mine["list"]["visibility"], "private");
    assert_eq!(mine["list"]["owner_agent_id"], B);
    // What B writes there stays B's.
    db.ok(
        B,
        "task_items",
        "create",
        json!({"list_id": mine_id, "title": "password hints"}),
    );
    let e = db.err(A, "task_lists", "get", json!({"list_id": mine_id}));
    expect(&e, ErrorCode::Forbidden, &[]);
    // Asked again, B gets its own private list back; a shared request
    // matches the shared list.
    let again = db.ok(B, "task_lists", "create", request);
    assert_eq!(
        (again["created"].clone(), s(&again, "/list/id")),
        (json!(false), mine_id.clone())
    );
    let shared = db.ok(
        B,
        "task_lists",
        "create",
        json!({"name": "my private notes", "scope_type": "agent", "get_or_create": true}),
    );
    assert_eq!(
        (shared["created"].clone(), s(&shared, "/list/id")),
        (json!(false), squat_id)
    );
}

#[test]
fn get_or_create_cannot_look_for_a_private_list_of_another_agent() {
    let db = TestDb::new();
    db.list(A, "Unrelated");
    let before = db.dump();
    let e = db.err(
        A,
        "task_lists",
        "create",
        json!({"name": "Theirs", "visibility": "private", "owner_agent_id": B, "get_or_create": true}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["only your own private lists"],
    );
    assert!(e.hint.contains("drop get_or_create"), "{}", e.hint);
    assert_eq!(db.dump(), before, "refused: nothing changed");
    // Without get_or_create, a private list for another agent is made.
    let d = db.ok(
        A,
        "task_lists",
        "create",
        json!({"name": "Theirs", "visibility": "private", "owner_agent_id": B}),
    );
    assert_eq!(d["list"]["owner_agent_id"], B);
}

#[test]
fn get_pages_through_tasks_with_limit_and_cursor() {
    let db = TestDb::new();
    let list = db.list(A, "Long");
    let titles: Vec<String> = (0..250).map(|i| format!("task {i}")).collect();
    let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
    let ids = db.add(&list, &refs);
    let page = |params: Value| db.out(B, "task_lists", "get", params);
    // The default page is 100 tasks, with a cursor to the rest.
    let first = page(json!({"list_id": list}));
    assert_eq!(strs(&first.data, "/tasks", "id"), ids[..100]);
    assert!(
        first
            .summary
            .ends_with("100 tasks shown (more: pass next_cursor)"),
        "{}",
        first.summary
    );
    assert_eq!(
        first.data["counts"]["todo"], 250,
        "counts cover the whole list"
    );
    let pages = db.pages(
        B,
        "task_lists",
        "get",
        json!({"list_id": list, "limit": 90}),
    );
    let last = pages.last().unwrap();
    assert!(last.summary.ends_with("70 tasks shown"), "{}", last.summary);
    let seen: Vec<String> = pages
        .iter()
        .flat_map(|p| strs(&p.data, "/tasks", "id"))
        .collect();
    let pages = pages.len();
    assert_eq!((pages, seen), (3, ids.clone()));
    // Deleted tasks follow the live ones, in their own run; a page that
    // ends exactly where the live tasks end still points at them.
    db.ok(
        A,
        "task_items",
        "delete",
        json!({"task_ids": [ids[0], ids[10], ids[20]]}),
    );
    let live = page(json!({"list_id": list, "include_deleted": true, "limit": 247}));
    assert_eq!(live.data["tasks"].as_array().unwrap().len(), 247);
    assert!(live.data["tasks"][246].get("deleted_at").is_none());
    let cursor = s(&live.data, "/next_cursor");
    let deleted = page(json!({"list_id": list, "include_deleted": true, "cursor": cursor}));
    assert_eq!(
        strs(&deleted.data, "/tasks", "id"),
        [ids[0].clone(), ids[10].clone(), ids[20].clone()]
    );
    assert!(deleted.data["next_cursor"].is_null());
    // A cursor into the deleted run needs include_deleted again.
    let into_deleted = page(json!({"list_id": list, "include_deleted": true, "limit": 248}));
    let cursor = s(&into_deleted.data, "/next_cursor");
    let e = db.err(
        B,
        "task_lists",
        "get",
        json!({"list_id": list, "cursor": cursor}),
    );
    expect(&e, ErrorCode::InvalidParams, &["include_deleted"]);
    for bad in [
        "garbage",
        "p1.task_nope",
        "x1.task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
        "p.task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
    ] {
        let e = db.err(
            B,
            "task_lists",
            "get",
            json!({"list_id": list, "cursor": bad}),
        );
        expect(
            &e,
            ErrorCode::InvalidParams,
            &["not a next_cursor of task_lists get"],
        );
    }
    let e = db.err(
        B,
        "task_lists",
        "get",
        json!({"list_id": list, "limit": 501}),
    );
    expect(&e, ErrorCode::InvalidParams, &["limit", "1 to 500"]);
}

#[test]
fn get_rows_leave_out_the_list_id_and_history_times_unless_asked() {
    let db = TestDb::new();
    let list = db.list(A, "Rows");
    let ids = db.add(&list, &["first", "second"]);
    db.claim(A, &list);
    db.advance(5);
    let g = db.get(B, &list);
    let running = &g["tasks"][0];
    assert_eq!(
        running,
        &json!({"id": ids[0], "position": 1, "title": "first", "status": "in_progress",
                "claimed_by_agent_id": A, "claim_expires_at": fmt_ms(T0 + 900_000)})
    );
    let with_times = db.ok(
        B,
        "task_lists",
        "get",
        json!({"list_id": list, "include_times": true}),
    );
    let t = &with_times["tasks"][0];
    assert!(t.get("list_id").is_none());
    assert_eq!(t["created_at"], fmt_ms(T0));
    assert_eq!(t["updated_at"], fmt_ms(T0));
    assert_eq!(t["started_at"], fmt_ms(T0));
    // The whole task still comes with every other result.
    let c = db.claim(A, &list);
    assert_eq!(c["task"]["list_id"], list.as_str());
    assert_eq!(c["task"]["created_at"], fmt_ms(T0));
}

/// The board of a typical 50-task list (15 done with outcomes, 3 running
/// with notes, 2 paused, dependencies, a few descriptions) is at most
/// 2,500 tokens (chars / 4) of text for the model.
#[test]
fn a_50_task_board_fits_in_2500_tokens() {
    let db = TestDb::new();
    let list = db.list("planner", "Release 2.4 of the web app");
    let verbs = [
        "Write",
        "Review",
        "Test",
        "Document",
        "Refactor",
        "Migrate",
        "Benchmark",
        "Fix",
    ];
    let things = [
        "the login endpoint",
        "the settings page",
        "the billing export",
        "the search index",
        "the audit trail",
        "the onboarding emails",
        "the mobile layout",
        "the CSV importer",
    ];
    let tasks: Vec<Value> = (0..50)
        .map(|i| {
            let mut t = json!({"ref": format!("t{i}"), "title": format!("{} {} (part {})", verbs[i % 8], things[(i * 3) % 8], i / 8 + 1)});
            if i % 5 == 4 {
                t["depends_on"] = json!([format!("t{}", i - 1)]);
            }
            if i % 7 == 0 {
                t["description"] = json!("Acceptance: the change is covered by tests and documented in the changelog.");
            }
            t
        })
        .collect();
    db.ok(
        "planner",
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": tasks}),
    );
    for n in 0..15 {
        let agent = format!("builder-{}", n % 3);
        let c = db.claim(&agent, &list);
        db.update(&agent, json!({"task_id": c["task"]["id"], "status": "done",
            "outcome": "Done: implemented, 12 tests added, reviewed by the team; the changelog mentions it."}));
    }
    for n in 0..3 {
        let agent = format!("worker-{n}");
        let c = db.claim(&agent, &list);
        db.update(&agent, json!({"task_id": c["task"]["id"],
            "notes": "Context: the old code path stays behind a flag; next: remove the flag after the release."}));
    }
    for n in 0..2 {
        let agent = format!("pauser-{n}");
        let c = db.claim(&agent, &list);
        db.update(
            &agent,
            json!({"task_id": c["task"]["id"], "status": "blocked",
            "notes": "Waiting for the product owner to decide on the wording."}),
        );
    }
    let out = db.out("reader", "task_lists", "get", json!({"list_id": list}));
    assert_eq!(out.data["tasks"].as_array().unwrap().len(), 50);
    let chars = out.to_content_text().chars().count();
    println!("50-task board: {chars} characters, ~{} tokens", chars / 4);
    assert!(chars <= 10_000, "{chars} characters");
}
