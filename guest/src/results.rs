//! Typed result objects of the tool actions: the tools serialize them into
//! the contract's JSON, the renderers deserialize them back, so both sides
//! name the same fields and a renamed field fails the build instead of
//! blanking a view.
//!
//! Field order is the JSON key order (serde_json keeps it). Optional fields
//! are left out when unset, as the contract says. Every field also has a
//! default when it is read back, so a renderer shows what partial data
//! holds; data of the wrong shape does not deserialize, and the renderer
//! falls back to the generic view.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use crate::clock::format_ms;
use crate::model::{Counts, ListRow, Status, TaskForm, TaskRow, Visibility};
use crate::text_budget::{self, Cut};

/// The contract's task object: whole (create, update, claims) or as a row
/// of a `task_lists get` page ([`TaskForm`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TaskJson {
    /// Task id.
    pub id: String,
    /// Its list; left out of the rows of a `get` page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_id: Option<String>,
    /// 1-based rank in the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    /// Short title.
    pub title: String,
    /// Details.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Working memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Status (always set by the tools).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Reserved for this agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_to_agent_id: Option<String>,
    /// Agent holding the claim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed_by_agent_id: Option<String>,
    /// End of the claim's lease (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_expires_at: Option<String>,
    /// What came of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Ids of the tasks it waits for; left out when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
    /// Creation time (history: see [`TaskForm`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Last change (history).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// First claim (history).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// Closing time (history).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completed_at: Option<String>,
    /// Soft-deletion time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted_at: Option<String>,
}

impl TaskJson {
    /// The object of `row` with its dependencies, in `form`; texts over a
    /// task's bound (only an old row can hold them) cut to fit
    /// ([`text_budget::fit`]).
    pub fn new(row: &TaskRow, depends_on: &[String], form: TaskForm) -> Self {
        let (list_id, times) = match form {
            TaskForm::Whole => (true, true),
            TaskForm::Board { times } => (false, times),
        };
        let time = |v: Option<i64>| v.map(format_ms);
        // The lease end and the deletion say what state a task is in; the
        // other times are history, which a board leaves out unless asked.
        let history = |v: Option<i64>| if times { time(v) } else { None };
        let mut task = TaskJson {
            id: row.id.clone(),
            list_id: list_id.then(|| row.list_id.clone()),
            position: Some(row.position),
            title: row.title.clone(),
            description: row.description.clone(),
            notes: row.notes.clone(),
            status: Some(row.status),
            assigned_to_agent_id: row.assigned_to_agent_id.clone(),
            claimed_by_agent_id: row.claimed_by_agent_id.clone(),
            claim_expires_at: time(row.claim_expires_at),
            outcome: row.outcome.clone(),
            depends_on: depends_on.to_vec(),
            created_at: history(Some(row.created_at)),
            updated_at: history(Some(row.updated_at)),
            started_at: history(row.started_at),
            completed_at: history(row.completed_at),
            deleted_at: time(row.deleted_at),
        };
        let mut texts: Vec<&mut String> =
            [&mut task.description, &mut task.notes, &mut task.outcome]
                .into_iter()
                .flatten()
                .collect();
        text_budget::fit(&mut texts, text_budget::TASK_TEXT_BYTES, Cut::OverBound);
        task
    }
}

/// The contract's list object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListJson {
    /// List id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Scope type (`workspace`, `thread`, …).
    pub scope_type: String,
    /// Scope key (a path, a thread id, …).
    pub scope_key: String,
    /// `private` or `shared` (always set by the tools).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<Visibility>,
    /// Owner of a private list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner_agent_id: Option<String>,
    /// Creator.
    pub created_by_agent_id: String,
    /// Creation time.
    pub created_at: String,
    /// Last change.
    pub updated_at: String,
    /// Soft-deletion time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted_at: Option<String>,
}

impl From<&ListRow> for ListJson {
    fn from(l: &ListRow) -> Self {
        ListJson {
            id: l.id.clone(),
            name: l.name.clone(),
            scope_type: l.scope_type.clone(),
            scope_key: l.scope_key.clone(),
            visibility: Some(l.visibility),
            owner_agent_id: l.owner_agent_id.clone(),
            created_by_agent_id: l.created_by_agent_id.clone(),
            created_at: format_ms(l.created_at),
            updated_at: format_ms(l.updated_at),
            deleted_at: l.deleted_at.map(format_ms),
        }
    }
}

