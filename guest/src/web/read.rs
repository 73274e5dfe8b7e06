//! What each page shows, read in one read-only transaction as the
//! context's agent sees it, through the readers the dashboard and the
//! views already use (the visible lists, a list's entry with its approval
//! and changes, access checks, the audit action).

use super::filter::Filter;
use super::find::Choices;
use crate::actions::audit::{AuditPage, GetEvents};
use crate::actions::{Action, Call, Done, Request, access, deps, invoke_fn};
use crate::bindings::CallContext;
use crate::clock::Clock;
use crate::error::{ToolError, ToolResult};
use crate::ids::{self, IdKind};
use crate::model::{ListRow, Status, TaskRow, VISIBLE_TO};
use crate::person::act::READ;
use crate::person::dashboard::board::{Entry, entries};
use crate::store::{Store, Value};
use crate::views::inbox::{self, Inbox};
use crate::views::read::{Viewer, marks};
use crate::views::visible;

/// Most tasks a board shows (as the dashboard reads).
pub(crate) const MAX_TASKS: usize = crate::person::dashboard::board::MAX_TASKS;

/// Events a task's page or a list's audit page shows at once.
pub(crate) const EVENTS: i64 = 50;

/// Characters of a long text a card reads: a card shows a line of it.
const CARD_TEXT: usize = 1000;

/// Characters of the notes' end a card reads, for the last note.
const NOTES_TAIL: usize = 2000;

/// The overview: what needs the person, then the visible lists,
/// awaiting approval first.
pub(crate) struct Overview {
    /// The person's inbox, as every surface reads it.
    pub inbox: Inbox,
    /// The lists.
    pub lists: Vec<Entry>,
    /// More lists are visible than were read.
    pub more: bool,
    /// When it was read.
    pub now: i64,
}

/// A task on a board: its row (long texts cut, the notes' end), its
/// dependencies and how many lines its notes have.
pub(crate) struct Card {
    /// The row.
    pub task: TaskRow,
    /// The tasks it waits for.
    pub deps: Vec<Dep>,
    /// Lines of notes (0: none).
    pub note_lines: i64,
}

/// A task another one waits for (or that waits for it).
#[derive(Debug, Clone)]
pub(crate) struct Dep {
    /// Its id.
    pub id: String,
    /// Its title (empty when not read).
    pub title: String,
    /// Its position.
    pub position: i64,
    /// Not done or canceled yet.
    pub open: bool,
}

/// A list's board.
pub(crate) struct Board {
    /// The list.
    pub entry: Entry,
    /// What the board is filtered by (empty: every task).
    pub filter: Filter,
    /// What its filters may pick from.
    pub choices: Choices,
    /// Its live tasks by position (those the filter keeps).
    pub cards: Vec<Card>,
    /// More tasks than were read.
    pub more: bool,
    /// When it was read.
    pub now: i64,
}

/// The tasks a search found across lists.
pub(crate) struct Found {
    /// Each list with its matching tasks by position.
    pub groups: Vec<(ListRow, Vec<Card>)>,
    /// More tasks matched than were read.
    pub more: bool,
    /// When it was read.
    pub now: i64,
}

/// A task's details.
pub(crate) struct Detail {
    /// Its list.
    pub entry: Entry,
    /// The task, whole.
    pub task: TaskRow,
    /// The tasks it waits for.
    pub deps: Vec<Dep>,
    /// The tasks that wait for it.
    pub dependents: Vec<Dep>,
    /// Its newest events.
    pub events: AuditPage,
    /// When it was read.
    pub now: i64,
}

/// A list's audit timeline.
pub(crate) struct Audit {
    /// The list.
    pub entry: Entry,
    /// The page of events.
    pub events: AuditPage,
}

/// Everything a read needs.
pub(crate) struct Source<'a> {
    /// The host's context.
    pub ctx: &'a CallContext,
    /// The store.
    pub store: &'a dyn Store,
    /// The clock.
    pub clock: &'a dyn Clock,
}

