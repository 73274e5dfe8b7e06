//! Rows of the `lists` and `tasks` tables, the closed sets of their columns
//! ([`Status`], [`Visibility`]) and per-status [`Counts`]. Their contract
//! JSON shapes are the typed objects of `crate::results`, which reads them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::store::Value;
use crate::waits::{Ask, Review, WaitsOn, read_column};

/// Columns selected for a list, in [`ListRow::from_row`] order.
pub const LIST_COLS: &str = "id, name, scope_type, scope_key, visibility, owner_agent_id, created_by_agent_id, created_at, updated_at, deleted_at, \
     todo_count, in_progress_count, blocked_count, done_count, canceled_count, approval, approval_note, approval_by, approval_at, requires_review";

/// How many columns [`LIST_COLS`] names: where a task's columns start in a
/// row that brings its list's first. Counted at compile time: a call
/// counted them on every row it read (a few µs of a claim's guest time,
/// BENCHMARKS.md "Speed, round 3").
pub const LIST_WIDTH: usize = column_count(LIST_COLS);

/// How many columns [`TASK_COLS`] names (as [`LIST_WIDTH`]).
pub const TASK_WIDTH: usize = column_count(TASK_COLS);

/// The number of comma-separated columns in `cols`.
const fn column_count(cols: &str) -> usize {
    let bytes = cols.as_bytes();
    let (mut i, mut n) = (0, 1);
    while i < bytes.len() {
        if bytes[i] == b',' {
            n += 1;
        }
        i += 1;
    }
    n
}

