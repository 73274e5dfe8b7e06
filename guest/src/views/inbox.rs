//! The person's inbox: what needs a person, in order: plans awaiting
//! approval, questions, work awaiting review, stalled work, checks that
//! failed. Read in one transaction among the lists the viewer may see
//! (a private list never reaches another person's inbox, nor a notifier
//! run as them). Every surface shows it from here: `tasklists inbox`,
//! the board's overview, `watch`, Pi's widget line and `/task-inbox`,
//! and the notifications (`notices.rs`).

use serde::{Deserialize, Serialize};

use super::read::{Viewer, read, select_lists, select_tasks};
use crate::clock::{Clock, format_ms};
use crate::context::CallContext;
use crate::error::{ToolError, ToolResult};
use crate::model::{
    Approval, ListRow, Status, TASK_COLS, TASK_WIDTH, TaskRow, VISIBLE_TO, aliased,
};
use crate::render::{Line, Span, Style, fmt, line};
use crate::store::{Store, Tx, Value};
use crate::text::{plural, quote};
use crate::waits::WaitsOn;

/// Minutes a running task may go without a note or a lease renewal before
/// it is stalled, until a person sets another threshold.
pub const DEFAULT_STALLED_MINUTES: i64 = 30;
/// Most minutes a threshold may be (a week).
pub const MAX_STALLED_MINUTES: i64 = 7 * 24 * 60;
/// Most entries one read lists (the rest are counted).
pub const MAX_ENTRIES: usize = 200;
/// Times a task's lease ran out before it counts as stalled whatever its
/// last renewal.
const LAPSES: i64 = 2;

/// What an entry is about, in the inbox's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A plan (or tasks added to an approved one) awaits approval.
    Approval,
    /// An agent asked a question.
    Question,
    /// Work awaits review.
    Review,
    /// Running work went quiet, or its lease ran out twice.
    Stalled,
    /// A task was paused with the result of a check that failed.
    FailedCheck,
}

impl Kind {
    /// What the inbox's lines call it.
    pub const fn word(self) -> &'static str {
        match self {
            Kind::Approval => "approve",
            Kind::Question => "question",
            Kind::Review => "review",
            Kind::Stalled => "stalled",
            Kind::FailedCheck => "check failed",
        }
    }
}

/// One thing that needs the person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Stable while the entry stands for the same thing (a new question on
    /// the same task is a new key): a notifier sends each key once.
    pub key: String,
    /// What it is about.
    pub kind: Kind,
    /// Its list.
    pub list_id: String,
    /// The list's name.
    pub list: String,
    /// The task, none for a whole plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// The task's title (or the list's name, for a plan).
    pub title: String,
    /// What it says: the question, the outcome under review, why it is
    /// stalled, what the check showed.
    pub said: String,
    /// The agent concerned, if one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Since when (RFC 3339).
    pub since: String,
    /// The person's verbs that settle it (`ui.verbs` names), first the
    /// one meant.
    pub actions: Vec<String>,
}

/// The inbox as read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inbox {
    /// How many entries there are in all.
    pub count: usize,
    /// The entries, in order (at most [`MAX_ENTRIES`]).
    pub entries: Vec<Entry>,
    /// The threshold stalled work is judged by, in minutes.
    pub stalled_after_minutes: i64,
}

/// The threshold a person set (or the default).
fn stalled_minutes(tx: &dyn Tx) -> ToolResult<i64> {
    let rows = tx.query(
        "SELECT value FROM settings WHERE name = 'stalled_after_minutes'",
        &[],
    )?;
    Ok(rows
        .rows
        .first()
        .and_then(|r| r.first())
        .and_then(Value::as_str)
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_STALLED_MINUTES))
}

