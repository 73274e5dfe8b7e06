//! What the dashboard shows, read in one transaction on every input: the
//! visible lists (awaiting approval first), the opened list with its
//! tasks, or one task's details; as the context's agent sees them.

use crate::actions::approval;
use crate::actions::{Call, Done, Request, access, invoke_fn};
use crate::bindings::{CallContext, DashboardView};
use crate::clock::Clock;
use crate::error::{ErrorCode, ToolResult};
use crate::model::{ListRow, TaskForm, TaskRow};
use crate::results::{ChangeCounts, TaskJson};
use crate::store::Store;
use crate::views::read::Viewer;
use crate::views::visible;

use super::super::act::READ;
use super::state::State;

/// Most tasks of the opened list read: far more than a screen shows.
pub(crate) const MAX_TASKS: usize = 500;

/// Longest title a row reads, in characters: wider than any terminal.
const ROW_TITLE_CHARS: usize = 512;

/// The columns of a task's row, in [`crate::model::TASK_COLS`] order: what
/// a row shows and a key needs (title cut to [`ROW_TITLE_CHARS`], whether
/// there is a verification), and none of the long texts. Read on every
/// key and refresh for up to [`MAX_TASKS`] tasks, they keep the board
/// small; the opened task is read whole on its own.
fn row_cols() -> String {
    format!(
        "id, list_id, position, SUBSTR(title, 1, {ROW_TITLE_CHARS}), CAST(NULL AS TEXT), \
         CAST(NULL AS TEXT), status, assigned_to_agent_id, claimed_by_agent_id, CAST(NULL AS TEXT), \
         claim_expires_at, lease_ms, CAST(NULL AS TEXT), created_at, updated_at, started_at, \
         completed_at, deleted_at, priority, CASE WHEN verification IS NULL THEN NULL ELSE '' END, \
         CAST(NULL AS TEXT), awaits_approval, CAST(NULL AS TEXT), CAST(NULL AS TEXT), labels, \
         waits_on, CAST(NULL AS TEXT), CAST(NULL AS TEXT), requires_review, resume_for"
    )
}

/// A list as the dashboard shows it.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The list.
    pub list: ListRow,
    /// Its tasks awaiting approval (added after the list was approved).
    pub awaiting: i64,
    /// How many tasks changed since approval (approved lists; None when
    /// none did).
    pub changes: Option<ChangeCounts>,
}

impl Entry {
    /// Whether a person's decision is awaited ([`visible::awaits_approval`]).
    pub(crate) fn awaits_approval(&self) -> bool {
        visible::awaits_approval(&self.list, self.awaiting)
    }
}

/// The opened list.
#[derive(Debug, Clone)]
pub(crate) struct Opened {
    /// The list.
    pub entry: Entry,
    /// Its live tasks by position (finished ones left out when hidden).
    pub tasks: Vec<TaskRow>,
    /// Finished tasks left out.
    pub hidden: usize,
    /// More tasks than were read.
    pub more: bool,
}

/// What one screen shows.
#[derive(Debug, Clone, Default)]
pub(crate) struct Board {
    /// The visible lists (empty when one list is opened by the view).
    pub lists: Vec<Entry>,
    /// The opened list.
    pub opened: Option<Opened>,
    /// The task whose details are shown, with its list's longest
    /// position (to align the detail's number).
    pub detail: Option<TaskJson>,
    /// The detail's task row.
    pub detail_row: Option<TaskRow>,
    /// What was asked for but could not be shown (gone, private): the
    /// state steps back and says it.
    pub gone: Option<String>,
    /// When it was read (leases are shown from it).
    pub now: i64,
    /// What needs the person (read with the lists, not with one list).
    pub inbox: Option<crate::views::inbox::Inbox>,
}

/// Reads the board for `state` and `view`.
pub(crate) fn load(
    state: &State,
    view: &DashboardView,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Board> {
    invoke_fn(Request::new("", ctx, store, clock), &READ, |call| {
        Ok(Done {
            summary: String::new(),
            result: read(call, state, view)?,
        })
    })
    .map(|d| d.result)
}

fn read(call: &mut Call, state: &State, view: &DashboardView) -> ToolResult<Board> {
    let mut board = Board {
        now: call.now(),
        ..Board::default()
    };
    let viewer = Viewer {
        agent: call.viewer.clone(),
        ctx: call.ctx,
        now: call.now(),
    };
    if view.list_id.is_none() {
        // What every person's surface shows, in the same order.
        let lists = visible::all_lists(call.tx, &viewer)?.lists;
        board.lists = entries(call, lists)?;
    }
    board.inbox = Some(crate::views::inbox::collect(call.tx, &viewer)?);
    let Some(list_id) = state.list.as_deref() else {
        return Ok(board);
    };
    let list = match access::list(call, list_id, false) {
        Ok(list) => list,
        Err(e) if matches!(e.code, ErrorCode::NotFound | ErrorCode::Forbidden) => {
            board.gone = Some(e.message);
            return Ok(board);
        }
        Err(e) => return Err(e),
    };
    let entry = entries(call, vec![list])?.remove(0);
    let (tasks, hidden, more) = tasks(call, &entry.list.id, state.hide_finished)?;
    board.opened = Some(Opened {
        entry,
        tasks,
        hidden,
        more,
    });
    if let Some(task_id) = state.detail.as_deref() {
        match access::task(call, task_id) {
            Ok(loaded) => {
                board.detail = Some(TaskJson::new(&loaded.task, &loaded.deps, TaskForm::Whole));
                board.detail_row = Some(loaded.task);
            }
            Err(e) if e.code == ErrorCode::NotFound => board.gone = Some(e.message),
            Err(e) => return Err(e),
        }
    }
    Ok(board)
}

/// `lists` with their tasks awaiting approval and, approved, what changed
/// since.
pub(crate) fn entries(call: &Call, lists: Vec<ListRow>) -> ToolResult<Vec<Entry>> {
    let needs: Vec<&str> = lists
        .iter()
        .filter(|l| l.approval.is_some())
        .map(|l| l.id.as_str())
        .collect();
    let awaiting = visible::awaiting_approval(call.tx, &needs)?;
    lists
        .into_iter()
        .map(|list| {
            // Counted in one query: the board shows only the counts.
            let changes = approval::count_changes(call, &list)?;
            let awaiting = awaiting
                .iter()
                .find(|(id, _)| *id == list.id)
                .map_or(0, |(_, n)| *n);
            Ok(Entry {
                list,
                awaiting,
                changes,
            })
        })
        .collect()
}

/// The live tasks of a list by position (their rows' columns only), the finished ones counted and
/// left out when hidden.
fn tasks(
    call: &Call,
    list_id: &str,
    hide_finished: bool,
) -> ToolResult<(Vec<TaskRow>, usize, bool)> {
    let rows = call.rows(
        &format!(
            "SELECT {} FROM tasks WHERE list_id = ? AND deleted_at IS NULL \
             ORDER BY position, id LIMIT ?",
            row_cols()
        ),
        crate::params![list_id, MAX_TASKS as i64 + 1],
    )?;
    let mut tasks: Vec<TaskRow> = rows.iter().map(|r| TaskRow::from_row(r)).collect();
    let more = tasks.len() > MAX_TASKS;
    tasks.truncate(MAX_TASKS);
    let all = tasks.len();
    if hide_finished {
        tasks.retain(|t| !t.is_closed());
    }
    let hidden = all - tasks.len();
    Ok((tasks, hidden, more))
}
