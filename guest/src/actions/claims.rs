//! `task_claims`: claim_next (atomic, resumable), refresh, release_expired.
//! Writes run under the store's write lock (SQLite's `BEGIN IMMEDIATE`;
//! on PostgreSQL the list's own lock), so the select-then-conditional-
//! update below is atomic across processes.

use super::action::{Action, Done};
use crate::contract::{Access, ActionSpec, LEASE, LIST_ID, TASK_CLAIMS, TASK_ID, Ty, param};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

use serde_json::{Map, Value as Json, json};

use super::access;
use super::access::claimed_conflict;
use super::call::{Call, IN_LIST_MAX};
use super::summary::{id_sample, quoted};
use crate::clock::format_ms;
use crate::contract::DEFAULT_LEASE_MS;
use crate::error::{ToolError, ToolResult};
use crate::ids::IdKind;
use crate::model::{
    Approval, DEPS_OF_T, END_CLAIM, LIST_COLS, LIST_WIDTH, ListRow, Status, TASK_COLS, TASK_WIDTH,
    TaskForm, TaskRow, VISIBLE_TO, aliased, carries_any_label, deps_column, label_mark,
};
use crate::results::{ApprovalJson, TaskJson};
use crate::store::Value;
use crate::text::plural;

/// The claim part of a claim result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClaimJson {
    /// The claim token.
    pub token: Option<String>,
    /// End of the lease (RFC 3339).
    pub expires_at: Option<String>,
}

impl ClaimJson {
    /// The claim `task` holds.
    pub fn of(task: &TaskRow) -> Self {
        ClaimJson {
            token: task.claim_token.clone(),
            expires_at: task.claim_expires_at.map(format_ms),
        }
    }
}

/// `claim_next` (a task handed out) and `refresh` → `{task, claim,
/// resumed?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claimed {
    /// The claimed task.
    pub task: TaskJson,
    /// Its claim (always set by the tools).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<ClaimJson>,
    /// Set when the caller already held this task.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resumed: bool,
}

/// Why nothing could be claimed: open tasks by the first reason that
/// applies.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    /// Held by another agent's running lease.
    #[serde(default)]
    pub claimed_by_others: i64,
    /// Waiting on open dependencies.
    #[serde(default)]
    pub waiting_on_dependencies: i64,
    /// Reserved for another agent.
    #[serde(default)]
    pub assigned_to_others: i64,
    /// Paused.
    #[serde(default)]
    pub blocked: i64,
    /// Added to an approved plan: waiting for a person's approval.
    #[serde(default, skip_serializing_if = "crate::results::is_zero")]
    pub awaiting_approval: i64,
    /// With `labels`: the open tasks carrying none of them, which the
    /// claim did not consider (every other count is of the tasks carrying
    /// one); absent when the claim asked for no labels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub without_labels: Option<i64>,
    /// The list's plan is not approved (pending or rejected): nothing is
    /// handed out until a person approves it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<Box<ApprovalJson>>,
    /// What unblocks the wait, when only a person can.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Reasons a newer guest may add (never set by this one).
    #[serde(flatten)]
    pub more: Map<String, Json>,
}

/// `claim_next` with nothing ready → `{task: null, waiting}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NothingToClaim {
    /// Always null.
    #[serde(default)]
    pub task: (),
    /// Why.
    pub waiting: Waiting,
}

/// `claim_next` → a task or why none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClaimNext {
    /// A task was handed out (or handed back).
    Claimed(Box<Claimed>),
    /// Nothing is ready.
    Nothing(NothingToClaim),
}

/// `task_claims release_expired` → `{released, remaining}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Released {
    /// Ids of the tasks given back to todo.
    pub released: Vec<String>,
    /// Expired claims left for the next call.
    #[serde(default)]
    pub remaining: i64,
}

fn lease_ms(call: &Call, fallback: Option<i64>) -> i64 {
    call.params
        .int("lease_seconds")
        .map(|s| s * 1000)
        .or(fallback)
        .unwrap_or(DEFAULT_LEASE_MS)
}

/// `task_claims claim_next`, as one type: its spec, its result, its handler.
pub struct ClaimNextTask;

