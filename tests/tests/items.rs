//! `task_items`: create (append / insert), add_many (refs, all or nothing,
//! limits, cycles), dependencies, reorder, delete.

use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";

#[test]
fn create_appends_with_dense_positions() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let mut ids = Vec::new();
    for (i, title) in ["one", "two", "three"].iter().enumerate() {
        let out = db.out(
            A,
            "task_items",
            "create",
            json!({"list_id": list, "title": title}),
        );
        let t = &out.data["task"];
        assert_eq!(t["position"], json!(i + 1));
        assert_eq!(t["title"], *title);
        assert_eq!(t["status"], "todo");
        assert_eq!(t["list_id"], list.as_str());
        assert_eq!(t["created_at"], db.now());
        assert_eq!(t["updated_at"], db.now());
        for absent in [
            "claimed_by_agent_id",
            "claim_expires_at",
            "started_at",
            "completed_at",
            "outcome",
            "deleted_at",
            "assigned_to_agent_id",
            "depends_on",
        ] {
            assert!(t.get(absent).is_none(), "{absent} should be absent: {t}");
        }
        let id = s(t, "/id");
        assert!(id.starts_with("task_"));
        assert!(out.summary.contains(&id), "{}", out.summary);
        ids.push(id);
    }
    assert_eq!(db.order(&list), ids);
}

#[test]
fn create_keeps_every_given_field() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let first = db.add(&list, &["first"]).remove(0);
    let d = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "T", "description": "D", "notes": "N", "assigned_to_agent_id": B, "depends_on": [first, first]}),
    );
    let t = &d["task"];
    assert_eq!(t["description"], "D");
    assert_eq!(t["notes"], "N");
    assert_eq!(t["assigned_to_agent_id"], B);
    assert_eq!(t["depends_on"], json!([first]), "duplicates collapse");
    assert_eq!(db.task(A, &list, &s(t, "/id")), *t, "returned as stored");
}

#[test]
fn create_inserts_at_a_position_and_shifts_the_rest() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b", "c"]);
    let ins = |title: &str, position: i64| {
        let d = db.ok(
            A,
            "task_items",
            "create",
            json!({"list_id": list, "title": title, "position": position}),
        );
        assert_eq!(d["task"]["position"], position);
        s(&d, "/task/id")
    };
    let x = ins("x", 1);
    assert_eq!(
        db.order(&list),
        [x.clone(), ids[0].clone(), ids[1].clone(), ids[2].clone()]
    );
    let y = ins("y", 3);
    assert_eq!(
        db.order(&list),
        [
            x.clone(),
            ids[0].clone(),
            y.clone(),
            ids[1].clone(),
            ids[2].clone()
        ]
    );
    let z = ins("z", 6); // one past the end: append
    assert_eq!(
        db.order(&list),
        [x, ids[0].clone(), y, ids[1].clone(), ids[2].clone(), z]
    );
}

#[test]
fn a_position_past_the_end_is_refused() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let empty = db.list(A, "Empty");
    db.add(&list, &["a", "b"]);
    let before = db.snapshot(A, &list);
    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "far", "position": 4}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["position 4", "past the end", "2 tasks"],
    );
    assert!(e.hint.contains("1 to 3"), "{}", e.hint);
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "x"}], "position": 9}),
    );
    expect(&e, ErrorCode::InvalidParams, &["position 9"]);
    assert_eq!(db.snapshot(A, &list), before);
    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": empty, "title": "x", "position": 2}),
    );
    expect(&e, ErrorCode::InvalidParams, &["position 2"]);
    let d = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": empty, "title": "x", "position": 1}),
    );
    assert_eq!(d["task"]["position"], 1);
}