/// Sets the stalled threshold, as `person` (one setting for every
/// surface and notifier of the database).
pub fn set_stalled_minutes(
    store: &dyn Store,
    clock: &dyn Clock,
    person: &str,
    minutes: i64,
) -> ToolResult<()> {
    if !(1..=MAX_STALLED_MINUTES).contains(&minutes) {
        return Err(ToolError::invalid(
            format!("stalled after {minutes} minutes: it is 1 to {MAX_STALLED_MINUTES} (a week)"),
            format!("the default is {DEFAULT_STALLED_MINUTES}"),
        ));
    }
    crate::schema::ensure(store)?;
    let tx = store.begin(true)?;
    tx.execute(
        "DELETE FROM settings WHERE name = 'stalled_after_minutes'",
        &[],
    )?;
    tx.execute(
        "INSERT INTO settings (name, value, set_by, set_at) VALUES ('stalled_after_minutes', ?, ?, ?)",
        &[
            Value::from(minutes.to_string()),
            Value::from(person),
            Value::Integer(clock.now_ms()),
        ],
    )?;
    tx.commit()?;
    Ok(())
}

/// Reads the inbox as `ctx` sees it.
pub fn load(ctx: &CallContext, store: &dyn Store, clock: &dyn Clock) -> ToolResult<Inbox> {
    let viewer = Viewer::new(ctx, clock)?;
    read(store, |tx| collect(tx, &viewer))
}

/// The entries, in order, from one transaction.
pub(crate) fn collect(tx: &dyn Tx, viewer: &Viewer) -> ToolResult<Inbox> {
    let minutes = stalled_minutes(tx)?;
    let me = viewer.agent_value();
    let now = viewer.now;
    let mut entries = Vec::new();

    // Plans awaiting approval, and approved plans with tasks added since.
    let lists = super::read::lists(
        tx,
        &format!(
            "{} WHERE deleted_at IS NULL AND {VISIBLE_TO} AND (approval = 'pending' OR (approval = 'approved' \
             AND EXISTS (SELECT 1 FROM tasks t WHERE t.list_id = lists.id AND t.awaits_approval = 1 \
             AND t.deleted_at IS NULL))) ORDER BY COALESCE(approval_at, created_at), id",
            select_lists()
        ),
        std::slice::from_ref(&me),
    )?;
    for list in &lists {
        entries.push(plan_entry(tx, list)?);
    }

    // Tasks that wait on a person, went quiet, or failed their check.
    let stale_before = now - minutes * 60_000;
    let rows = tx.query(
        &format!(
            "SELECT {}, l.name, (SELECT COUNT(*) FROM events e WHERE e.task_id = t.id AND e.kind = 'expired') \
             FROM tasks t JOIN lists l ON l.id = t.list_id \
             WHERE t.deleted_at IS NULL AND l.deleted_at IS NULL AND {visible} AND (t.waits_on IS NOT NULL \
             OR (t.status = 'in_progress' AND (t.updated_at < ? OR EXISTS (SELECT 1 FROM events e \
                 WHERE e.task_id = t.id AND e.kind = 'expired' LIMIT 1 OFFSET {skip}))) \
             OR (t.status = 'blocked' AND t.verification_result IS NOT NULL AND t.verification_result <> '')) \
             ORDER BY t.updated_at, t.id",
            aliased(TASK_COLS, "t"),
            visible = VISIBLE_TO
                .replace("visibility", "l.visibility")
                .replace("owner_agent_id", "l.owner_agent_id"),
            skip = LAPSES - 1,
        ),
        &[me, Value::Integer(stale_before)],
    )?;
    let width = TASK_WIDTH;
    for r in &rows.rows {
        let task = TaskRow::from_row(r);
        let list = r.get(width).and_then(Value::as_str).unwrap_or_default();
        let lapses = r.get(width + 1).and_then(Value::as_i64).unwrap_or(0);
        if let Some(e) = task_entry(&task, list, lapses, stale_before, now) {
            entries.push(e);
        }
    }
    entries.sort_by(|a, b| a.kind.cmp(&b.kind).then(a.since.cmp(&b.since)));
    let count = entries.len();
    entries.truncate(MAX_ENTRIES);
    Ok(Inbox {
        count,
        entries,
        stalled_after_minutes: minutes,
    })
}

