//! What the agents' hot path costs across a network on PostgreSQL, in
//! round trips (the latency proxy counts them: the client speaking again
//! after the server answered), on a warm connection: a claim is one round
//! trip (its lock, the pick, the claim, its audit row and the COMMIT sent
//! together), a note or a close two, a claim that finds nothing ready
//! one (its statement counts why). A claim that finds more to do than its
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
        .data;
    (data, proxy.round_trips() - before)
}

#[test]
fn a_claim_costs_one_round_trip_and_a_note_or_a_close_two() {
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
    assert_eq!(trips, [1, 2, 2], "claim_next, update notes, update done");

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
    assert_eq!(got["counts"]["todo"], 2, "{got}");
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