#[test]
fn depends_on_names_tasks_of_the_same_list_only() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let other = db.list(A, "Other");
    let here = db.add(&list, &["here", "gone"]);
    let there = db.add(&other, &["there"]).remove(0);
    db.ok(A, "task_items", "delete", json!({"task_id": here[1]}));
    let before = db.snapshot(A, &list);

    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "t", "depends_on": [there]}),
    );
    // The same words whether the task is in another list or missing: an
    // agent learns nothing about lists it may not see.
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["depends_on", &there, "not a task of list", &list],
    );
    let ghost = "task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B";
    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "t", "depends_on": [ghost]}),
    );
    expect(&e, ErrorCode::InvalidParams, &["depends_on", ghost]);
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "t", "depends_on": [there]}]}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &[&there, "not a task of list"],
    );
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": here[0], "depends_on": [there]}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &[&there, "not a task of list"],
    );
    assert_eq!(db.snapshot(A, &list), before);

    // A deleted task of the list no longer blocks: it is dropped from
    // depends_on, so a list read back from an older result stays valid.
    let d = db.update(A, json!({"task_id": here[0], "depends_on": [here[1]]}));
    assert!(d["task"].get("depends_on").is_none(), "{d}");

    let d = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "t", "depends_on": [here[0]]}),
    );
    assert_eq!(d["task"]["depends_on"], json!([here[0]]));
}

#[test]
fn add_many_resolves_refs_before_and_after_and_existing_ids() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let existing = db.add(&list, &["existing"]).remove(0);
    let out = db.out(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"ref": "api", "title": "Write API", "depends_on": ["schema"]},
            {"ref": "schema", "title": "Design schema", "notes": "start here"},
            {"title": "Docs", "depends_on": ["api", existing], "assigned_to_agent_id": B, "description": "d"},
        ]}),
    );
    let d = &out.data;
    let tasks = d["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 3);
    let ids = strs(d, "/tasks", "id");
    assert_eq!(
        strs(d, "/tasks", "title"),
        ["Write API", "Design schema", "Docs"],
        "in the order given"
    );
    assert_eq!(tasks[0]["depends_on"], json!([ids[1]]));
    assert!(tasks[1].get("depends_on").is_none());
    let mut docs_deps: Vec<&str> = tasks[2]["depends_on"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    docs_deps.sort();
    let mut want = vec![ids[0].as_str(), existing.as_str()];
    want.sort();
    assert_eq!(docs_deps, want);
    assert_eq!(tasks[1]["notes"], "start here");
    assert_eq!(tasks[2]["assigned_to_agent_id"], B);
    assert_eq!(tasks[2]["description"], "d");
    assert!(
        tasks.iter().all(|t| t.get("ref").is_none()),
        "refs are batch-local"
    );
    let positions: Vec<i64> = tasks
        .iter()
        .map(|t| t["position"].as_i64().unwrap())
        .collect();
    assert_eq!(positions, [2, 3, 4]);
    assert!(out.summary.contains(&list), "{}", out.summary);

    // The stored dependencies drive claims: "schema" is the first ready task
    // once "existing" is out of the way.
    db.update(
        A,
        json!({"task_id": existing, "status": "canceled", "outcome": "obsolete"}),
    );
    let c = db.claim(A, &list);
    assert_eq!(s(&c, "/task/id"), ids[1]);
}

#[test]
fn add_many_resolves_a_ref_to_an_earlier_item() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"ref": "first", "title": "first"}, {"title": "second", "depends_on": ["first"]}]}),
    );
    let ids = strs(&d, "/tasks", "id");
    assert_eq!(d["tasks"][1]["depends_on"], json!([ids[0]]));
    assert_eq!(db.task(A, &list, &ids[1])["depends_on"], json!([ids[0]]));
}

/// The contract lets an item depend on a ref defined *after* it in the batch.
#[test]
fn add_many_resolves_a_ref_to_a_later_item() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "second", "depends_on": ["first"]}, {"ref": "first", "title": "first"}]}),
    );
    let ids = strs(&d, "/tasks", "id");
    assert_eq!(d["tasks"][0]["depends_on"], json!([ids[1]]));
    assert_eq!(db.task(A, &list, &ids[0])["depends_on"], json!([ids[1]]));
    let c = db.claim(B, &list);
    assert_eq!(s(&c, "/task/id"), ids[1], "the dependency runs first");
}

/// Agents name refs naturally (`task_1`, `task_2`): a ref is any 1–64
/// character string, so one that starts like a task id is still a ref.
#[test]
fn add_many_refs_may_look_like_task_ids() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"ref": "task_1", "title": "one"}, {"ref": "task_2", "title": "two", "depends_on": ["task_1"]}]}),
    );
    let ids = strs(&d, "/tasks", "id");
    assert_eq!(d["tasks"][1]["depends_on"], json!([ids[0]]));
}