/// The entry of a plan that awaits approval (or of the tasks added to
/// an approved one since).
fn plan_entry(tx: &dyn Tx, list: &ListRow) -> ToolResult<Entry> {
    let base = Entry {
        key: String::new(),
        kind: Kind::Approval,
        list_id: list.id.clone(),
        list: list.name.clone(),
        task_id: None,
        title: list.name.clone(),
        said: String::new(),
        agent: Some(list.created_by_agent_id.clone()),
        since: format_ms(list.approval_at.unwrap_or(list.created_at)),
        actions: vec!["approve".into(), "reject".into()],
    };
    if list.approval == Some(Approval::Pending) {
        let open = list.counts.total();
        return Ok(Entry {
            key: format!(
                "plan:{}:{}",
                list.id,
                list.approval_at.unwrap_or(list.created_at)
            ),
            said: format!("plan of {} awaits approval", plural(open, "task")),
            ..base
        });
    }
    let added = super::read::tasks(
        tx,
        &format!(
            "{} WHERE list_id = ? AND awaits_approval = 1 AND deleted_at IS NULL ORDER BY created_at DESC, id",
            select_tasks()
        ),
        &[Value::from(list.id.as_str())],
    )?;
    let newest = added.first().map(|t| t.created_at).unwrap_or_default();
    let said = match added.as_slice() {
        [one] => format!("added since approval: {}", quote(&one.title)),
        many => format!("{} added since approval", plural(many.len(), "task")),
    };
    Ok(Entry {
        key: format!("added:{}:{newest}", list.id),
        since: format_ms(newest),
        task_id: (added.len() == 1).then(|| added[0].id.clone()),
        said,
        actions: vec!["approve".into()],
        ..base
    })
}

/// The entry of a task, if it needs the person.
fn task_entry(
    task: &TaskRow,
    list: &str,
    lapses: i64,
    stale_before: i64,
    now: i64,
) -> Option<Entry> {
    let entry = |kind: Kind,
                 key: String,
                 said: String,
                 agent: Option<String>,
                 since: i64,
                 actions: &[&str]| Entry {
        key,
        kind,
        list_id: task.list_id.clone(),
        list: list.to_string(),
        task_id: Some(task.id.clone()),
        title: task.title.clone(),
        said,
        agent,
        since: format_ms(since),
        actions: actions.iter().map(|a| a.to_string()).collect(),
    };
    match task.waits_on {
        Some(WaitsOn::Answer) => {
            let ask = task.ask.clone().unwrap_or_default();
            return Some(entry(
                Kind::Question,
                format!(
                    "question:{}:{}:{:016x}",
                    task.id,
                    ask.at,
                    fnv(&ask.question)
                ),
                ask.question,
                Some(ask.by),
                task.updated_at,
                &["answer", "assign", "cancel"],
            ));
        }
        Some(WaitsOn::Review) => {
            let review = task.review.clone().unwrap_or_default();
            let mut said = task.outcome.clone().unwrap_or_default();
            if let Some(result) = task.verification_result.as_deref() {
                said.push_str(&format!(" (check: {result})"));
            }
            return Some(entry(
                Kind::Review,
                format!("review:{}:{}", task.id, review.submitted_at),
                said,
                Some(review.submitted_by),
                task.updated_at,
                &["accept", "return"],
            ));
        }
        None => {}
    }
    match task.status {
        Status::InProgress => {
            let holder = task.claimed_by_agent_id.clone();
            let quiet = task.updated_at < stale_before;
            let said = if lapses >= LAPSES {
                format!("its lease ran out {lapses} times")
            } else {
                format!(
                    "no note or lease renewal for {}",
                    fmt::duration((now - task.updated_at) / 1000)
                )
            };
            (quiet || lapses >= LAPSES).then(|| {
                entry(
                    Kind::Stalled,
                    format!("stalled:{}:{}:{lapses}", task.id, task.updated_at),
                    said,
                    holder,
                    task.updated_at,
                    &["release", "cancel"],
                )
            })
        }
        Status::Blocked => task.verification_result.clone().map(|result| {
            entry(
                Kind::FailedCheck,
                format!("check:{}:{}", task.id, task.updated_at),
                result,
                task.assigned_to_agent_id.clone(),
                task.updated_at,
                &["unblock", "edit", "cancel"],
            )
        }),
        _ => None,
    }
}

