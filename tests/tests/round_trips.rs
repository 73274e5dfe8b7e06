//! What the agents' hot path costs across a network on PostgreSQL, in
//! round trips (the latency proxy counts them: the client speaking again
//! after the server answered), on a warm connection: a claim is one round
//! trip (its lock, the pick, the claim, its audit row and the COMMIT sent
//! together), a close by the claim holder one too (its checks, the change
//! and its audit row in one statement, sent with the COMMIT), a note or a
//! create two,
//! a claim that finds nothing ready one (its statement counts why). A
//! close its statement does not accept runs again the usual way and
//! answers what it always did. A claim that finds more to do than its
//! one statement (the caller's own task to renew) runs again the usual
//! way, and still answers what it always did. PostgreSQL
//! only: SQLite has no network.

use std::time::Duration;
use tasklists_tests::*;

/// A host on a fresh database through a proxy adding 2 ms each way
/// (enough that the server never answers before the client has sent what
/// it sends together), its list and `n` tasks, and the proxy.
fn through_proxy(admin: &str, n: usize) -> (FreshStore, LatencyProxy, Host, String, Vec<String>) {
    let store = FreshStore::postgres(admin);
    let proxy = LatencyProxy::start(
        LatencyProxy::server_of(&store.spec),
        Duration::from_millis(2),
    )
    .expect("proxy");
    let mut host =
        Host::open(config(Location::from(proxy.url(&store.spec).as_str()))).expect("opens");
    let planner = ctx("planner");
    let list = host
        .call(
            "task_lists",
            "create",
            &json!({"name": "trips"}).to_string(),
            &planner,
        )
        .expect("create list")
        .data["list"]["id"]
        .as_str()
        .expect("list id")
        .to_string();
    let tasks: Vec<Value> = (0..n).map(|i| json!({"title": format!("t{i}")})).collect();
    let added = host
        .call(
            "task_items",
            "add_many",
            &json!({"list_id": list, "tasks": tasks}).to_string(),
            &planner,
        )
        .expect("add tasks")
        .data;
    let ids = added["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| t["id"].as_str().expect("id").to_string())
        .collect();
    (store, proxy, host, list, ids)
}

/// Runs one call as `agent` and returns its data and the round trips it
/// cost.
fn counted(
    proxy: &LatencyProxy,
    host: &mut Host,
    agent: &str,
    tool: &str,
    action: &str,
    params: Value,
) -> (Value, u64) {
    let before = proxy.round_trips();
    let data = host
        .call(tool, action, &params.to_string(), &ctx(agent))
        .unwrap_or_else(|e| panic!("{tool} {action}: {e:?}"))
        .data
        .into_value();
    (data, proxy.round_trips() - before)
}

#[test]
fn a_claim_or_a_close_costs_one_round_trip_and_a_note_or_a_create_two() {
    let StoreKind::Postgres(admin) = StoreKind::current() else {
        return;
    };
    let (_store, proxy, mut host, list, ids) = through_proxy(&admin, 4);
    let mut trips = Vec::new();
    // The first round prepares the statements on the connection.
    for id in &ids[..2] {
        let (claimed, claim) = counted(
            &proxy,
            &mut host,
            "agent-1",
            "task_claims",
            "claim_next",
            json!({"list_id": list}),
        );
        assert_eq!(claimed["task"]["id"], id.as_str(), "in order");
        assert_eq!(claimed["task"]["status"], "in_progress");
        let token = claimed["claim"]["token"].as_str().expect("token");
        let (_, notes) = counted(
            &proxy,
            &mut host,
            "agent-1",
            "task_items",
            "update",
            json!({"task_id": id, "notes": "n", "claim_token": token}),
        );
        let (done, close) = counted(
            &proxy,
            &mut host,
            "agent-1",
            "task_items",
            "update",
            json!({"task_id": id, "status": "done", "outcome": "o", "claim_token": token}),
        );
        assert_eq!(done["task"]["status"], "done");
        trips = vec![claim, notes, close];
    }
    assert_eq!(trips, [1, 2, 1], "claim_next, update notes, update done");

    // A create: its list read with the lock, then the task, its event
    // and the COMMIT together; at a position too (the shift rides with
    // them). The first of each prepares its statements.
    let mut creates = Vec::new();
    for params in [
        json!({"list_id": list, "title": "late 1"}),
        json!({"list_id": list, "title": "late 2"}),
        json!({"list_id": list, "title": "early 1", "position": 1}),
        json!({"list_id": list, "title": "early 2", "position": 1}),
    ] {
        let (created, trips) =
            counted(&proxy, &mut host, "planner", "task_items", "create", params);
        creates.push((created["task"]["position"].clone(), trips));
    }
    let positions: Vec<&Value> = creates.iter().map(|(p, _)| p).collect();
    assert_eq!(positions, [&json!(5), &json!(6), &json!(1), &json!(1)]);
    assert_eq!(
        [creates[1].1, creates[3].1],
        [2, 2],
        "create appended, then at a position: {creates:?}"
    );

    // What the claim committed is what it answered, audit row included.
    let got = host
        .call(
            "task_lists",
            "get",
            &json!({"list_id": list}).to_string(),
            &ctx("planner"),
        )
        .expect("get")
        .data;
    assert_eq!(got["counts"]["done"], 2, "{got}");
    assert_eq!(got["counts"]["todo"], 6, "{got}");
    let titles: Vec<&str> = got["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| t["title"].as_str().expect("title"))
        .collect();
    assert_eq!(
        titles,
        [
            "early 2", "early 1", "t0", "t1", "t2", "t3", "late 1", "late 2"
        ],
        "{got}"
    );
    let events = host
        .call(
            "task_audit",
            "get",
            &json!({"list_id": list, "kinds": "claimed"}).to_string(),
            &ctx("planner"),
        )
        .expect("audit")
        .data;
    assert_eq!(
        events["events"].as_array().map(Vec::len),
        Some(2),
        "{events}"
    );
}

#[test]
fn a_claim_with_more_to_do_than_its_statement_runs_again_the_usual_way() {
    let StoreKind::Postgres(admin) = StoreKind::current() else {
        return;
    };
    let (_store, proxy, mut host, list, ids) = through_proxy(&admin, 1);
    let claim = json!({"list_id": list});
    let mut claim_next = |agent: &str| {
        counted(
            &proxy,
            &mut host,
            agent,
            "task_claims",
            "claim_next",
            claim.clone(),
        )
    };
    let (first, _) = claim_next("agent-1");
    assert_eq!(first["task"]["id"], ids[0].as_str());
    // The caller's own task comes back, its lease renewed: the one
    // statement took nothing, so it ran again and renewed it (counted
    // the second time: the first prepares the renewal's statements).
    claim_next("agent-1");
    let (again, trips) = claim_next("agent-1");
    assert_eq!(again["task"]["id"], ids[0].as_str(), "{again}");
    assert_eq!(again["resumed"], true, "{again}");
    assert_eq!(again["claim"]["token"], first["claim"]["token"], "{again}");
    assert_eq!(
        trips, 3,
        "the one-trip try, then the lock with the statement, then the renewal with the COMMIT"
    );
    // Nothing ready for another agent: the reasons, as always, counted
    // by the same statement (its transaction changed nothing).
    let (none, trips) = claim_next("agent-2");
    assert_eq!(none["task"], Value::Null, "{none}");
    assert_eq!(none["waiting"]["claimed_by_others"], 1, "{none}");
    assert_eq!(trips, 1, "nothing ready, in the claim's one round trip");
    // A deleted list is refused, not claimed from.
    host.call(
        "task_items",
        "update",
        &json!({"task_id": ids[0], "status": "done", "outcome": "o"}).to_string(),
        &ctx("agent-1"),
    )
    .expect("close");
    host.call(
        "task_items",
        "create",
        &json!({"list_id": list, "title": "late"}).to_string(),
        &ctx("planner"),
    )
    .expect("create");
    host.call(
        "task_lists",
        "delete",
        &json!({"list_id": list}).to_string(),
        &ctx("planner"),
    )
    .expect("delete");
    let e = host
        .call(
            "task_claims",
            "claim_next",
            &claim.to_string(),
            &ctx("agent-2"),
        )
        .expect_err("a deleted list");
    assert!(format!("{e:?}").contains("was deleted"), "{e:?}");
}

#[test]
fn a_claim_by_labels_costs_one_round_trip_too() {
    let StoreKind::Postgres(admin) = StoreKind::current() else {
        return;
    };
    let (_store, proxy, mut host, list, ids) = through_proxy(&admin, 6);
    // Every other task carries db; the first two ones carry ui too.
    for (i, id) in ids.iter().enumerate() {
        let labels = match i {
            0 | 1 => json!(["ui", "db"]),
            _ if i % 2 == 0 => json!(["db"]),
            _ => json!(["docs"]),
        };
        host.call(
            "task_items",
            "update",
            &json!({"task_id": id, "labels": labels}).to_string(),
            &ctx("planner"),
        )
        .expect("label");
    }
    let by_labels = json!({"list_id": list, "labels": ["db", "qa"]});
    let mut claims = Vec::new();
    for agent in ["agent-1", "agent-2", "agent-3", "agent-4"] {
        let (claimed, trips) = counted(
            &proxy,
            &mut host,
            agent,
            "task_claims",
            "claim_next",
            by_labels.clone(),
        );
        claims.push((claimed["task"]["id"].clone(), trips));
    }
    // The first prepares the statement; the rest cost one trip each, and
    // take the db tasks in order (positions 1, 2, 3, 5), never docs.
    let expected = [0, 1, 2, 4].map(|i| json!(ids[i]));
    let taken: Vec<Value> = claims.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(taken, expected);
    assert!(claims[1..].iter().all(|(_, t)| *t == 1), "{claims:?}");
    // Nothing ready with those labels: the reasons, in the same trip.
    let (none, trips) = counted(
        &proxy,
        &mut host,
        "agent-5",
        "task_claims",
        "claim_next",
        by_labels,
    );
    assert_eq!(none["task"], Value::Null, "{none}");
    assert_eq!(none["waiting"]["claimed_by_others"], 4, "{none}");
    assert_eq!(none["waiting"]["without_labels"], 2, "{none}");
    assert_eq!(trips, 1, "nothing ready, in the claim's one round trip");
}

#[test]
fn a_close_its_statement_does_not_accept_answers_as_it_always_did() {
    let StoreKind::Postgres(admin) = StoreKind::current() else {
        return;
    };
    let (_store, proxy, mut host, list, ids) = through_proxy(&admin, 4);
    let checked = json!({"task_id": ids[0], "verification": "cargo test"});
    host.call(
        "task_items",
        "update",
        &checked.to_string(),
        &ctx("planner"),
    )
    .expect("verification");
    let claim = |host: &mut Host, agent: &str| {
        let (claimed, _) = counted(
            &proxy,
            host,
            agent,
            "task_claims",
            "claim_next",
            json!({"list_id": list}),
        );
        let token = claimed["claim"]["token"].as_str().expect("token");
        (claimed["task"]["id"].clone(), token.to_string())
    };
    let (first, token_1) = claim(&mut host, "agent-1");
    let (second, token_2) = claim(&mut host, "agent-2");
    assert_eq!((&first, &second), (&json!(ids[0]), &json!(ids[1])));
    let close = |id: &Value, token: &str, more: Value| {
        let mut params =
            json!({"task_id": id, "status": "done", "outcome": "o", "claim_token": token});
        params
            .as_object_mut()
            .unwrap()
            .extend(more.as_object().unwrap().clone());
        params
    };
    let refused = |host: &mut Host, agent: &str, params: &Value| {
        let e = host
            .call("task_items", "update", &params.to_string(), &ctx(agent))
            .expect_err("refused");
        (format!("{:?}", e.code), e.message, e.hint)
    };
    // Another's task: the usual conflict.
    let (code, message, _) = refused(&mut host, "agent-2", &close(&first, &token_2, json!({})));
    assert_eq!(code, "ErrorCode::Conflict");
    assert!(
        message.starts_with(&format!("task {} is claimed by agent-1 until ", ids[0])),
        "{message}"
    );
    // A stale token of its own: the usual conflict.
    let (code, message, _) = refused(&mut host, "agent-1", &close(&first, &token_2, json!({})));
    assert_eq!(code, "ErrorCode::Conflict");
    assert_eq!(
        message,
        format!(
            "claim token {token_2} is not the current claim on task {}",
            ids[0]
        )
    );
    // Its verification without a result: verification_required, nothing
    // written.
    let (code, message, hint) = refused(&mut host, "agent-1", &close(&first, &token_1, json!({})));
    assert_eq!(code, "ErrorCode::VerificationRequired");
    assert_eq!(
        message,
        format!(
            "task {} has a verification (\"cargo test\"): closing it as done needs a non-empty verification_result",
            ids[0]
        )
    );
    assert!(
        hint.starts_with("run the check and pass verification_result"),
        "{hint}"
    );
    // With its result: one round trip, the fields that changed in its
    // audit row.
    let (done, trips) = counted(
        &proxy,
        &mut host,
        "agent-1",
        "task_items",
        "update",
        close(
            &first,
            &token_1,
            json!({"verification_result": "48 passed", "notes": "n"}),
        ),
    );
    assert_eq!(trips, 1, "{done}");
    assert_eq!(done["task"]["status"], "done");
    assert_eq!(done["task"]["verification_result"], "48 passed");
    assert_eq!(done["task"]["notes"], "n");
    assert_eq!(done["task"]["claim"], Value::Null, "{done}");
    // Paused by its holder: one round trip, kept for it.
    let (paused, trips) = counted(
        &proxy,
        &mut host,
        "agent-2",
        "task_items",
        "update",
        json!({"task_id": second, "status": "blocked", "claim_token": token_2}),
    );
    assert_eq!(trips, 1, "{paused}");
    assert_eq!(paused["task"]["status"], "blocked");
    assert_eq!(paused["task"]["assigned_to_agent_id"], "agent-2");
    // A task nobody holds, canceled: one round trip too.
    let (canceled, trips) = counted(
        &proxy,
        &mut host,
        "agent-3",
        "task_items",
        "update",
        json!({"task_id": ids[2], "status": "canceled", "outcome": "not needed"}),
    );
    assert_eq!(trips, 1, "{canceled}");
    assert_eq!(canceled["task"]["status"], "canceled");
    // What it answered is what it wrote (every field the list shows),
    // audit rows included.
    let got = host
        .call(
            "task_lists",
            "get",
            &json!({"list_id": list}).to_string(),
            &ctx("planner"),
        )
        .expect("get")
        .data;
    for (id, answered) in [
        (&first, &done),
        (&second, &paused),
        (&json!(ids[2]), &canceled),
    ] {
        let listed = got["tasks"]
            .as_array()
            .expect("tasks")
            .iter()
            .find(|t| &t["id"] == id)
            .expect("listed");
        for (key, value) in listed.as_object().expect("task") {
            assert_eq!(&answered["task"][key], value, "{key}: {listed} {answered}");
        }
    }
    let events = host
        .call(
            "task_audit",
            "get",
            &json!({"list_id": list, "kinds": "status_changed"}).to_string(),
            &ctx("planner"),
        )
        .expect("audit")
        .data;
    // Newest first.
    let data: Vec<Value> = events["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["data"].clone())
        .collect();
    assert_eq!(
        data,
        [
            json!({"from": "todo", "to": "canceled", "fields": ["outcome"]}),
            json!({"from": "in_progress", "to": "blocked", "fields": ["assigned_to_agent_id"]}),
            json!({"from": "in_progress", "to": "done", "fields": ["notes", "outcome", "verification_result"]}),
        ],
        "{events}"
    );
}