#[test]
fn add_many_inserts_the_batch_at_a_position() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ab = db.add(&list, &["a", "b"]);
    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "position": 2, "tasks": [{"title": "x"}, {"title": "y"}]}),
    );
    let xy = strs(&d, "/tasks", "id");
    assert_eq!(d["tasks"][0]["position"], 2);
    assert_eq!(d["tasks"][1]["position"], 3);
    assert_eq!(
        db.order(&list),
        [ab[0].clone(), xy[0].clone(), xy[1].clone(), ab[1].clone()]
    );
}

#[test]
fn add_many_is_all_or_nothing() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let other = db.list(A, "Other");
    let foreign = db.add(&other, &["foreign"]).remove(0);
    db.add(&list, &["existing"]);
    let before = db.snapshot(A, &list);
    let ok = |t: &str| json!({"title": t});

    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [ok("1"), {"ref": "two", "title": "2"}, {"title": "3", "depends_on": ["tow"]}]}),
    );
    expect(&e, ErrorCode::InvalidParams, &["tasks[2]", "\"tow\""]);
    assert!(
        e.hint.contains("two"),
        "the hint lists the batch refs: {}",
        e.hint
    );

    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [ok("1"), ok("2"), ok("3"), {"title": "x".repeat(501)}]}),
    );
    expect(&e, ErrorCode::InvalidParams, &["tasks[3]", "title"]);

    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [ok("1"), {"title": "2", "depends_on": [foreign]}]}),
    );
    expect(&e, ErrorCode::InvalidParams, &[&foreign]);

    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"ref": "r", "title": "1"}, {"ref": "r", "title": "2"}]}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["\"r\"", "tasks[0]", "tasks[1]"],
    );

    assert_eq!(
        db.snapshot(A, &list),
        before,
        "a refused batch inserts nothing"
    );
}

#[test]
fn add_many_takes_up_to_500_tasks() {
    let db = TestDb::new();
    let list = db.list(A, "Big");
    let tasks: Vec<Value> = (0..501)
        .map(|i| json!({"title": format!("task {i}")}))
        .collect();
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": tasks}),
    );
    expect(&e, ErrorCode::InvalidParams, &["tasks", "1 to 500"]);
    assert_eq!(db.get(A, &list)["tasks"], json!([]));

    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": tasks[..500]}),
    );
    assert_eq!(d["tasks"].as_array().unwrap().len(), 500);
    assert_eq!(d["tasks"][499]["position"], 500);
    assert_eq!(d["tasks"][499]["title"], "task 499");
    let g = db.get(A, &list);
    assert_eq!(g["counts"]["todo"], 500);
    assert_eq!(db.order(&list).len(), 500);
}

#[test]
fn add_many_refuses_a_cycle_naming_the_refs() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let before = db.snapshot(A, &list);
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"ref": "free", "title": "free"},
            {"ref": "alpha", "title": "A", "depends_on": ["beta"]},
            {"ref": "beta", "title": "B", "depends_on": ["gamma", "free"]},
            {"ref": "gamma", "title": "C", "depends_on": ["alpha"]},
        ]}),
    );
    expect(
        &e,
        ErrorCode::Cycle,
        &["\"alpha\"", "\"beta\"", "\"gamma\"", "→"],
    );
    assert!(
        !e.message.contains("\"free\""),
        "only the cycle is named: {}",
        e.message
    );
    assert!(!e.hint.is_empty());

    let e = db.err(A, "task_items", "add_many", json!({"list_id": list, "tasks": [{"ref": "me", "title": "selfish", "depends_on": ["me"]}]}));
    expect(&e, ErrorCode::Cycle, &["\"me\""]);
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn update_refuses_a_dependency_cycle_naming_the_path() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b", "c", "d"]);
    db.update(A, json!({"task_id": ids[1], "depends_on": [ids[0]]}));
    db.update(A, json!({"task_id": ids[2], "depends_on": [ids[1]]}));
    let before = db.snapshot(A, &list);

    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "depends_on": [ids[3], ids[2]], "notes": "must not stick"}),
    );
    expect(&e, ErrorCode::Cycle, &[&ids[0], &ids[1], &ids[2], "→"]);
    assert!(!e.message.contains(&ids[3]), "{}", e.message);

    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "depends_on": [ids[0]]}),
    );
    expect(&e, ErrorCode::Cycle, &[&ids[0], "itself"]);
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn update_depends_on_replaces_and_clears() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b", "c"]);
    let d = db.update(
        A,
        json!({"task_id": ids[2], "depends_on": [ids[0], ids[1]]}),
    );
    assert_eq!(d["task"]["depends_on"].as_array().unwrap().len(), 2);
    let d = db.update(A, json!({"task_id": ids[2], "depends_on": [ids[1]]}));
    assert_eq!(d["task"]["depends_on"], json!([ids[1]]));
    assert_eq!(db.task(A, &list, &ids[2])["depends_on"], json!([ids[1]]));
    let d = db.update(A, json!({"task_id": ids[2], "depends_on": []}));
    assert!(d["task"].get("depends_on").is_none(), "{d}");
    assert!(db.task(A, &list, &ids[2]).get("depends_on").is_none());
}