/// `task_lists create` → `{list, created}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListCreated {
    /// The new list, or the existing one `get_or_create` found.
    pub list: ListJson,
    /// False when an existing list was returned.
    #[serde(default = "yes")]
    pub created: bool,
}

fn yes() -> bool {
    true
}

/// A list of a `find` page with its counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ListWithCounts {
    /// The list object.
    #[serde(flatten)]
    pub list: ListJson,
    /// Its tasks by status.
    #[serde(default)]
    pub counts: Counts,
}

/// `task_lists find` → `{lists, next_cursor}`. The tool fills `lists`
/// with lists already turned into JSON (a page measures them as it
/// fills); a renderer reads them as [`ListWithCounts`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListsPage<T = ListWithCounts> {
    /// The page's lists.
    pub lists: Vec<T>,
    /// Where the next page starts; null on the last one.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// `task_lists get` → `{list, counts, tasks?, next_cursor?}`. The tool
/// fills `tasks` with rows already turned into JSON (a page measures them
/// as it fills); a renderer reads them as [`TaskJson`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListDetail<T = TaskJson> {
    /// The list.
    pub list: ListJson,
    /// Counts over the whole list (always set by the tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// One page of tasks, unless `include_tasks: false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Vec<T>>,
    /// With `tasks`: where the next page starts (inner None: last page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Option<String>>,
}

/// `task_items create` and `update` → `{task}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// The task as stored now.
    pub task: TaskJson,
}

/// `task_items add_many` → `{tasks}`, in the order given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TasksResult {
    /// The tasks as stored.
    pub tasks: Vec<TaskJson>,
}

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

/// `task_lists delete` → `{list_id, deleted_tasks}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListDeleted {
    /// The deleted list (always set by the tool).
    pub list_id: Option<String>,
    /// Active tasks soft-deleted with it (always set by the tool).
    pub deleted_tasks: Option<u64>,
}

/// A task moved by `reorder`, at its new position.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Moved {
    /// Task id.
    pub id: String,
    /// Its new position (always set by the tool).
    pub position: Option<i64>,
}

/// `task_items reorder` → `{tasks, shifted}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reordered {
    /// The moved tasks, in the order given.
    pub tasks: Vec<Moved>,
    /// How many other tasks moved to make room (always set by the tool).
    #[serde(default)]
    pub shifted: Option<u64>,
}

/// `task_items delete` → `{deleted}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TasksDeleted {
    /// Ids of the deleted tasks.
    pub deleted: Vec<String>,
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

/// One audit event. Every key is always present (null when unset); `data`
/// depends on the kind.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AuditEvent {
    /// Event id.
    pub id: Option<String>,
    /// When it happened (RFC 3339).
    pub at: Option<String>,
    /// Who did it.
    pub agent_id: Option<String>,
    /// Event kind (`created`, `status_changed`, …).
    pub kind: Option<String>,
    /// The list concerned.
    pub list_id: Option<String>,
    /// The task concerned.
    pub task_id: Option<String>,
    /// Kind-specific details.
    pub data: Json,
}

/// `task_audit get` → `{events, next_cursor}`, newest first. The tool fills
/// `events` with events already turned into JSON (a page measures them as
/// it fills); a renderer reads them as [`AuditEvent`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditPage<T = AuditEvent> {
    /// The page's events.
    pub events: Vec<T>,
    /// Where the next page starts; null on the last one.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// A worked example call of `task_help`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HelpExample {
    /// What it does (the action's summary).
    pub title: String,
    /// The tool called.
    pub tool: String,
    /// The whole input: `{action, params}`.
    pub input: Json,
}

/// A `task_help` result: the sections its action asked for, in reading
/// order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HelpResult {
    /// The standard workflow, as steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workflow: Option<Vec<String>>,
    /// The rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<String>>,
    /// Tool → action → `{summary, schema}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schemas: Option<Map<String, Json>>,
    /// Worked calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub examples: Option<Vec<HelpExample>>,
}