impl Source<'_> {
    /// Runs `read` in one read-only transaction as the context's agent.
    fn read<R>(&self, read: impl FnOnce(&mut Call) -> ToolResult<R>) -> ToolResult<R> {
        self.read_as("", &READ, read)
    }

    fn read_as<R>(
        &self,
        params: &str,
        spec: &'static crate::contract::ActionSpec,
        read: impl FnOnce(&mut Call) -> ToolResult<R>,
    ) -> ToolResult<R> {
        invoke_fn(
            Request::new(params, self.ctx, self.store, self.clock),
            spec,
            |call| {
                Ok(Done {
                    summary: String::new(),
                    result: read(call)?,
                })
            },
        )
        .map(|d| d.result)
    }

    /// The overview, its inbox read in the same transaction (the entries
    /// of lists the context's agent may see, and no others).
    pub(crate) fn overview(&self) -> ToolResult<Overview> {
        self.read(|call| {
            let viewer = Viewer {
                agent: call.viewer.clone(),
                ctx: call.ctx,
                now: call.now(),
            };
            // What every person's surface shows, in the same order.
            let visible = visible::all_lists(call.tx, &viewer)?;
            let lists = entries(call, visible.lists)?;
            let inbox = inbox::collect(call.tx, &viewer)?;
            Ok(Overview {
                inbox,
                lists,
                more: visible.more,
                now: viewer.now,
            })
        })
    }

    /// The tasks `filter` keeps across the lists the context's agent may
    /// see (never another agent's private list), grouped by list, the
    /// most recently updated first.
    pub(crate) fn found(&self, filter: &Filter) -> ToolResult<Found> {
        self.read(|call| {
            let me = Value::from(call.viewer.clone());
            // ?1 the line break (card_cols), ?2 the agent; the filter's next.
            let mut args = vec![Value::from("\n"), me.clone()];
            let conditions = filter.sql(&mut args, call.now());
            args.push(Value::Integer(MAX_TASKS as i64 + 1));
            let limit = args.len();
            let visible = VISIBLE_TO.replace('?', "?2");
            let rows = call.rows(
                &format!(
                    "SELECT {} FROM tasks WHERE deleted_at IS NULL AND list_id IN \
                     (SELECT id FROM lists WHERE deleted_at IS NULL AND {visible}){conditions} \
                     ORDER BY list_id, position, id LIMIT ?{limit}",
                    card_cols()
                ),
                &args,
            )?;
            let (cards, more) = as_cards(&rows);
            let mut ids: Vec<&str> = cards.iter().map(|c| c.task.list_id.as_str()).collect();
            ids.dedup();
            let mut lists = if ids.is_empty() {
                Vec::new()
            } else {
                let args: Vec<Value> = ids.iter().map(|id| Value::from(*id)).collect();
                crate::views::read::lists(
                    call.tx,
                    &format!(
                        "{} WHERE id IN ({}) AND deleted_at IS NULL",
                        crate::views::read::select_lists(),
                        marks(ids.len())
                    ),
                    &args,
                )?
            };
            // The SQL's rule again, in the model's words: a list this
            // agent may not see never shows, whatever its tasks match.
            lists.retain(|l| l.visible_to(call.viewer.as_deref()));
            lists.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then(a.id.cmp(&b.id)));
            let mut groups: Vec<(ListRow, Vec<Card>)> =
                lists.into_iter().map(|l| (l, Vec::new())).collect();
            for card in cards {
                if let Some((_, group)) = groups.iter_mut().find(|(l, _)| l.id == card.task.list_id)
                {
                    group.push(card);
                }
            }
            Ok(Found {
                groups,
                more,
                now: call.now(),
            })
        })
    }

    /// The board of `list_id`, only the tasks `filter` keeps.
    pub(crate) fn board(&self, list_id: &str, filter: &Filter) -> ToolResult<Board> {
        checked(IdKind::List, list_id)?;
        self.read(|call| {
            let list = access::list(call, list_id, false)?;
            let entry = entries(call, vec![list])?.remove(0);
            let (mut cards, more) = cards(call, &entry.list.id, filter)?;
            let choices = choices(call, &entry.list.id)?;
            let ids: Vec<&str> = cards.iter().map(|c| c.task.id.as_str()).collect();
            let graph = deps::of_tasks(call, &ids)?;
            let mut known: Vec<Dep> = cards.iter().map(|c| dep_of(&c.task)).collect();
            // A filter leaves out tasks the shown ones wait for: they are
            // still named by their titles.
            let mut missing: Vec<String> = cards
                .iter()
                .flat_map(|c| deps::get(&graph, &c.task.id).iter().cloned())
                .filter(|id| !known.iter().any(|d| d.id == *id))
                .collect();
            missing.sort();
            missing.dedup();
            known.extend(titled(call, &missing)?);
            for card in &mut cards {
                card.deps = deps::get(&graph, &card.task.id)
                    .iter()
                    .map(|id| {
                        known.iter().find(|d| d.id == *id).cloned().unwrap_or(Dep {
                            id: id.clone(),
                            title: String::new(),
                            position: 0,
                            open: true,
                        })
                    })
                    .collect();
            }
            Ok(Board {
                entry,
                filter: filter.clone(),
                choices,
                cards,
                more,
                now: call.now(),
            })
        })
    }

    /// The details of `task_id`, with its newest events.
    pub(crate) fn task(&self, task_id: &str) -> ToolResult<Detail> {
        checked(IdKind::Task, task_id)?;
        let params = serde_json::json!({"task_id": task_id, "limit": EVENTS}).to_string();
        self.read_as(&params, GetEvents::SPEC, |call| {
            let loaded = access::task(call, task_id)?;
            let entry = entries(call, vec![loaded.list])?.remove(0);
            let deps = titled(call, &loaded.deps)?;
            let dependents = dependents(call, task_id)?;
            let events = GetEvents::run(call)?.result;
            Ok(Detail {
                entry,
                task: loaded.task,
                deps,
                dependents,
                events,
                now: call.now(),
            })
        })
    }

    /// The audit timeline of `list_id`, from `cursor` (a `next_cursor`).
    pub(crate) fn audit(&self, list_id: &str, cursor: Option<&str>) -> ToolResult<Audit> {
        checked(IdKind::List, list_id)?;
        let mut params = serde_json::json!({"list_id": list_id, "limit": EVENTS});
        if let Some(c) = cursor {
            params["cursor"] = c.into();
        }
        self.read_as(&params.to_string(), GetEvents::SPEC, |call| {
            let list = access::list(call, list_id, false)?;
            let entry = entries(call, vec![list])?.remove(0);
            let events = GetEvents::run(call)?.result;
            Ok(Audit { entry, events })
        })
    }
}