fn five(db: &TestDb) -> (String, Vec<String>) {
    let list = db.list(A, "Reorder");
    let ids = db.add(&list, &["a", "b", "c", "d", "e"]);
    (list, ids)
}

fn pick(ids: &[String], idx: &[usize]) -> Vec<String> {
    idx.iter().map(|i| ids[*i].clone()).collect()
}

#[test]
fn reorder_moves_tasks_to_a_position() {
    let db = TestDb::new();
    let (list, ids) = five(&db);
    let d = db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[4], ids[3]], "position": 2}),
    );
    let want = pick(&ids, &[0, 4, 3, 1, 2]);
    // The moved tasks, in the order given, at their new positions; b and c
    // moved down to make room.
    assert_eq!(
        d,
        json!({"tasks": [{"id": ids[4], "position": 2}, {"id": ids[3], "position": 3}], "shifted": 2})
    );
    assert_eq!(db.order(&list), want);
    // Default position is 1.
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[2]]}),
    );
    assert_eq!(db.order(&list), pick(&ids, &[2, 0, 4, 3, 1]));
    // Last possible position for one moved task: the end.
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[2]], "position": 5}),
    );
    assert_eq!(db.order(&list), pick(&ids, &[0, 4, 3, 1, 2]));
}

#[test]
fn reorder_moves_tasks_before_or_after_an_anchor() {
    let db = TestDb::new();
    let (list, ids) = five(&db);
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[0]], "before_task_id": ids[3]}),
    );
    assert_eq!(db.order(&list), pick(&ids, &[1, 2, 0, 3, 4]));
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[1], ids[2]], "after_task_id": ids[4]}),
    );
    assert_eq!(db.order(&list), pick(&ids, &[0, 3, 4, 1, 2]));
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[2]], "before_task_id": ids[0]}),
    );
    assert_eq!(db.order(&list), pick(&ids, &[2, 0, 3, 4, 1]));
}

#[test]
fn reorder_with_every_id_sets_the_whole_order() {
    let db = TestDb::new();
    let (list, ids) = five(&db);
    let want = pick(&ids, &[4, 2, 0, 3, 1]);
    let d = db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": want}),
    );
    assert_eq!(strs(&d, "/tasks", "id"), want);
    assert_eq!(db.order(&list), want);
    let events = db.events(A, &list);
    assert_eq!(events[0]["kind"], "reordered");
    assert_eq!(events[0]["data"]["task_ids"], json!(want));
}

