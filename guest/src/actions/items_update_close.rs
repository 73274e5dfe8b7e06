//! `task_items update`'s close in one round trip (PostgreSQL): an agent
//! closing (done, canceled) or pausing (blocked) the task it holds (or
//! one nobody holds) sends BEGIN, the lock, and one statement that checks
//! what `update` would check (the claim and its fencing token, the list,
//! the verification, the approval gate, the text budget), writes the
//! change and its audit row, and commits with it
//! ([`Call::rows_then_commit`]).
//!
//! The statement changes nothing unless every check passes, read
//! conservatively: whatever it is not sure `update` would accept (a text
//! budget near its bound, a verification result kept from before, a task
//! that goes to review), it leaves alone, and the call runs again the
//! usual way ([`Call::run_again`]), which reads the task and answers
//! exactly what it always did, errors included. When it wrote, it
//! returns the task as it was under its lock, its dependencies and its
//! list: `update` then runs its usual rules on them, which decide the
//! same change (nothing of it can refuse what the statement accepted),
//! and builds its result and summary as always, without writing again.

use std::sync::LazyLock;

use super::access::Loaded;
use super::call::Call;
use crate::error::ToolResult;
use crate::model::{
    DEPS_OF_T, LIST_COLS, LIST_WIDTH, ListRow, Status, TASK_COLS, TASK_WIDTH, TaskRow, VISIBLE_TO,
    aliased, deps_column,
};
use crate::store::Value;
use crate::text::json_str_len;
use crate::text_budget::TASK_TEXT_BYTES;

/// The fields a close in one trip may change besides its status, in the
/// order `update` names changed fields in its audit event: bit `i` of
/// the statement's index into the event's variants is field `i`.
pub(super) const FIELDS: [&str; 4] = [
    "notes",
    "outcome",
    "verification_result",
    "assigned_to_agent_id",
];

/// The statuses a close in one trip changes a task from, in the order of
/// the statement's event variants: in progress (claimed by the caller),
/// todo or blocked (claimed by nobody, no token given).
const FROM: [Status; 3] = [Status::InProgress, Status::Todo, Status::Blocked];

/// The status a call closes or pauses its task with in one round trip,
/// if it may: where the store has row locks and the call may end with
/// its last statement, an agent's update giving only what stays in the
/// task's own row ([`super::own_fields::own_fields_only`]) with a status of
/// done, canceled (with its outcome) or blocked.
fn one_trip_status(call: &Call) -> Option<Status> {
    if !call.ending.one_trip
        || !call.tx.dialect().row_locks()
        || call.person.is_some()
        || call.agent.is_none()
        || !super::own_fields::own_fields_only(&call.params)
    {
        return None;
    }
    let p = &call.params;
    let status = p.str("status").and_then(Status::parse)?;
    let blank = |key: &str| p.str(key).is_none_or(|v| v.trim().is_empty());
    match status {
        Status::Done | Status::Canceled if !blank("outcome") => Some(status),
        Status::Blocked => Some(status),
        _ => None,
    }
}