/// `invalid_params` when `id` is no well-formed id of `kind`.
fn checked(kind: IdKind, id: &str) -> ToolResult<()> {
    ids::check(kind, id).map_err(|e| {
        ToolError::invalid(e, format!("the address names a {} by its id", kind.noun()))
    })
}

/// The columns of a card, in [`crate::model::TASK_COLS`] order: the long
/// texts cut to what a card shows (the notes' end, for the last note),
/// the description left out; then the number of line breaks in the notes.
fn card_cols() -> String {
    format!(
        "id, list_id, position, SUBSTR(title, 1, {CARD_TEXT}), CAST(NULL AS TEXT), \
         CASE WHEN LENGTH(notes) > {NOTES_TAIL} THEN SUBSTR(notes, LENGTH(notes) - {tail}) \
         ELSE notes END, status, assigned_to_agent_id, claimed_by_agent_id, CAST(NULL AS TEXT), \
         claim_expires_at, lease_ms, SUBSTR(outcome, 1, {CARD_TEXT}), created_at, updated_at, \
         started_at, completed_at, deleted_at, priority, SUBSTR(verification, 1, {CARD_TEXT}), \
         SUBSTR(verification_result, 1, {CARD_TEXT}), awaits_approval, CAST(NULL AS TEXT), refs, labels, \
         waits_on, ask, review, requires_review, resume_for, \
         LENGTH(notes) - LENGTH(REPLACE(notes, ?, ''))",
        tail = NOTES_TAIL - 1
    )
}

/// The live tasks of a list by position that `filter` keeps (a label
/// as `task_lists get`'s `label` finds it), as cards (their dependencies
/// filled in by the caller), and whether there are more.
fn cards(call: &Call, list_id: &str, filter: &Filter) -> ToolResult<(Vec<Card>, bool)> {
    // ?1 the line break (card_cols), ?2 the list; the filter's next.
    let mut args = crate::params!["\n", list_id].to_vec();
    let conditions = filter.sql(&mut args, call.now());
    args.push(Value::Integer(MAX_TASKS as i64 + 1));
    let limit = args.len();
    let rows = call.rows(
        &format!(
            "SELECT {} FROM tasks WHERE list_id = ?2 AND deleted_at IS NULL{conditions} \
             ORDER BY position, id LIMIT ?{limit}",
            card_cols()
        ),
        &args,
    )?;
    Ok(as_cards(&rows))
}