/// `cols` (one of the column lists here) qualified by a table alias, for
/// queries that load a task and its list in one statement.
pub fn aliased(cols: &str, alias: &str) -> String {
    cols.split(',')
        .map(|c| format!("{alias}.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One column holding the live dependencies of the task aliased `t`, comma
/// separated in the dependencies' position order (ids hold no comma): the
/// query that loads a task brings its `depends_on` along instead of a
/// second statement. Read it with [`deps_column`].
pub const DEPS_OF_T: &str = "(SELECT string_agg(d.depends_on_id, ',' ORDER BY u.position, u.id) \
     FROM task_deps d JOIN tasks u ON u.id = d.depends_on_id WHERE d.task_id = t.id AND u.deleted_at IS NULL)";

/// The ids of a [`DEPS_OF_T`] column (NULL: none).
pub fn deps_column(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_str)
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_default()
}

/// [`ListRow::visible_to`] in SQL, for a statement over `lists` (alone, or
/// joined with `tasks`, which has neither column): its one parameter is
/// the agent (NULL, for no identity, matches shared lists only).
pub const VISIBLE_TO: &str = "(visibility = 'shared' OR owner_agent_id = ?)";

/// Columns selected for a task, in [`TaskRow::from_row`] order.
pub const TASK_COLS: &str = "id, list_id, position, title, description, notes, status, assigned_to_agent_id, \
     claimed_by_agent_id, claim_token, claim_expires_at, lease_ms, outcome, created_at, updated_at, started_at, \
     completed_at, deleted_at, priority, verification, verification_result, awaits_approval, approved_title, refs, labels, waits_on, ask, review, \
     requires_review, resume_for";

/// The `refs` column of `refs` (one URI per line; NULL: none), as
/// [`TaskRow::from_row`] reads it back.
pub fn refs_column(refs: &[String]) -> Option<String> {
    (!refs.is_empty()).then(|| refs.join("\n"))
}

/// The refs of a `refs` column (NULL or empty: none).
pub fn refs_of(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_str)
        .map(|s| {
            s.lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The `labels` column of `labels` (one label per line, as for refs;
/// NULL: none), as [`TaskRow::from_row`] reads it back.
pub fn labels_column(labels: &[String]) -> Option<String> {
    refs_column(labels)
}

/// The labels of a `labels` column (NULL or empty: none).
pub fn labels_of(v: Option<&Value>) -> Vec<String> {
    refs_of(v)
}

/// SQL that holds when the task's `labels` column (`col`, e.g. `t.labels`)
/// carries any of the labels bound to `marks` (placeholders, each bound
/// to [`label_mark`] of one label), `nl` a placeholder bound to `"\n"`.
/// The column between line breaks holds `"\n" + label + "\n"` exactly
/// when the label is one of its lines (a label holds no line break), and
/// removing every occurrence then shortens it: `replace` and `length`
/// mean the same in both dialects, case-sensitive, where `LIKE` differs
/// (SQLite's ignores ASCII case, and `_` is a label character).
pub fn carries_any_label(col: &str, marks: &[String], nl: &str) -> String {
    let framed = format!("(CAST({nl} AS TEXT) || {col} || CAST({nl} AS TEXT))");
    let terms: Vec<String> = marks
        .iter()
        .map(|m| format!("length(replace({framed}, CAST({m} AS TEXT), '')) < length({framed})"))
        .collect();
    format!("({col} IS NOT NULL AND ({}))", terms.join(" OR "))
}

/// The value [`carries_any_label`] binds for `label`: the label between
/// line breaks.
pub fn label_mark(label: &str) -> String {
    format!("\n{label}\n")
}

/// The SET assignments that end a task's claim (the in-memory twin is
/// [`TaskRow::end_claim`]).
pub const END_CLAIM: &str =
    "claimed_by_agent_id = NULL, claim_token = NULL, claim_expires_at = NULL, lease_ms = NULL";

/// A task's status, stored and serialized as its snake_case name
/// (`todo`, `in_progress`, `blocked`, `done`, `canceled`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Not started.
    Todo,
    /// Claimed and being worked on.
    InProgress,
    /// Paused.
    Blocked,
    /// Finished with an outcome.
    Done,
    /// Abandoned with an outcome.
    Canceled,
}

impl Status {
    /// Every status, in contract order.
    pub const ALL: [Status; 5] = [
        Status::Todo,
        Status::InProgress,
        Status::Blocked,
        Status::Done,
        Status::Canceled,
    ];

    /// The status's name in SQL and JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Todo => "todo",
            Status::InProgress => "in_progress",
            Status::Blocked => "blocked",
            Status::Done => "done",
            Status::Canceled => "canceled",
        }
    }

    /// The status named `s`, if it is one.
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// Whether the status closes a task (`done` or `canceled`).
    pub const fn is_closed(self) -> bool {
        matches!(self, Status::Done | Status::Canceled)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who may use a list, stored and serialized as `private` or `shared`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Only its owner (others need an audited bypass).
    Private,
    /// Every agent.
    Shared,
}

impl Visibility {
    /// Both visibilities, in contract order.
    pub const ALL: [Visibility; 2] = [Visibility::Private, Visibility::Shared];

    /// The visibility's name in SQL and JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Visibility::Private => "private",
            Visibility::Shared => "shared",
        }
    }

    /// The visibility named `s`, if it is one.
    pub fn parse(s: &str) -> Option<Visibility> {
        Visibility::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

impl fmt::Display for Visibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A task's priority: `claim_next` hands out the ready task with the
/// highest, then the lowest position. Stored as its rank (0 high, 1
/// medium, 2 low) so that SQL orders by it; serialized by name.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Before every other ready task.
    High,
    /// The default.
    #[default]
    Medium,
    /// After every other ready task.
    Low,
}

impl Priority {
    /// Every priority, highest first.
    pub const ALL: [Priority; 3] = [Priority::High, Priority::Medium, Priority::Low];

    /// The priority's name in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Priority::High => "high",
            Priority::Medium => "medium",
            Priority::Low => "low",
        }
    }

    /// The stored rank (0 high, 1 medium, 2 low).
    pub const fn rank(self) -> i64 {
        match self {
            Priority::High => 0,
            Priority::Medium => 1,
            Priority::Low => 2,
        }
    }

    /// The priority of a stored rank (the schema's CHECK admits 0 to 2).
    pub fn from_rank(rank: i64) -> Priority {
        match rank {
            0 => Priority::High,
            2 => Priority::Low,
            _ => Priority::Medium,
        }
    }

    /// The priority named `s`, if it is one.
    pub fn parse(s: &str) -> Option<Priority> {
        Priority::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a list's plan stands, for a list created with
/// `requires_approval` (stored and serialized by name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Approval {
    /// Waiting for a person: nothing is handed out.
    Pending,
    /// A person approved it: its tasks are handed out (those added since
    /// wait for their own approval).
    Approved,
    /// A person rejected it, with a reason: nothing is handed out.
    Rejected,
}

impl Approval {
    /// Every state, in contract order.
    pub const ALL: [Approval; 3] = [Approval::Pending, Approval::Approved, Approval::Rejected];

    /// The state's name in SQL and JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Approval::Pending => "pending",
            Approval::Approved => "approved",
            Approval::Rejected => "rejected",
        }
    }

    /// The state named `s`, if it is one.
    pub fn parse(s: &str) -> Option<Approval> {
        Approval::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

impl fmt::Display for Approval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A row of `lists`.
#[derive(Debug, Clone, PartialEq)]
pub struct ListRow {
    /// The list id (`list_…`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// `global`, `workspace` or `thread`.
    pub scope_type: String,
    /// The workspace or thread it belongs to (empty for global).
    pub scope_key: String,
    /// Shared or private.
    pub visibility: Visibility,
    /// The owner of a private list.
    pub owner_agent_id: Option<String>,
    /// Who created it.
    pub created_by_agent_id: String,
    /// Creation time, ms since the epoch.
    pub created_at: i64,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// When it was soft-deleted, if it was.
    pub deleted_at: Option<i64>,
    /// Its live tasks per status: counters the schema's triggers keep in
    /// the same transaction as every task write (migration 0004).
    pub counts: Counts,
    /// Where its plan stands (None: it needs no approval).
    pub approval: Option<Approval>,
    /// The person's note on approval, or the reason of a rejection.
    pub approval_note: Option<String>,
    /// The person who approved or rejected it last.
    pub approval_by: Option<String>,
    /// When, ms since the epoch.
    pub approval_at: Option<i64>,
    /// Every task created in it requires a person's review at the finish.
    pub requires_review: bool,
}

/// A row of `tasks`.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRow {
    /// The task id (`task_…`).
    pub id: String,
    /// Its list.
    pub list_id: String,
    /// Its place in the list's order (dense, from 1).
    pub position: i64,
    /// One-line title.
    pub title: String,
    /// Longer description.
    pub description: Option<String>,
    /// The working memory agents write.
    pub notes: Option<String>,
    /// Where it stands.
    pub status: Status,
    /// The agent it is reserved for, if any.
    pub assigned_to_agent_id: Option<String>,
    /// Who holds the claim.
    pub claimed_by_agent_id: Option<String>,
    /// The token of the current claim.
    pub claim_token: Option<String>,
    /// When the claim's lease ends, ms since the epoch.
    pub claim_expires_at: Option<i64>,
    /// The claim's lease length.
    pub lease_ms: Option<i64>,
    /// How it was closed.
    pub outcome: Option<String>,
    /// Creation time, ms since the epoch.
    pub created_at: i64,
    /// Last change, ms since the epoch.
    pub updated_at: i64,
    /// First claim, ms since the epoch.
    pub started_at: Option<i64>,
    /// When it was closed.
    pub completed_at: Option<i64>,
    /// When it was soft-deleted, if it was.
    pub deleted_at: Option<i64>,
    /// Its priority (claim_next's first order).
    pub priority: Priority,
    /// How to check it is done, if it says.
    pub verification: Option<String>,
    /// What the check showed when it was closed as done.
    pub verification_result: Option<String>,
    /// Added to an approved list: waits for a person's approval.
    pub awaits_approval: bool,
    /// The title a person approved (None: never approved).
    pub approved_title: Option<String>,
    /// URIs of items elsewhere it points at (`contract::refs`), in order.
    pub refs: Vec<String>,
    /// Its labels (`contract::labels`), a set in the order given.
    pub labels: Vec<String>,
    /// What it waits on a person for (its status is then blocked).
    pub waits_on: Option<WaitsOn>,
    /// The last question its agent asked, and the answer.
    pub ask: Option<Ask>,
    /// The last review of its finish.
    pub review: Option<Review>,
    /// Closing it as done sends it to review first.
    pub requires_review: bool,
    /// The agent it was handed back to (answered or returned): that
    /// agent's next claim in the list hands it out first.
    pub resume_for: Option<String>,
}