/// Closes the task in one round trip if the call is one [`one_trip_status`]
/// allows, with the audit event `update` writes for it
/// ([`status_data`]): the task as it was, for
/// `update`'s rules and result; `None` when the call is not one it
/// handles (`update` then reads the task and runs the usual way). Halts
/// the call to run again ([`Call::run_again`]) when the statement wrote
/// nothing.
pub(super) fn close(call: &mut Call, task_id: &str) -> ToolResult<Option<Loaded>> {
    let Some(status) = one_trip_status(call) else {
        return Ok(None);
    };
    // Dated by the statement where the call's clock is the store's own,
    // as a claim is: nothing waits for the clock before it is sent.
    if !call.clock.store_clock() {
        call.now();
    }
    let p = &call.params;
    let given = |key: &str| p.str(key).map(str::to_string);
    let given_bytes: usize = ["notes", "outcome", "verification_result"]
        .iter()
        .filter_map(|k| p.str(k))
        .map(json_str_len)
        .sum();
    let result_given = p
        .str("verification_result")
        .is_some_and(|v| !v.trim().is_empty());
    let mut params = vec![
        Value::from(task_id),
        Value::from(call.agent.clone()),
        Value::from(call.now_if_read()),
        Value::from(given("claim_token")),
        Value::from(status.as_str()),
        Value::from(given("notes")),
        Value::from(given("outcome")),
        Value::from(given("verification_result")),
        Value::from(call.new_id_undated(crate::ids::IdKind::Event)),
        Value::from(call.actor()),
        Value::from(call.viewer.clone()),
        Value::Integer(i64::try_from(given_bytes).unwrap_or(i64::MAX)),
        Value::Integer(i64::from(result_given)),
    ];
    // The event's data for each status it may change from and each set
    // of fields that may change with it (a field not given cannot: its
    // variants, as those of the status itself, are never read).
    let may_change = [
        p.str("notes").is_some(),
        p.str("outcome").is_some(),
        p.str("verification_result").is_some(),
        status == Status::Blocked,
    ];
    for from in FROM {
        for index in 0..1usize << FIELDS.len() {
            let changed: Vec<&str> = (0..FIELDS.len())
                .filter(|bit| index & (1 << bit) != 0)
                .map(|bit| FIELDS[bit])
                .collect();
            let possible = from != status
                && (0..FIELDS.len()).all(|bit| index & (1 << bit) == 0 || may_change[bit]);
            let data = status_data(from, status, &changed);
            params.push(Value::from(possible.then(|| call.event_data(&data))));
        }
    }
    let rows = call.rows_then_commit(&CLOSE, &params)?;
    let Some(row) = rows.first() else {
        // It changed nothing: the usual way reads why.
        return Err(call.run_again());
    };
    let width = TASK_WIDTH;
    let list_width = LIST_WIDTH;
    if let Some(now) = row.get(width + 1 + list_width).and_then(Value::as_i64) {
        call.date(now);
    }
    Ok(Some(Loaded {
        task: TaskRow::from_row(row),
        deps: deps_column(row.get(width)),
        list: ListRow::from_row(&row[width + 1..]),
    }))
}

/// [`close_query`], built once.
static CLOSE: LazyLock<String> = LazyLock::new(close_query);

