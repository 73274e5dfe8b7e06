//! What the widget shows, read in one transaction: the visible lists (or
//! the one asked for), their counters, the viewer's own tasks and, in full
//! mode, enough of the other active tasks to fill the widget.

use super::frame::MAX_CONTENT;
use super::read::{self, Viewer};
use super::visible;
use crate::actions::access;
use crate::bindings::{WidgetMode, WidgetView};
use crate::clock::Clock;
use crate::context::CallContext;
use crate::contract::check_id;
use crate::error::ToolResult;
use crate::ids::IdKind;
use crate::model::{Counts, ListRow, Status, TaskRow};
use crate::store::Store;

/// One list of the widget.
#[derive(Debug)]
pub(crate) struct Group {
    /// The list.
    pub list: ListRow,
    /// Its counters.
    pub counts: Counts,
    /// The viewer's own active tasks in it, by position.
    pub own: Vec<TaskRow>,
    /// Other active tasks (full mode), running first, then todo, then
    /// paused, by position: as many as the widget could show.
    pub others: Vec<TaskRow>,
    /// How many other active tasks the list holds in all.
    pub others_total: usize,
}

/// Everything the widget shows.
#[derive(Debug)]
pub(crate) struct Board {
    /// The viewer's identity, named in the frame's title.
    pub agent: Option<String>,
    /// The clock reading the board was read at.
    pub now: i64,
    /// The lists: those holding the viewer's own tasks first.
    pub groups: Vec<Group>,
    /// More lists are visible than were read.
    pub more_lists: bool,
    /// How many things need a person among the visible lists (the
    /// inbox's count).
    pub inbox: usize,
}

/// Active tasks: what the counters call todo, run and blocked.
fn active(c: &Counts) -> usize {
    usize::try_from(c.todo + c.in_progress + c.blocked).unwrap_or(0)
}

/// Reads the board of `view` in one transaction; None when no list is
/// visible. A `list_id` is checked in it as `task_lists get` checks its
/// own (the same id check and access functions, without a bypass), so the
/// widget refuses
/// exactly what the tool refuses, in its words (not a list id, unknown,
/// deleted, another's private list).
pub(crate) fn load(
    ctx: &CallContext,
    view: &WidgetView,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Option<Board>> {
    let viewer = Viewer::new(ctx, clock)?;
    if let Some(id) = &view.list_id {
        check_id(IdKind::List, "list_id", id)?;
    }
    read::read(store, |tx| {
        let (lists, more_lists) = match &view.list_id {
            Some(id) => {
                let list = access::list_without_bypass(tx, id, viewer.agent.as_deref())?;
                (vec![list], false)
            }
            None if view.every_list => {
                let v = visible::all_lists(tx, &viewer)?;
                (v.lists, v.more)
            }
            None => {
                let v = visible::lists(tx, &viewer)?;
                (v.lists, v.more)
            }
        };
        if lists.is_empty() {
            return Ok(None);
        }
        let ids: Vec<&str> = lists.iter().map(|l| l.id.as_str()).collect();
        let counts: Vec<_> = lists.iter().map(|l| l.counts).collect();
        let mut own = visible::own_tasks(tx, &viewer, &ids)?;
        let mut groups: Vec<Group> = lists
            .into_iter()
            .zip(counts)
            .map(|(list, counts)| {
                let mine: Vec<TaskRow> = own.extract_if(.., |t| t.list_id == list.id).collect();
                Group {
                    others_total: active(&counts).saturating_sub(mine.len()),
                    list,
                    counts,
                    own: mine,
                    others: Vec::new(),
                }
            })
            .collect();
        // Lists holding the viewer's own tasks first; otherwise most
        // recently updated first, as read (the sort is stable). A person's
        // view keeps the order every person's surface shows.
        if !view.every_list {
            groups.sort_by_key(|g| g.own.is_empty());
        }
        if view.mode == WidgetMode::Full {
            // Only lists whose header can be shown need their tasks, and
            // never more than fill the widget.
            for g in groups.iter_mut().take(MAX_CONTENT) {
                if g.others_total == 0 {
                    continue;
                }
                let rows = visible::active_tasks(tx, &g.list.id, MAX_CONTENT + g.own.len())?;
                let mut others: Vec<TaskRow> =
                    rows.into_iter().filter(|t| !viewer.owns(t)).collect();
                others.sort_by_key(|t| match t.status {
                    Status::InProgress => 0,
                    Status::Todo => 1,
                    _ => 2,
                });
                g.others = others;
            }
        }
        Ok(Some(Board {
            agent: viewer.agent.clone(),
            now: viewer.now,
            groups,
            more_lists,
            inbox: super::inbox::collect(tx, &viewer)?.count,
        }))
    })
}