#[test]
fn reorder_refuses_bad_requests_and_changes_nothing() {
    let db = TestDb::new();
    let (list, ids) = five(&db);
    let other = db.list(A, "Other");
    let foreign = db.add(&other, &["x"]).remove(0);
    let gone = db.add(&list, &["gone"]).remove(0);
    db.ok(A, "task_items", "delete", json!({"task_id": gone}));
    let before = db.snapshot(A, &list);
    let cases = [
        (
            json!({"list_id": list, "task_ids": [ids[0], ids[1]], "before_task_id": ids[1]}),
            vec!["before_task_id", ids[1].as_str(), "being moved"],
        ),
        (
            json!({"list_id": list, "task_ids": [ids[0]], "after_task_id": ids[0]}),
            vec!["after_task_id", "being moved"],
        ),
        (
            json!({"list_id": list, "task_ids": [ids[0]], "position": 2, "before_task_id": ids[3]}),
            vec!["at most one"],
        ),
        (
            json!({"list_id": list, "task_ids": [ids[0]], "before_task_id": ids[2], "after_task_id": ids[3]}),
            vec!["at most one"],
        ),
        (
            json!({"list_id": list, "task_ids": [ids[0], ids[1]], "position": 5}),
            vec!["position 5", "past the end"],
        ),
        (
            json!({"list_id": list, "task_ids": [ids[0], ids[0]]}),
            vec![ids[0].as_str(), "twice"],
        ),
        (
            json!({"list_id": list, "task_ids": [ids[0], foreign]}),
            vec!["task_ids[1]", foreign.as_str()],
        ),
        (
            json!({"list_id": list, "task_ids": [gone]}),
            vec!["task_ids[0]", gone.as_str()],
        ),
        (
            json!({"list_id": list, "task_ids": [ids[0]], "before_task_id": foreign}),
            vec!["before_task_id", foreign.as_str()],
        ),
    ];
    for (params, needles) in cases {
        let e = db.err(A, "task_items", "reorder", params.clone());
        let code = ErrorCode::InvalidParams;
        assert_eq!(e.code, code, "{params}: {}", e.message);
        expect(&e, code, &needles);
    }
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn delete_soft_deletes_one_or_many_and_compacts_positions() {
    let db = TestDb::new();
    let (list, ids) = five(&db);
    db.advance(3);
    let out = db.out(A, "task_items", "delete", json!({"task_id": ids[1]}));
    assert_eq!(out.data, json!({"deleted": [ids[1]]}));
    assert!(out.summary.contains(&ids[1]));
    assert_eq!(db.order(&list), pick(&ids, &[0, 2, 3, 4]));
    let d = db.ok(
        A,
        "task_items",
        "delete",
        json!({"task_ids": [ids[4], ids[0]]}),
    );
    assert_eq!(d["deleted"], json!([ids[4], ids[0]]));
    assert_eq!(db.order(&list), pick(&ids, &[2, 3]));
    let t = db.task(A, &list, &ids[0]);
    assert_eq!(t["deleted_at"], db.now());
    assert_eq!(t["title"], "a", "soft: still readable");
    // Deleted tasks are gone for every other action.
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[1], "notes": "x"}),
    );
    expect(&e, ErrorCode::NotFound, &[&ids[1]]);
    let e = db.err(A, "task_items", "delete", json!({"task_id": ids[1]}));
    expect(&e, ErrorCode::NotFound, &[&ids[1]]);
    // Not both forms at once.
    let e = db.err(
        A,
        "task_items",
        "delete",
        json!({"task_id": ids[2], "task_ids": [ids[3]]}),
    );
    expect(&e, ErrorCode::InvalidParams, &["task_id", "task_ids"]);
    let events = db.events(A, &list);
    assert_eq!(kinds(&events[..3]), ["deleted", "deleted", "deleted"]);
}

#[test]
fn delete_is_refused_while_another_agent_holds_the_task() {
    let db = TestDb::new();
    let (list, ids) = five(&db);
    let c = db.claim_lease(B, &list, 120);
    assert_eq!(s(&c, "/task/id"), ids[0]);
    let before = db.snapshot(A, &list);
    let e = db.err(A, "task_items", "delete", json!({"task_id": ids[0]}));
    expect(&e, ErrorCode::Conflict, &[&ids[0], B, &db.now_plus(120)]);
    // All or nothing: the free task listed first is not deleted either.
    let e = db.err(
        A,
        "task_items",
        "delete",
        json!({"task_ids": [ids[2], ids[0]]}),
    );
    expect(&e, ErrorCode::Conflict, &[&ids[0]]);
    assert_eq!(db.snapshot(A, &list), before);
    // Once the lease has run out, anyone may delete it.
    db.advance(121);
    db.ok(A, "task_items", "delete", json!({"task_id": ids[0]}));
    assert_eq!(db.order(&list), pick(&ids, &[1, 2, 3, 4]));
}

#[test]
fn the_holder_may_delete_its_own_task() {
    let db = TestDb::new();
    let (list, ids) = five(&db);
    db.claim(B, &list);
    db.ok(B, "task_items", "delete", json!({"task_id": ids[0]}));
    // Its claim ended with the task: the next claim is a new task.
    let c = db.claim(B, &list);
    assert_eq!(s(&c, "/task/id"), ids[1]);
    assert!(c.get("resumed").is_none());
}