/// A short stable hash of `text` (FNV-1a): two questions asked on one
/// task in the same millisecond are still two entries.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The inbox's lines for a person, laid out for `width`: a heading with
/// the count, then one line per entry (kind, title, what it says, the
/// verbs that settle it), or a line saying nothing needs them.
pub fn lines(inbox: &Inbox, width: usize) -> Vec<Line> {
    let mut out = vec![heading(inbox)];
    for e in &inbox.entries {
        out.push(entry_line(e));
        out.extend(said_line(e));
    }
    if inbox.count > inbox.entries.len() {
        out.push(line(
            format!(
                "… {} more: tasklists inbox, /task-inbox",
                inbox.count - inbox.entries.len()
            ),
            Style::Muted,
        ));
    }
    super::layout::fit_all(out, width)
}

/// `Inbox: 3 need you`, or `Inbox: nothing needs you`.
pub fn heading(inbox: &Inbox) -> Line {
    if inbox.count == 0 {
        return vec![
            Span {
                text: "Inbox: ".into(),
                style: Style::Strong,
            },
            Span {
                text: "nothing needs you".into(),
                style: Style::Muted,
            },
        ];
    }
    vec![
        Span {
            text: "Inbox: ".into(),
            style: Style::Strong,
        },
        Span {
            text: need_you(inbox.count),
            style: Style::Warning,
        },
    ]
}

/// `1 needs you`, `3 need you`.
pub fn need_you(count: usize) -> String {
    if count == 1 {
        "1 needs you".into()
    } else {
        format!("{count} need you")
    }
}

/// One entry as a line: `● question  Cache choice · Release · @agent-1
/// → answer/assign/cancel task_…5K86DN`: what it is and how to settle it
/// (what it said is the line under it, [`said_line`]).
fn entry_line(e: &Entry) -> Line {
    let style = match e.kind {
        Kind::Approval | Kind::Question | Kind::Review => Style::Warning,
        Kind::Stalled | Kind::FailedCheck => Style::Error,
    };
    let mut spans = vec![
        Span {
            text: format!("● {:<12} ", e.kind.word()),
            style,
        },
        Span {
            text: fmt::truncate(&fmt::one_line(&e.title), 60),
            style: Style::Accent,
        },
        Span {
            text: format!(" · {}", fmt::truncate(&fmt::one_line(&e.list), 30)),
            style: Style::Muted,
        },
    ];
    if let Some(agent) = &e.agent {
        spans.push(Span {
            text: format!(" · @{}", fmt::truncate(&fmt::one_line(agent), 24)),
            style: Style::Muted,
        });
    }
    // The short id every screen shows (a unique tail names the task or
    // list to a verb, as the full id does).
    spans.push(Span {
        text: format!(
            "  → {} {}",
            e.actions.join("/"),
            fmt::short_id(e.task_id.as_deref().unwrap_or(&e.list_id))
        ),
        style: Style::Muted,
    });
    spans
}

/// What an entry says, on its own line under it (the question, the
/// outcome under review, why it is stalled, what the check showed).
fn said_line(e: &Entry) -> Option<Line> {
    (!e.said.is_empty()).then(|| {
        vec![Span {
            text: format!("    {}", fmt::truncate(&fmt::one_line(&e.said), 300)),
            style: Style::Text,
        }]
    })
}