/// Rows of [`card_cols`] as cards, at most [`MAX_TASKS`], and whether
/// there were more.
fn as_cards(rows: &[Vec<Value>]) -> (Vec<Card>, bool) {
    let width = crate::model::TASK_WIDTH;
    let mut cards: Vec<Card> = rows
        .iter()
        .map(|r| {
            let task = TaskRow::from_row(r);
            let breaks = r.get(width).and_then(Value::as_i64).unwrap_or(0);
            let note_lines = match task.notes.as_deref().map(str::trim) {
                None | Some("") => 0,
                Some(_) => breaks + 1,
            };
            Card {
                task,
                deps: Vec::new(),
                note_lines,
            }
        })
        .collect();
    let more = cards.len() > MAX_TASKS;
    cards.truncate(MAX_TASKS);
    (cards, more)
}

/// Most task rows read for a board's choices (its agents and labels).
const CHOICE_ROWS: i64 = 2_000;

/// Most agents or labels a board's filters offer.
const MAX_CHOICES: usize = 100;

/// The agents a list's live tasks are assigned to or held by, and the
/// labels they carry: what its filters pick from.
fn choices(call: &Call, list_id: &str) -> ToolResult<Choices> {
    let rows = call.rows(
        "SELECT assigned_to_agent_id, claimed_by_agent_id, labels FROM tasks \
         WHERE list_id = ? AND deleted_at IS NULL ORDER BY position, id LIMIT ?",
        crate::params![list_id, CHOICE_ROWS],
    )?;
    let mut agents = std::collections::BTreeSet::new();
    let mut labels = std::collections::BTreeSet::new();
    for r in &rows {
        for i in 0..2 {
            if let Some(a) = r.get(i).and_then(Value::as_str).filter(|a| !a.is_empty()) {
                agents.insert(a.to_string());
            }
        }
        if let Some(ls) = r.get(2).and_then(Value::as_str) {
            labels.extend(ls.lines().filter(|l| !l.is_empty()).map(str::to_string));
        }
    }
    Ok(Choices {
        agents: agents.into_iter().take(MAX_CHOICES).collect(),
        labels: labels.into_iter().take(MAX_CHOICES).collect(),
    })
}

/// `task` as a dependency.
fn dep_of(task: &TaskRow) -> Dep {
    Dep {
        id: task.id.clone(),
        title: task.title.clone(),
        position: task.position,
        open: !task.is_closed(),
    }
}

/// The live tasks `ids` with their titles, in position order.
fn titled(call: &Call, ids: &[String]) -> ToolResult<Vec<Dep>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let args: Vec<Value> = ids.iter().map(|id| Value::from(id.as_str())).collect();
    let rows = call.rows(
        &format!(
            "SELECT id, SUBSTR(title, 1, {CARD_TEXT}), position, status FROM tasks \
             WHERE id IN ({}) AND deleted_at IS NULL ORDER BY position, id",
            marks(ids.len())
        ),
        &args,
    )?;
    Ok(rows.iter().map(|r| dep_row(r)).collect())
}

/// The live tasks that wait for `task_id`, in position order.
fn dependents(call: &Call, task_id: &str) -> ToolResult<Vec<Dep>> {
    let rows = call.rows(
        &format!(
            "SELECT t.id, SUBSTR(t.title, 1, {CARD_TEXT}), t.position, t.status FROM task_deps d \
             JOIN tasks t ON t.id = d.task_id WHERE d.depends_on_id = ? AND t.deleted_at IS NULL \
             ORDER BY t.position, t.id LIMIT ?"
        ),
        crate::params![task_id, MAX_TASKS as i64],
    )?;
    Ok(rows.iter().map(|r| dep_row(r)).collect())
}

/// A row `id, title, position, status` as a dependency.
fn dep_row(r: &[Value]) -> Dep {
    let text = |i: usize| {
        r.get(i)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    Dep {
        id: text(0),
        title: text(1),
        position: r.get(2).and_then(Value::as_i64).unwrap_or(0),
        open: !Status::parse(&text(3)).is_some_and(Status::is_closed),
    }
}