/// A row's cells as a row type reads them: borrowed (each text copied), or
/// owned by the caller (each text moved out, leaving NULL), for pages of
/// rows that are read once (`find`, a board's tasks).
trait Cells {
    /// The cell at `i`.
    fn cell(&self, i: usize) -> Option<&Value>;
    /// The text at `i`, if it is text.
    fn text_at(&mut self, i: usize) -> Option<String>;
}

impl Cells for &[Value] {
    fn cell(&self, i: usize) -> Option<&Value> {
        self.get(i)
    }
    fn text_at(&mut self, i: usize) -> Option<String> {
        self.get(i).and_then(Value::as_str).map(str::to_string)
    }
}

impl Cells for &mut [Value] {
    fn cell(&self, i: usize) -> Option<&Value> {
        self.get(i)
    }
    fn text_at(&mut self, i: usize) -> Option<String> {
        self.get_mut(i).and_then(Value::take_text)
    }
}

fn text(row: &mut impl Cells, i: usize) -> String {
    row.text_at(i).unwrap_or_default()
}
fn opt_text(row: &mut impl Cells, i: usize) -> Option<String> {
    row.text_at(i)
}
fn int(row: &impl Cells, i: usize) -> i64 {
    row.cell(i).and_then(Value::as_i64).unwrap_or_default()
}
fn opt_int(row: &impl Cells, i: usize) -> Option<i64> {
    row.cell(i).and_then(Value::as_i64)
}