/// The statement of [`close`] (PostgreSQL). Params: 1 the task, 2 the
/// agent, 3 the call's time or NULL (then the server's clock as the
/// statement runs, after its lock), 4 the claim token or NULL, 5 the
/// status, 6–8 notes, outcome and verification result or NULL (kept),
/// 9–10 the event's id and actor, 11 the viewer, 12 the JSON bytes of
/// the texts given, 13 whether a non-blank verification result is given
/// (1 or 0), 14–61 the event's data by the status it changes from
/// ([`FROM`], 16 each) and the fields that changed with it ([`FIELDS`],
/// bit `i` for field `i`). It locks the task's row (`FOR
/// UPDATE`: a change of the row waits for it, and it reads the row as
/// that change left it), and changes it only if `update` would, as
/// `update` would:
///
/// - the task is live, in a live list the viewer may see ([`VISIBLE_TO`]),
///   waits on no person, and is either in progress, claimed by the agent
///   (under the token if one is given), or todo or blocked with no token
///   given ([`FROM`]); its status changes;
/// - done: the plan is approved (or there is none) and the task does not
///   await its own approval, nor require review (that sends it to review,
///   which the usual way writes);
/// - a task with a verification gets a non-blank result in this call (a
///   result kept from before is left to the usual way);
/// - its long texts stay within [`TASK_TEXT_BYTES`], counted high (the
///   texts it keeps at six bytes of JSON per byte, the most any
///   character escapes to).
///
/// The change: the status, the texts given, the claim ended, completed
/// now (closed) or not (blocked, kept for the agent: assigned to it),
/// no longer handed back first to anyone when closed or reassigned, and
/// its `status_changed` audit row. Returns the task's columns as under
/// the lock (before the change), its dependencies, its list's columns
/// and the statement's time; no row when it changed nothing.
fn close_query() -> String {
    let kept_bytes = "COALESCE(octet_length(t.description), 0) + COALESCE(octet_length(t.verification), 0) \
         + CASE WHEN ?6::text IS NULL THEN COALESCE(octet_length(t.notes), 0) ELSE 0 END \
         + CASE WHEN ?7::text IS NULL THEN COALESCE(octet_length(t.outcome), 0) ELSE 0 END \
         + CASE WHEN ?8::text IS NULL THEN COALESCE(octet_length(t.verification_result), 0) ELSE 0 END";
    let variants: Vec<String> = (14..14 + FROM.len() * (1 << FIELDS.len()))
        .map(|i| format!("?{i}::text"))
        .collect();
    format!(
        "WITH clock AS MATERIALIZED (SELECT COALESCE(?3::int8, \
           (extract(epoch from clock_timestamp()) * 1000)::int8) AS now), \
         cur AS MATERIALIZED (SELECT * FROM tasks WHERE id = ?1::text FOR UPDATE), \
         ok AS (SELECT t.id, t.list_id, \
           (CASE WHEN ?6::text IS NOT NULL AND t.notes IS DISTINCT FROM ?6::text THEN 1 ELSE 0 END \
            + CASE WHEN ?7::text IS NOT NULL AND t.outcome IS DISTINCT FROM ?7::text THEN 2 ELSE 0 END \
            + CASE WHEN ?8::text IS NOT NULL AND t.verification_result IS DISTINCT FROM ?8::text THEN 4 ELSE 0 END \
            + CASE WHEN ?5::text = 'blocked' AND t.assigned_to_agent_id IS DISTINCT FROM ?2::text THEN 8 ELSE 0 END) AS changed, \
           CASE t.status WHEN 'in_progress' THEN 0 WHEN 'todo' THEN 16 ELSE 32 END AS from_status \
          FROM cur t JOIN lists l ON l.id = t.list_id \
          WHERE t.deleted_at IS NULL AND l.deleted_at IS NULL AND {visible} \
          AND ((t.status = 'in_progress' AND t.claimed_by_agent_id = ?2::text \
                AND (?4::text IS NULL OR t.claim_token = ?4::text)) \
               OR (t.status IN ('todo', 'blocked') AND ?4::text IS NULL)) \
          AND t.status <> ?5::text AND t.waits_on IS NULL \
          AND (?5::text <> 'done' OR ((l.approval IS NULL OR (l.approval = 'approved' AND t.awaits_approval = 0)) \
               AND t.requires_review = 0)) \
          AND (t.verification IS NULL OR ?13::int4 = 1) \
          AND ?12::int8 + 6 * ({kept_bytes})::int8 <= {TASK_TEXT_BYTES}), \
         done AS (UPDATE tasks SET status = ?5::text, \
           notes = COALESCE(?6::text, tasks.notes), outcome = COALESCE(?7::text, tasks.outcome), \
           verification_result = COALESCE(?8::text, tasks.verification_result), \
           assigned_to_agent_id = CASE WHEN ?5::text = 'blocked' THEN ?2::text ELSE tasks.assigned_to_agent_id END, \
           claimed_by_agent_id = NULL, claim_token = NULL, claim_expires_at = NULL, lease_ms = NULL, \
           updated_at = clock.now, \
           completed_at = CASE WHEN ?5::text = 'blocked' THEN NULL ELSE clock.now END, \
           resume_for = CASE WHEN ?5::text <> 'blocked' OR ok.changed >= 8 THEN NULL ELSE tasks.resume_for END \
          FROM ok, clock WHERE tasks.id = ok.id RETURNING tasks.id, tasks.list_id, ok.changed + ok.from_status AS variant), \
         audit AS (INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) \
          SELECT ?9::text, clock.now, ?10::text, 'status_changed', done.list_id, done.id, \
           (ARRAY[{variants}])[done.variant + 1] FROM done, clock) \
         SELECT {}, {DEPS_OF_T}, {}, clock.now \
         FROM done JOIN cur t ON t.id = done.id JOIN lists l ON l.id = t.list_id CROSS JOIN clock",
        aliased(TASK_COLS, "t"),
        aliased(LIST_COLS, "l"),
        visible = VISIBLE_TO
            .replace("visibility", "l.visibility")
            .replace("owner_agent_id", "l.owner_agent_id")
            .replace('?', "?11::text"),
        variants = variants.join(", "),
    )
}

/// The data of a `status_changed` event from `from` to `to`, naming the
/// fields that changed with it (none: no `fields`).
pub(super) fn status_data(from: Status, to: Status, changed: &[&str]) -> serde_json::Value {
    let mut data = serde_json::json!({"from": from, "to": to});
    if !changed.is_empty() {
        data["fields"] = serde_json::json!(changed);
    }
    data
}
