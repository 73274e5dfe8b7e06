//! The contract's task and list objects, which many results hold (each
//! action's own result type lives with its handler in `crate::actions`),
//! and the JSON of a result: the tools serialize results into the
//! contract's JSON, the renderers deserialize them back, so both sides
//! name the same fields and a renamed field fails the build instead of
//! blanking a view.
//!
//! Field order is the JSON key order (serde_json keeps it). Optional fields
//! are left out when unset, as the contract says. Every field also has a
//! default when it is read back, so a renderer shows what partial data
//! holds; data of the wrong shape does not deserialize, and the renderer
//! falls back to the generic view.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::clock::format_ms;
use crate::model::{Approval, ListRow, Priority, Status, TaskForm, TaskRow, Visibility};
use crate::text_budget::{self, Cut};
use crate::waits::{Ask, Review, WaitsOn};

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
    /// `high` or `low`; left out when `medium` (the default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<Priority>,
    /// Its labels (role, skill, kind of work), in the order given; left
    /// out when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// Details.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Working memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// How to check it is done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<String>,
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
    /// What the verification showed when it closed as done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification_result: Option<String>,
    /// Ids of the tasks it waits for; left out when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
    /// URIs of items elsewhere (a pointer, not a dependency); left out
    /// when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<String>,
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
    /// Added to an approved list: not handed out until a person approves
    /// it (left out when false).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub awaits_approval: bool,
    /// Closing it as done sends it to a person's review first (left out
    /// when false).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub requires_review: bool,
    /// What it waits on a person for: `answer` (its agent asked) or
    /// `review` (its agent finished it); its status is then blocked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waits_on: Option<WaitsOn>,
    /// The last question asked on it, and the person's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ask: Option<Ask>,
    /// The last review of its finish (a return's reason).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review: Option<Review>,
}

impl TaskJson {
    /// The object of `row` with its dependencies, in `form`; texts over a
    /// task's bound (only an old row can hold them) cut to fit
    /// ([`text_budget::fit`]).
    pub fn new(row: &TaskRow, depends_on: &[String], form: TaskForm) -> Self {
        Self::of(row.clone(), depends_on, form)
    }

    /// [`TaskJson::new`], moving the row's texts instead of copying them
    /// (a board's page of tasks).
    pub fn of(row: TaskRow, depends_on: &[String], form: TaskForm) -> Self {
        let (list_id, times) = match form {
            TaskForm::Whole => (true, true),
            TaskForm::Board { times } => (false, times),
        };
        let time = |v: Option<i64>| v.map(format_ms);
        // The lease end and the deletion say what state a task is in; the
        // other times are history, which a board leaves out unless asked.
        let history = |v: Option<i64>| if times { time(v) } else { None };
        let mut task = TaskJson {
            id: row.id,
            list_id: list_id.then_some(row.list_id),
            position: Some(row.position),
            title: row.title,
            priority: (row.priority != Priority::Medium).then_some(row.priority),
            labels: row.labels,
            description: row.description,
            notes: row.notes,
            verification: row.verification,
            status: Some(row.status),
            assigned_to_agent_id: row.assigned_to_agent_id,
            claimed_by_agent_id: row.claimed_by_agent_id,
            claim_expires_at: time(row.claim_expires_at),
            outcome: row.outcome,
            verification_result: row.verification_result,
            depends_on: depends_on.to_vec(),
            refs: row.refs,
            created_at: history(Some(row.created_at)),
            updated_at: history(Some(row.updated_at)),
            started_at: history(row.started_at),
            completed_at: history(row.completed_at),
            deleted_at: time(row.deleted_at),
            awaits_approval: row.awaits_approval,
            requires_review: row.requires_review,
            waits_on: row.waits_on,
            ask: row.ask,
            review: row.review,
        };
        let mut texts: Vec<&mut String> = task.texts_mut().1.into_iter().flatten().collect();
        text_budget::fit(&mut texts, text_budget::TASK_TEXT_BYTES, Cut::OverBound);
        task
    }