impl ListRow {
    /// Maps a row selected with [`LIST_COLS`].
    pub fn from_row(r: &[Value]) -> Self {
        Self::from_cells(r)
    }

    /// [`ListRow::from_row`], moving the texts out of `r`.
    pub fn from_row_owned(r: &mut [Value]) -> Self {
        Self::from_cells(r)
    }

    fn from_cells(mut r: impl Cells) -> Self {
        ListRow {
            id: text(&mut r, 0),
            name: text(&mut r, 1),
            scope_type: text(&mut r, 2),
            scope_key: text(&mut r, 3),
            // The schema's CHECK admits only the two visibilities.
            visibility: r
                .cell(4)
                .and_then(Value::as_str)
                .and_then(Visibility::parse)
                .unwrap_or(Visibility::Private),
            owner_agent_id: opt_text(&mut r, 5),
            created_by_agent_id: text(&mut r, 6),
            created_at: int(&r, 7),
            updated_at: int(&r, 8),
            deleted_at: opt_int(&r, 9),
            counts: Counts {
                todo: int(&r, 10),
                in_progress: int(&r, 11),
                blocked: int(&r, 12),
                done: int(&r, 13),
                canceled: int(&r, 14),
            },
            approval: r.cell(15).and_then(Value::as_str).and_then(Approval::parse),
            approval_note: opt_text(&mut r, 16),
            approval_by: opt_text(&mut r, 17),
            approval_at: opt_int(&r, 18),
            requires_review: int(&r, 19) != 0,
        }
    }

    /// Whether `agent` may use this list without a bypass: it is shared,
    /// or `agent` owns it. [`VISIBLE_TO`] is the same rule in SQL.
    pub fn visible_to(&self, agent: Option<&str>) -> bool {
        self.visibility != Visibility::Private
            || (agent.is_some() && self.owner_agent_id.as_deref() == agent)
    }
}

impl TaskRow {
    /// Maps a row selected with [`TASK_COLS`].
    pub fn from_row(r: &[Value]) -> Self {
        Self::from_cells(r)
    }

    /// [`TaskRow::from_row`], moving the texts out of `r`.
    pub fn from_row_owned(r: &mut [Value]) -> Self {
        Self::from_cells(r)
    }