/// Cuts the texts of an `add_many` echo (titles, descriptions, notes) so
/// that its JSON stays within [`ECHO_BYTES`](text_budget::ECHO_BYTES); the rest of each task (ids,
/// times, assignee, dependencies) is kept. Says whether it cut.
pub fn fit_batch(echo: &mut TasksResult) -> bool {
    let total = crate::text::json_text_len(echo);
    if total <= text_budget::ECHO_BYTES {
        return false;
    }
    let mut texts: Vec<&mut String> = echo
        .tasks
        .iter_mut()
        .flat_map(|t| {
            [&mut t.description, &mut t.notes, &mut t.outcome]
                .into_iter()
                .flatten()
                .chain([&mut t.title])
        })
        .collect();
    let text_bytes: usize = texts.iter().map(|t| crate::text::json_str_len(t)).sum();
    let fixed = total - text_bytes;
    text_budget::fit(
        &mut texts,
        text_budget::ECHO_BYTES.saturating_sub(fixed),
        Cut::Echo,
    )
}

/// The JSON of a result (serialization of these types cannot fail).
pub fn to_json<T: Serialize>(result: &T) -> Json {
    serde_json::to_value(result).unwrap_or(Json::Null)
}

/// Reads a result back; None when `data` does not have its shape.
pub fn from_json<T: serde::de::DeserializeOwned>(data: &Json) -> Option<T> {
    T::deserialize(data).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> TaskRow {
        TaskRow {
            id: "task_1".into(),
            list_id: "list_1".into(),
            position: 2,
            title: "T".into(),
            description: Some("d".into()),
            notes: None,
            status: Status::InProgress,
            assigned_to_agent_id: None,
            claimed_by_agent_id: Some("a".into()),
            claim_token: Some("claim_1".into()),
            claim_expires_at: Some(0),
            lease_ms: Some(900_000),
            outcome: None,
            created_at: 0,
            updated_at: 0,
            started_at: Some(0),
            completed_at: None,
            deleted_at: None,
        }
    }

    /// Key order and omitted fields are part of the contract.
    #[test]
    fn task_and_claim_json_keep_their_shape() {
        let t = "1970-01-01T00:00:00.000Z";
        let whole = TaskJson::new(&row(), &["task_0".into()], TaskForm::Whole);
        assert_eq!(
            serde_json::to_string(&whole).unwrap(),
            format!(
                r#"{{"id":"task_1","list_id":"list_1","position":2,"title":"T","description":"d","status":"in_progress","claimed_by_agent_id":"a","claim_expires_at":"{t}","depends_on":["task_0"],"created_at":"{t}","updated_at":"{t}","started_at":"{t}"}}"#
            )
        );
        let board = TaskJson::new(&row(), &[], TaskForm::Board { times: false });
        assert_eq!(
            serde_json::to_string(&board).unwrap(),
            format!(
                r#"{{"id":"task_1","position":2,"title":"T","description":"d","status":"in_progress","claimed_by_agent_id":"a","claim_expires_at":"{t}"}}"#
            )
        );
        let claimed = ClaimNext::Claimed(Box::new(Claimed {
            task: board.clone(),
            claim: Some(ClaimJson::of(&row())),
            resumed: false,
        }));
        let text = serde_json::to_string(&claimed).unwrap();
        assert!(text.ends_with(&format!(
            r#""claim":{{"token":"claim_1","expires_at":"{t}"}}}}"#
        )));
        assert_eq!(from_json::<ClaimNext>(&to_json(&claimed)), Some(claimed));
        let nothing = ClaimNext::Nothing(NothingToClaim {
            task: (),
            waiting: Waiting::default(),
        });
        assert_eq!(
            serde_json::to_string(&nothing).unwrap(),
            r#"{"task":null,"waiting":{"claimed_by_others":0,"waiting_on_dependencies":0,"assigned_to_others":0,"blocked":0}}"#
        );
        assert_eq!(from_json::<ClaimNext>(&to_json(&nothing)), Some(nothing));
    }
}