impl Action for ClaimNextTask {
    type Result = ClaimNext;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_CLAIMS,
        name: "claim_next",
        summary: "atomically take the next ready task (or get back the one you hold)",
        own_params: &[
            LIST_ID,
            LEASE,
            param(
                "labels",
                Ty::Labels { min: 1 },
                false,
                "only a task carrying one of these",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","agent_id":"builder-1","labels":["backend","db"]}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<ClaimNext>> {
        claim_next(call)
    }
}

/// `claim_next`: the caller's current claim in this list (resumed), else the
/// first ready task by priority then position (with `labels`, the first
/// carrying one of them), else why nothing is ready.
///
/// SQLite: one query reads the list (for the access check), the caller's
/// held claim or else the candidate, and that task's dependencies; then
/// one conditional UPDATE and one audit event. The write lock (`BEGIN
/// IMMEDIATE`) makes that select-then-update atomic across processes.
/// PostgreSQL: one statement ([`claim_query`]) reads the same and takes
/// the candidate with its audit row; claims on one list run side by side
/// (the candidate's row lock, skipped by the others), one claim of an
/// agent in a list at a time (the lock of the pair, taken first).
fn claim_next(call: &mut Call) -> ToolResult<Done<ClaimNext>> {
    let agent = call.agent()?.to_string();
    let list_id = call.params.str("list_id").unwrap_or_default().to_string();
    let lease = lease_ms(call, None);
    let labels =
        crate::contract::labels::label_set(&call.params.strs("labels").unwrap_or_default());
    let claimed = json!({"lease_seconds": lease / 1000});
    // PostgreSQL: the pick, the claim and its audit row in one statement
    // (a bypass of privacy, audited first, keeps the two-step form),
    // dated by the server as it runs, after its locks: the call does not
    // read the clock first, so the statement rides with the BEGIN and the
    // lock (one round trip), and a claim that waited for a lock is dated
    // after the wait.
    let one_statement =
        call.tx.dialect().row_locks() && call.params.bool("bypass_private") != Some(true);
    // Dated by the statement only where the call's clock is the store's
    // own (the WIT `store-clock`): another clock (tests drive one) is
    // asked first, as everywhere.
    let dated_by_store = one_statement && call.clock.store_clock();
    if !dated_by_store {
        call.now();
    }
    let token = call.new_id_undated(IdKind::Claim);
    let (rows, taken, reasons) = if one_statement {
        let mut params = crate::params![
            list_id.as_str(),
            agent.as_str(),
            call.now_if_read(),
            token.as_str(),
            lease
        ]
        .to_vec();
        params.extend([
            Value::from(call.new_id_undated(IdKind::Event)),
            Value::from(call.actor()),
            Value::from(call.event_data(&claimed)),
            Value::from(call.viewer.clone()),
        ]);
        params.extend(label_params(&labels));
        let claim = if labels.is_empty() {
            CLAIM.as_str().into()
        } else {
            std::borrow::Cow::Owned(claim_query_for(labels.len()))
        };
        // With its COMMIT where the call may end so: a claim in one round
        // trip. The statement takes a task only from a list the caller
        // may use as it is (live, visible): nothing below refuses a claim
        // it took, so committing it first is safe.
        let mut rows = if call.ending.one_trip {
            call.rows_then_commit(&claim, &params)?
        } else {
            call.rows(&claim, &params)?
        };
        // The last columns: why nothing is ready (when nothing was to
        // hand out), how many it took, and its time.
        let (taken, now, reasons) = match rows.first_mut() {
            Some(row) => {
                let now = row.pop().and_then(|v| v.as_i64());
                let taken = row.pop().and_then(|v| v.as_i64());
                let reasons = row.split_off(row.len().saturating_sub(REASONS));
                (taken.is_some_and(|n| n > 0), now, Some(reasons))
            }
            None => (false, None, None),
        };
        if let Some(now) = now {
            call.date(now);
        }
        (rows, taken, reasons)
    } else {
        let mut params = crate::params![list_id.as_str(), agent.as_str(), call.now()].to_vec();
        params.extend(label_params(&labels));
        let rows = if labels.is_empty() {
            call.rows(&PICK, &params)?
        } else {
            call.rows(&pick_query_for(labels.len()), &params)?
        };
        (rows, false, None)
    };
    let list_width = LIST_WIDTH;
    if call.ending.committed()
        && !taken
        && rows
            .first()
            .is_some_and(|row| row.get(list_width).is_some_and(|id| id.as_str().is_some()))
    {
        // The caller's own task to renew, or an expired claim to take
        // over: more than the statement, which changed nothing. The
        // usual way.
        return Err(call.run_again());
    }
    let row = rows
        .first()
        .ok_or_else(|| ToolError::not_found("list", &list_id))?;
    // A claim taken above is rolled back with the call if this refuses.
    let list = access::usable(call, ListRow::from_row(row), false)?;
    let picked = &row[list_width..];
    if picked.first().is_none_or(|id| id.as_str().is_none()) {
        let reasons = match reasons {
            Some(reasons) => reasons,
            None => reason_counts(call, &list.id, &agent, &labels)?,
        };
        return nothing_ready(&list, &reasons, &labels);
    }
    let mut task = TaskRow::from_row(picked);
    let deps = deps_column(picked.get(TASK_WIDTH));
    if !taken
        && task.status == Status::InProgress
        && task.claimed_by_agent_id.as_deref() == Some(agent.as_str())
    {
        // Retried call or lost context: hand back what the caller holds.
        return handed_out(renew(call, &list.id, task, deps, true));
    }

    let update = "UPDATE tasks SET status = 'in_progress', claimed_by_agent_id = ?, claim_token = ?, claim_expires_at = ?, \
         lease_ms = ?, started_at = COALESCE(started_at, ?), updated_at = ?, resume_for = NULL \
         WHERE id = ? AND deleted_at IS NULL AND (status = 'todo' OR (status = 'in_progress' AND claim_expires_at <= ?))";
    let expires = call.now() + lease;
    let params = crate::params![
        agent.as_str(),
        token.as_str(),
        expires,
        lease,
        call.now(),
        call.now(),
        task.id.as_str(),
        call.now()
    ];
    let changed = if taken {
        1
    } else if task.status == Status::InProgress {
        let changed = call.exec(update, params)?;
        if changed == 1 {
            // An expired claim taken over: the end of the old claim is a
            // change of its own, recorded before the claim.
            let data = json!({"claimed_by": task.claimed_by_agent_id, "expired_at": task.claim_expires_at.map(format_ms)});
            call.event("expired", Some(&list.id), Some(&task.id), data)?;
            call.event("claimed", Some(&list.id), Some(&task.id), claimed)?;
        }
        changed
    } else {
        // The claim and its audit row: one statement where the store can.
        call.exec_with_event(
            update,
            params,
            "claimed",
            Some(&list.id),
            Some(&task.id),
            claimed,
        )?
    };
    if changed != 1 {
        // Should not happen: the write lock makes select-then-update atomic.
        return Err(ToolError::conflict(
            format!("task {} was taken by another agent", task.id),
            "call claim_next again",
        ));
    }
    // Exactly what the UPDATE above wrote: no need to read the row back.
    task.status = Status::InProgress;
    task.claimed_by_agent_id = Some(agent);
    task.claim_token = Some(token);
    task.claim_expires_at = Some(expires);
    task.lease_ms = Some(lease);
    task.started_at.get_or_insert(call.now());
    task.updated_at = call.now();
    task.resume_for = None;
    handed_out(claim_output(&task, &deps, "claimed"))
}

/// [`pick_query`], built once.
static PICK: LazyLock<String> = LazyLock::new(pick_query);

/// [`claim_query`], built once.
static CLAIM: LazyLock<String> = LazyLock::new(claim_query);

/// How many columns [`reasons_query`] has.
const REASONS: usize = 7;

/// The parameters a claim's statements take for `labels` after their
/// own ([`labels_sql`]): a line break, then each label's mark.
fn label_params(labels: &[String]) -> Vec<Value> {
    if labels.is_empty() {
        return Vec::new();
    }
    let mut params = vec![Value::from("\n")];
    params.extend(labels.iter().map(|l| Value::from(label_mark(l))));
    params
}

/// The condition that the task aliased `alias` carries one of `n`
/// labels, bound by [`label_params`] from parameter `first` on (`?first`
/// the line break, then the marks); None for no labels (no condition).
fn labels_sql(alias: &str, n: usize, first: usize) -> Option<String> {
    (n > 0).then(|| {
        let marks: Vec<String> = (1..=n).map(|i| format!("?{}", first + i)).collect();
        carries_any_label(&format!("{alias}.labels"), &marks, &format!("?{first}"))
    })
}

/// The one statement of a claim where the store has row locks
/// ([`crate::store::SqlDialect::row_locks`]; params: list id, agent, the
/// call's time or NULL, token, lease, then the `claimed` event's id,
/// actor and data, then whose access rules apply, the viewer): the
/// columns of [`pick_query`], then [`reasons_query`]'s (counted only
/// when there is no task to hand out: why nothing is ready, with no
/// statement more), then how many tasks it took (1 or 0) and its time.
/// Its time is the call's if given, else the server's clock as the
/// statement runs (`clock_timestamp`: after its lock statement, pipelined
/// before it, was granted), read once (a CTE referenced more than once is
/// computed once). The candidate is [`pick_query`]'s, taken `FOR UPDATE
/// SKIP LOCKED` (a task another claim is taking right now is passed
/// over, not waited for) and claimed with its audit row in the same
/// statement when it is todo.
/// The caller's held task comes back untaken (it renews it); so does an
/// expired claim's task, locked, whose takeover writes two events (the
/// caller writes them). It takes nothing from a deleted list or one the
/// viewer may not see ([`VISIBLE_TO`]): whatever the caller refuses after
/// it, it refuses before having taken anything, so the statement may
/// commit as it runs ([`Call::rows_then_commit`]). The task's columns
/// are read as the statement began: a task taken here still shows it
/// todo (the caller knows what it wrote). Its lock statement ran first
/// (the pair (list, agent)'s), so this statement sees every claim of the
/// caller in the list.
pub(crate) fn claim_query() -> String {
    claim_query_for(0)
}

/// [`claim_query`] handing out only a task carrying one of `labels`
/// labels (none: any task), bound by [`label_params`] from parameter 10
/// on; [`reasons_query`] then counts the open tasks carrying none apart.
pub(crate) fn claim_query_for(labels: usize) -> String {
    let carries = labels_sql("c", labels, 10);
    format!(
        "WITH clock AS MATERIALIZED (SELECT COALESCE(?3::int8, \
           (extract(epoch from clock_timestamp()) * 1000)::int8) AS now), \
         held AS (SELECT h.id FROM tasks h WHERE h.claimed_by_agent_id = ?2 AND h.list_id = ?1 \
          AND h.status = 'in_progress' AND h.deleted_at IS NULL LIMIT 1), \
         back AS (SELECT c.id, c.status FROM tasks c JOIN lists l ON l.id = c.list_id \
          WHERE c.resume_for = ?2 AND c.list_id = ?1 AND NOT EXISTS (SELECT 1 FROM held) \
          AND c.deleted_at IS NULL AND c.status = 'todo' AND l.deleted_at IS NULL AND {visible} AND {ready} \
          ORDER BY c.priority, c.position LIMIT 1 FOR UPDATE OF c SKIP LOCKED), \
         next AS (SELECT c.id, c.status FROM tasks c JOIN lists l ON l.id = c.list_id \
          WHERE c.list_id = ?1 AND NOT EXISTS (SELECT 1 FROM held) AND NOT EXISTS (SELECT 1 FROM back) \
          AND c.deleted_at IS NULL AND c.status IN ('todo', 'in_progress') \
          AND (c.status = 'todo' OR (c.status = 'in_progress' AND c.claim_expires_at <= (SELECT now FROM clock))) \
          AND l.deleted_at IS NULL AND {visible} AND {ready} \
          ORDER BY c.priority, c.position LIMIT 1 FOR UPDATE OF c SKIP LOCKED), \
         pick AS (SELECT id, status FROM back UNION ALL SELECT id, status FROM next), \
         taken AS (UPDATE tasks SET status = 'in_progress', claimed_by_agent_id = ?2, claim_token = ?4, \
          claim_expires_at = clock.now + ?5, lease_ms = ?5, started_at = COALESCE(started_at, clock.now), \
          updated_at = clock.now, resume_for = NULL \
          FROM pick, clock WHERE tasks.id = pick.id AND pick.status = 'todo' AND tasks.status = 'todo' \
          AND tasks.deleted_at IS NULL RETURNING tasks.id, tasks.list_id), \
         audit AS (INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) \
          SELECT ?6, (SELECT now FROM clock), ?7, 'claimed', taken.list_id, taken.id, ?8 FROM taken), \
         reasons AS ({reasons}) \
         SELECT {}, {}, {DEPS_OF_T}, r.*, (SELECT COUNT(*) FROM taken), (SELECT now FROM clock) \
         FROM lists l LEFT JOIN tasks t \
         ON t.id = COALESCE((SELECT id FROM held), (SELECT id FROM pick)) CROSS JOIN reasons r WHERE l.id = ?1",
        aliased(LIST_COLS, "l"),
        aliased(TASK_COLS, "t"),
        reasons = reasons_query(
            "(SELECT now FROM clock)",
            "?2",
            "?1",
            "NOT EXISTS (SELECT 1 FROM held) AND NOT EXISTS (SELECT 1 FROM pick)",
            labels_sql("t", labels, 10).as_deref(),
        ),
        ready = ready(carries.as_deref()),
        visible = VISIBLE_TO
            .replace("visibility", "l.visibility")
            .replace("owner_agent_id", "l.owner_agent_id")
            .replace('?', "?9"),
    )
}

/// The query of [`claim_next`] (params: list id, agent, now): the list's
/// columns, then those of the task to hand out (all NULL when none) and
/// its dependencies. The task is the caller's held claim if any (found
/// through the claimer index; a caller holds at most one per list), else
/// the first ready task by priority, then position (the index of open
/// tasks, migration 0005, is in that order), none while the list's plan
/// is not approved and never one that awaits a person's approval (the
/// gate rides in this query: no statement more on the hot path).
pub(crate) fn pick_query() -> String {
    pick_query_for(0)
}

/// [`pick_query`] picking only a task carrying one of `labels` labels
/// (none: any task), bound by [`label_params`] from parameter 4 on. The
/// held claim comes back whatever it carries: an agent holds one task a
/// list, and asking for other labels does not drop it.
pub(crate) fn pick_query_for(labels: usize) -> String {
    // The redundant `status IN (…)` term lets SQLite use the partial index
    // of open tasks (migration 0002) instead of walking closed ones.
    format!(
        "SELECT {}, {}, {DEPS_OF_T} FROM lists l LEFT JOIN tasks t ON t.id = COALESCE(\
         (SELECT h.id FROM tasks h WHERE h.claimed_by_agent_id = ?2 AND h.list_id = ?1 \
          AND h.status = 'in_progress' AND h.deleted_at IS NULL LIMIT 1), \
         (SELECT c.id FROM tasks c WHERE c.resume_for = ?2 AND c.list_id = ?1 AND c.deleted_at IS NULL \
          AND c.status = 'todo' AND {ready} ORDER BY c.priority, c.position LIMIT 1), \
         (SELECT c.id FROM tasks c WHERE c.list_id = ?1 AND c.deleted_at IS NULL \
          AND c.status IN ('todo', 'in_progress') \
          AND (c.status = 'todo' OR (c.status = 'in_progress' AND c.claim_expires_at <= ?3)) \
          AND {ready} ORDER BY c.priority, c.position LIMIT 1)) \
         WHERE l.id = ?1",
        aliased(LIST_COLS, "l"),
        aliased(TASK_COLS, "t"),
        ready = ready(labels_sql("c", labels, 4).as_deref()),
    )
}

/// What makes the task aliased `c` of the list aliased `l` ready for the
/// claiming agent `?2`: reserved for nobody else, approved, carrying one
/// of the labels asked for (`carries`, if any), waiting on no open
/// dependency.
fn ready(carries: Option<&str>) -> String {
    format!(
        "(c.assigned_to_agent_id IS NULL OR c.assigned_to_agent_id = ?2) \
         AND c.awaits_approval = 0 AND (l.approval IS NULL OR l.approval = 'approved'){} \
         AND NOT EXISTS (SELECT 1 FROM task_deps d JOIN tasks u ON u.id = d.depends_on_id \
             WHERE d.task_id = c.id AND u.deleted_at IS NULL AND u.status NOT IN ('done', 'canceled'))",
        carries.map(|c| format!(" AND {c}")).unwrap_or_default()
    )
}

/// The result of claim_next / refresh: the task as stored now (patched in
/// memory by the caller) and its claim. `verb` is `claimed`, `resumed`
/// (flagged in the data) or `refreshed`.
fn claim_output(task: &TaskRow, deps: &[String], verb: &str) -> ToolResult<Done<Claimed>> {
    let result = Claimed {
        task: TaskJson::new(task, deps, TaskForm::Whole),
        claim: Some(ClaimJson::of(task)),
        resumed: verb == "resumed",
    };
    let until = task.claim_expires_at.map(format_ms).unwrap_or_default();
    let summary = format!(
        "{verb} task {} {} (#{}), lease until {until}",
        task.id,
        quoted(&task.title),
        task.position
    );
    Ok(Done { summary, result })
}

/// A task handed out by `claim_next` (claimed or resumed), as its result.
fn handed_out(done: ToolResult<Done<Claimed>>) -> ToolResult<Done<ClaimNext>> {
    done.map(|d| Done {
        summary: d.summary,
        result: ClaimNext::Claimed(Box::new(d.result)),
    })
}

/// Why no task could be handed out, as counts: one aggregate query, so
/// the answer costs the same memory for a list of any length. Each open
/// task counts once, for the first reason that applies: paused, claimed
/// by another agent, waiting for a person's approval, assigned to another
/// agent, waiting on dependencies; a ready task another agent's claim is
/// taking at this moment (PostgreSQL's claims run side by side) counts as
/// claimed by others. A plan that is not approved holds every task back:
/// `approval` says where it stands, `hint` who can unblock it.
fn nothing_ready(
    list: &ListRow,
    reasons: &[Value],
    labels: &[String],
) -> ToolResult<Done<ClaimNext>> {
    let count = |i: usize| reasons.get(i).and_then(Value::as_i64).unwrap_or(0);
    let approval = ApprovalJson::of(list).filter(|a| a.state != Approval::Approved);
    // Ready tasks the claim passed over (PostgreSQL's SKIP LOCKED) are
    // being taken by other agents' claims right now; with a plan not
    // approved nothing is ready, whatever the tasks say.
    let taking = if approval.is_none() { count(5) } else { 0 };
    let (blocked, by_others, assigned_others, on_deps, awaiting) =
        (count(0), count(1) + taking, count(2), count(3), count(4));
    let without_labels = (!labels.is_empty()).then(|| count(6));
    let reasons: Vec<String> = [
        (by_others, "claimed by others"),
        (awaiting, "awaiting a person's approval"),
        (on_deps, "waiting on dependencies"),
        (assigned_others, "assigned to others"),
        (blocked, "blocked"),
        (without_labels.unwrap_or(0), "without those labels"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, why)| format!("{n} {why}"))
    .collect();
    let hint = (approval.is_some() || awaiting > 0).then(|| approve_hint(&list.id));
    // With labels, every reason counts only the tasks carrying one.
    let list_id = match labels {
        [] => list.id.clone(),
        [one] => format!("{} with label {one}", list.id),
        more => format!("{} with labels {}", list.id, more.join(", ")),
    };
    let mut summary = match &approval {
        Some(a) if a.state == Approval::Rejected => format!(
            "no task to claim in {}: a person rejected its plan{}",
            list_id,
            a.reason
                .as_deref()
                .map(|r| format!(" ({})", quoted(r)))
                .unwrap_or_default()
        ),
        Some(_) => format!(
            "no task to claim in {}: its {}",
            list_id,
            crate::results::PLAN_AWAITS
        ),
        None if reasons.is_empty() => {
            format!("no task to claim in {list_id}: nothing left to do")
        }
        None => format!("no task to claim in {list_id}: {}", reasons.join(", ")),
    };
    if let Some(hint) = &hint {
        summary.push_str("; ");
        summary.push_str(hint);
    }
    let waiting = Waiting {
        claimed_by_others: by_others,
        waiting_on_dependencies: on_deps,
        assigned_to_others: assigned_others,
        blocked,
        awaiting_approval: awaiting,
        without_labels,
        approval: approval.map(Box::new),
        hint,
        more: Default::default(),
    };
    Ok(Done {
        summary,
        result: ClaimNext::Nothing(NothingToClaim { task: (), waiting }),
    })
}

/// How many of the list's open tasks are held back for each reason
/// [`nothing_ready`] tells, as one aggregate (`reasons_query`'s columns:
/// paused, held by a live lease, free but assigned to another agent,
/// free but waiting on dependencies, awaiting a person's approval, free
/// and ready, carrying none of `labels`), its own statement where the
/// claim is two.
fn reason_counts(
    call: &Call,
    list_id: &str,
    agent: &str,
    labels: &[String],
) -> ToolResult<Vec<Value>> {
    let mut params = crate::params![call.now(), agent, list_id].to_vec();
    params.extend(label_params(labels));
    let rows = call.rows(
        &reasons_query(
            "?1",
            "?2",
            "?3",
            "1 = 1",
            labels_sql("t", labels.len(), 4).as_deref(),
        ),
        &params,
    )?;
    Ok(rows.into_iter().next().unwrap_or_default())
}

/// The aggregate of [`reason_counts`] over the open tasks of the list
/// `list` (SQL), at the time `now`, for the agent `agent`, counting only
/// if `only_if` holds (a condition the engine checks once, before the
/// scan). With `carries` (the condition that the task `t` carries one
/// of the labels asked for), each reason counts only such tasks, and the
/// last column the others.
fn reasons_query(
    now: &str,
    agent: &str,
    list: &str,
    only_if: &str,
    carries: Option<&str>,
) -> String {
    let lab = carries.unwrap_or("1 = 1");
    // A lease without an end (not written by this component) holds nothing.
    let held = format!("(t.status = 'in_progress' AND COALESCE(t.claim_expires_at, 0) > {now})");
    let other =
        format!("(t.assigned_to_agent_id IS NOT NULL AND t.assigned_to_agent_id <> {agent})");
    let free = format!("t.status <> 'blocked' AND NOT {held} AND t.awaits_approval = 0");
    let waits = "EXISTS (SELECT 1 FROM task_deps d JOIN tasks u ON u.id = d.depends_on_id WHERE d.task_id = t.id \
         AND u.deleted_at IS NULL AND u.status NOT IN ('done', 'canceled'))";
    format!(
        "SELECT \
         COALESCE(SUM(CASE WHEN {lab} AND t.status = 'blocked' THEN 1 ELSE 0 END), 0) AS paused, \
         COALESCE(SUM(CASE WHEN {lab} AND t.status <> 'blocked' AND {held} THEN 1 ELSE 0 END), 0) AS held, \
         COALESCE(SUM(CASE WHEN {lab} AND {free} AND {other} THEN 1 ELSE 0 END), 0) AS others, \
         COALESCE(SUM(CASE WHEN {lab} AND {free} AND NOT {other} AND {waits} THEN 1 ELSE 0 END), 0) AS waits, \
         COALESCE(SUM(CASE WHEN {lab} AND t.status <> 'blocked' AND NOT {held} AND t.awaits_approval = 1 THEN 1 ELSE 0 END), 0) AS awaiting, \
         COALESCE(SUM(CASE WHEN {lab} AND {free} AND NOT {other} AND NOT {waits} THEN 1 ELSE 0 END), 0) AS ready, \
         COALESCE(SUM(CASE WHEN NOT ({lab}) THEN 1 ELSE 0 END), 0) AS unlabeled \
         FROM tasks t WHERE t.list_id = {list} AND t.deleted_at IS NULL \
         AND t.status IN ('todo', 'in_progress', 'blocked') AND {only_if}"
    )
}

/// What an agent waiting on a plan is told: only a person approves, and
/// where.
pub(crate) fn approve_hint(list_id: &str) -> String {
    format!(
        "only a person can approve (Pi: /task-approve {list_id}; shell: tasklists approve {list_id}); \
         meanwhile revise the plan or work elsewhere, then call claim_next again"
    )
}

/// `task_claims refresh`, as one type: its spec, its result, its handler.
pub struct RefreshClaim;

impl Action for RefreshClaim {
    type Result = Claimed;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_CLAIMS,
        name: "refresh",
        summary: "extend your lease on a task you hold",
        own_params: &[
            TASK_ID,
            LEASE,
            param(
                "claim_token",
                Ty::Id(IdKind::Claim),
                false,
                "token from claim_next",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"task_id":"task_01JDQ50000000000000000000A","lease_seconds":1800}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<Claimed>> {
        refresh(call)
    }
}

/// `refresh`: extends the caller's lease on a task it still holds (even past
/// expiry, as long as nobody took it over).
fn refresh(call: &mut Call) -> ToolResult<Done<Claimed>> {
    let agent = call.agent()?.to_string();
    let task_id = call.params.str("task_id").unwrap_or_default().to_string();
    let access::Loaded { task, list, deps } = access::task(call, &task_id)?;
    if task.status != Status::InProgress
        || task.claimed_by_agent_id.as_deref() != Some(agent.as_str())
    {
        if let Some(lost) = super::release::released_claim(call, &task)? {
            return Err(lost);
        }
        if task.held_by_other(Some(&agent), call.now()) {
            return Err(claimed_conflict(call, &task));
        }
        return Err(ToolError::conflict(
            format!(
                "you ({agent}) do not hold a claim on task {} (status {})",
                task.id, task.status
            ),
            "call task_claims claim_next to claim work",
        ));
    }
    if let Err(e) = access::check_token(call.params.str("claim_token"), &task) {
        return Err(super::release::released_claim(call, &task)?.unwrap_or(e));
    }
    renew(call, &list.id, task, deps, false)
}

/// Extends the lease of a claim the caller holds: `claim_next` resuming it
/// (`resumed`) or `refresh`. A retry must not cut a long lease short:
/// without lease_seconds the claim keeps its own lease length.
fn renew(
    call: &Call,
    list_id: &str,
    task: TaskRow,
    deps: Vec<String>,
    resumed: bool,
) -> ToolResult<Done<Claimed>> {
    let lease = lease_ms(call, task.lease_ms);
    let expires = call.now() + lease;
    let (kind, verb, mut data) = if resumed {
        ("claimed", "resumed", json!({"resumed": true}))
    } else {
        ("refreshed", "refreshed", json!({}))
    };
    data["lease_seconds"] = (lease / 1000).into();
    // The call's last write, with its audit row: sent with the COMMIT
    // where the store can (the task's row is the caller's, held).
    call.exec_with_event_last(
        "UPDATE tasks SET claim_expires_at = ?, lease_ms = ?, updated_at = ? WHERE id = ?",
        crate::params![expires, lease, call.now(), task.id.as_str()],
        kind,
        Some(list_id),
        Some(&task.id),
        data,
    )?;
    // Exactly what the UPDATE above wrote: no need to read the row back.
    let task = TaskRow {
        claim_expires_at: Some(expires),
        lease_ms: Some(lease),
        updated_at: call.now(),
        ..task
    };
    claim_output(&task, &deps, verb)
}

/// Most claims one `release_expired` call releases (one `IN (…)` list of
/// them is updated); `remaining` says how many are left for the next call.
pub const RELEASE_MAX: usize = IN_LIST_MAX;

/// `task_claims release_expired`, as one type: its spec, its result, its handler.
pub struct ReleaseExpired;

impl Action for ReleaseExpired {
    type Result = Released;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_CLAIMS,
        name: "release_expired",
        summary: "return expired claims to todo (one list, or all you can see)",
        own_params: &[param(
            "list_id",
            Ty::Id(IdKind::List),
            false,
            "list id; default all visible lists",
        )],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<Released>> {
        release_expired(call)
    }
}

/// `release_expired`: returns expired claims to `todo`, keeping assignments,
/// at most [`RELEASE_MAX`] per call. Idempotent: a second call finds
/// nothing left to release.
fn release_expired(call: &mut Call) -> ToolResult<Done<Released>> {
    call.agent()?;
    // `status IN (…)` repeats `= 'in_progress'` so that SQLite may use the
    // partial index of open tasks (its WHERE must appear in the query's).
    let mut filter =
        "FROM tasks t JOIN lists l ON l.id = t.list_id WHERE t.status = 'in_progress' \
                      AND t.status IN ('todo', 'in_progress') AND t.claim_expires_at <= ? \
                      AND t.deleted_at IS NULL AND l.deleted_at IS NULL"
            .to_string();
    let mut args: Vec<Value> = vec![call.now().into()];
    if let Some(list_id) = call.params.str("list_id").map(str::to_string) {
        let list = access::list(call, &list_id, false)?;
        filter.push_str(" AND t.list_id = ?");
        args.push(list.id.into());
    } else {
        filter.push_str(&format!(" AND {VISIBLE_TO}"));
        args.push(call.viewer.clone().into());
    }
    let mut page = args.clone();
    page.push(Value::Integer(RELEASE_MAX as i64));
    let rows = call.rows(
        &format!(
            "SELECT t.id, t.list_id, t.claimed_by_agent_id, t.claim_expires_at {filter} \
             ORDER BY t.list_id, t.position LIMIT ?"
        ),
        &page,
    )?;
    let released: Vec<String> = rows
        .iter()
        .map(|r| r[0].as_str().unwrap_or_default().to_string())
        .collect();
    if !released.is_empty() {
        let marks = vec!["?"; released.len()].join(", ");
        let mut update: Vec<Value> = vec![call.now().into()];
        update.extend(released.iter().map(Value::from));
        call.exec(
            &format!(
                "UPDATE tasks SET status = 'todo', {END_CLAIM}, updated_at = ? WHERE id IN ({marks})"
            ),
            &update,
        )?;
    }
    // The rows come list by list: one batch of events (and one touch) each.
    for group in rows.chunk_by(|a, b| a[1] == b[1]) {
        let list_id = group[0][1].as_str().unwrap_or_default();
        let events: Vec<(String, Json)> = group
            .iter()
            .map(|r| {
                let data = json!({"claimed_by": r[2].as_str(), "expired_at": r[3].as_i64().map(format_ms)});
                (r[0].as_str().unwrap_or_default().to_string(), data)
            })
            .collect();
        call.task_events("released", list_id, &events)?;
    }
    let remaining = if released.len() == RELEASE_MAX {
        call.rows(&format!("SELECT COUNT(*) {filter}"), &args)?
            .first()
            .and_then(|r| r[0].as_i64())
            .unwrap_or(0)
    } else {
        0
    };
    let summary = match (released.len(), remaining) {
        (0, _) => "no expired claims".to_string(),
        (n, 0) => format!(
            "released {}: {}",
            plural(n, "expired claim"),
            id_sample(&released)
        ),
        (n, left) => format!(
            "released {}: {}; {left} more expired: call again",
            plural(n, "expired claim"),
            id_sample(&released)
        ),
    };
    Ok(Done {
        summary,
        result: Released {
            released,
            remaining,
        },
    })
}