    fn from_cells(mut r: impl Cells) -> Self {
        TaskRow {
            id: text(&mut r, 0),
            list_id: text(&mut r, 1),
            position: int(&r, 2),
            title: text(&mut r, 3),
            description: opt_text(&mut r, 4),
            notes: opt_text(&mut r, 5),
            // The schema's CHECK admits only the five statuses.
            status: r
                .cell(6)
                .and_then(Value::as_str)
                .and_then(Status::parse)
                .unwrap_or(Status::Todo),
            assigned_to_agent_id: opt_text(&mut r, 7),
            claimed_by_agent_id: opt_text(&mut r, 8),
            claim_token: opt_text(&mut r, 9),
            claim_expires_at: opt_int(&r, 10),
            lease_ms: opt_int(&r, 11),
            outcome: opt_text(&mut r, 12),
            created_at: int(&r, 13),
            updated_at: int(&r, 14),
            started_at: opt_int(&r, 15),
            completed_at: opt_int(&r, 16),
            deleted_at: opt_int(&r, 17),
            priority: Priority::from_rank(opt_int(&r, 18).unwrap_or(1)),
            verification: opt_text(&mut r, 19),
            verification_result: opt_text(&mut r, 20),
            awaits_approval: int(&r, 21) != 0,
            approved_title: opt_text(&mut r, 22),
            refs: refs_of(r.cell(23)),
            labels: labels_of(r.cell(24)),
            waits_on: r.cell(25).and_then(Value::as_str).and_then(WaitsOn::parse),
            ask: read_column(r.cell(26)),
            review: read_column(r.cell(27)),
            requires_review: int(&r, 28) != 0,
            resume_for: opt_text(&mut r, 29),
        }
    }

    /// Ends the claim in memory, as [`END_CLAIM`] does in SQL.
    pub fn end_claim(&mut self) {
        self.claimed_by_agent_id = None;
        self.claim_token = None;
        self.claim_expires_at = None;
        self.lease_ms = None;
    }

    /// Whether another agent than `agent` holds a lease that has not expired.
    pub fn held_by_other(&self, agent: Option<&str>, now: i64) -> bool {
        self.status == Status::InProgress
            && self.claim_expires_at.is_some_and(|t| t > now)
            && self.claimed_by_agent_id.as_deref() != agent
    }

    /// Whether the task is closed (`done` or `canceled`).
    pub fn is_closed(&self) -> bool {
        self.status.is_closed()
    }

    /// The open question, while the task waits for its answer.
    pub fn open_question(&self) -> Option<&Ask> {
        self.ask
            .as_ref()
            .filter(|_| self.waits_on == Some(WaitsOn::Answer))
    }
}

/// Which fields a task object carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskForm {
    /// Every field: what create, update and claim results return.
    Whole,
    /// A row of a `task_lists get` page: no `list_id` (the page's `list`
    /// gives it), and the history times (`created_at`, `updated_at`,
    /// `started_at`, `completed_at`) only when `times` is set.
    Board {
        /// Keep the history times.
        times: bool,
    },
}

/// Per-status task counts of a list (the contract's counts object; a
/// missing count reads as 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Counts {
    /// Not started.
    pub todo: i64,
    /// Claimed.
    pub in_progress: i64,
    /// Paused.
    pub blocked: i64,
    /// Finished.
    pub done: i64,
    /// Abandoned.
    pub canceled: i64,
}

impl Counts {
    /// Every live task, whatever its status.
    pub fn total(&self) -> i64 {
        self.todo + self.in_progress + self.blocked + self.done + self.canceled
    }

    /// Adds `n` tasks of `status`.
    pub fn add(&mut self, status: &str, n: i64) {
        match Status::parse(status) {
            Some(Status::Todo) => self.todo += n,
            Some(Status::InProgress) => self.in_progress += n,
            Some(Status::Blocked) => self.blocked += n,
            Some(Status::Done) => self.done += n,
            Some(Status::Canceled) => self.canceled += n,
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_count_the_columns_their_lists_name() {
        assert_eq!(LIST_WIDTH, LIST_COLS.split(',').count());
        assert_eq!(TASK_WIDTH, TASK_COLS.split(',').count());
        assert_eq!(column_count("a"), 1);
        assert_eq!(column_count("a, b,c"), 3);
    }
}