    /// The title, and the long texts [`text_budget`] bounds together (in
    /// its order), for cutting them.
    pub fn texts_mut(&mut self) -> (&mut String, [&mut Option<String>; text_budget::LONG_TEXTS]) {
        (
            &mut self.title,
            [
                &mut self.description,
                &mut self.notes,
                &mut self.outcome,
                &mut self.verification,
                &mut self.verification_result,
            ],
        )
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
    /// Where its plan stands; only for a list created with
    /// `requires_approval`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalJson>,
    /// Its tasks go to a person's review when closed as done (left out
    /// when false).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub requires_review: bool,
}

/// A plan's approval as the agents read it: the state, the person's
/// note (approved) or reason (rejected), who decided and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalJson {
    /// `pending`, `approved` or `rejected`.
    pub state: Approval,
    /// Why the person rejected the plan (when rejected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The person's note (when approved with one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The person who decided last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// When (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// What changed since the approval (`task_lists get` of an approved
    /// list, when anything did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<ChangeCounts>,
}

/// How many tasks of an approved plan were added (they await their own
/// approval), removed and retitled since the person approved it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChangeCounts {
    /// Added since (each awaits approval).
    #[serde(skip_serializing_if = "is_zero")]
    pub added: i64,
    /// Deleted since.
    #[serde(skip_serializing_if = "is_zero")]
    pub removed: i64,
    /// Retitled since.
    #[serde(skip_serializing_if = "is_zero")]
    pub retitled: i64,
}

/// What a plan awaiting approval is called, in every summary and view.
pub const PLAN_AWAITS: &str = "plan awaits a person's approval";

/// Whether a count is zero: counts are left out of the JSON then.
pub(crate) fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl ChangeCounts {
    /// The counts that are not zero, as `1 added, 2 retitled` (`added`
    /// names the added ones); None when nothing changed. The one wording
    /// every view and summary of the changes uses.
    pub fn said(&self, added: &str) -> Option<String> {
        let parts: Vec<String> = [
            (self.added, added),
            (self.removed, "removed"),
            (self.retitled, "retitled"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

impl ApprovalJson {
    /// The approval of `list`, if it needs one.
    pub fn of(list: &ListRow) -> Option<ApprovalJson> {
        let state = list.approval?;
        let (reason, note) = match state {
            Approval::Rejected => (list.approval_note.clone(), None),
            Approval::Approved => (None, list.approval_note.clone()),
            Approval::Pending => (None, None),
        };
        Some(ApprovalJson {
            state,
            reason,
            note,
            by: list.approval_by.clone(),
            at: list.approval_at.map(format_ms),
            changes: None,
        })
    }
}

impl From<&ListRow> for ListJson {
    fn from(l: &ListRow) -> Self {
        ListJson::from(l.clone())
    }
}

/// The row's texts moved, not copied: `find` makes a page of these.
impl From<ListRow> for ListJson {
    fn from(l: ListRow) -> Self {
        ListJson {
            approval: ApprovalJson::of(&l),
            visibility: Some(l.visibility),
            created_at: format_ms(l.created_at),
            updated_at: format_ms(l.updated_at),
            deleted_at: l.deleted_at.map(format_ms),
            requires_review: l.requires_review,
            id: l.id,
            name: l.name,
            scope_type: l.scope_type,
            scope_key: l.scope_key,
            owner_agent_id: l.owner_agent_id,
            created_by_agent_id: l.created_by_agent_id,
        }
    }
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
    use crate::actions::claims::{ClaimJson, ClaimNext, Claimed, NothingToClaim, Waiting};

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
            priority: Default::default(),
            verification: None,
            verification_result: None,
            awaits_approval: false,
            approved_title: None,
            refs: Vec::new(),
            labels: Vec::new(),
            waits_on: None,
            ask: None,
            review: None,
            requires_review: false,
            resume_for: None,
        }
    }

    /// Priority is shown only when not medium (next to the title), the
    /// verification after the notes, its result after the outcome.
    #[test]
    fn priority_and_verification_keep_their_place() {
        let mut r = row();
        r.description = None;
        r.priority = Priority::Low;
        r.verification = Some("v".into());
        r.verification_result = Some("ok".into());
        let board = TaskJson::new(&r, &[], TaskForm::Board { times: false });
        assert_eq!(
            serde_json::to_string(&board).unwrap(),
            r#"{"id":"task_1","position":2,"title":"T","priority":"low","verification":"v","status":"in_progress","claimed_by_agent_id":"a","claim_expires_at":"1970-01-01T00:00:00.000Z","verification_result":"ok"}"#
        );
        assert_eq!(from_json::<TaskJson>(&to_json(&board)), Some(board));
        r.priority = Priority::High;
        let text = serde_json::to_string(&TaskJson::new(&r, &[], TaskForm::Whole)).unwrap();
        assert!(text.contains(r#""title":"T","priority":"high","#), "{text}");
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
