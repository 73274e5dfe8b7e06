//! Which list or task a person means: a full id, or a unique prefix of one
//! (`task_01JD…`, or without its `task_`/`list_` kind), or a unique tail
//! (its last characters, as the views show ids: `task_…3X5Z7B`), among
//! the lists visible in the context and their tasks. Ambiguous or unknown
//! targets are refused naming a few candidates.

use super::verbs::Aim;
use super::words;
use crate::actions::{Call, access};
use crate::bindings::PersonSurface;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::ids::IdKind;
use crate::model::{ListRow, TASK_COLS, TaskRow};
use crate::render::fmt;
use crate::store::Value;
use crate::text::quote;
use crate::views::read::{Viewer, marks};
use crate::views::visible;

/// Most candidates an ambiguity names.
const SHOWN: usize = 5;

/// A resolved target: a list, or a task with its list.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// A list.
    List(ListRow),
    /// A task and its list.
    Task(Box<TaskRow>, ListRow),
}

impl Target {
    /// The list acted on (the task's own for a task).
    pub(crate) fn list(&self) -> &ListRow {
        match self {
            Target::List(l) | Target::Task(_, l) => l,
        }
    }
}

/// The list or task `text` names, of the kinds `aim` admits, as the
/// call's viewer sees them.
pub(crate) fn target(
    call: &mut Call,
    text: &str,
    aim: Aim,
    surface: PersonSurface,
) -> ToolResult<Target> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ToolError::invalid(
            "no target: name a list or a task",
            "give its id, or the first or last characters of it",
        ));
    }
    let wants_list = aim != Aim::Task;
    let wants_task = aim != Aim::List;
    // A whole id is looked up as the tools look it up (the same errors).
    match IdKind::of(text) {
        Some(IdKind::List) if crate::ids::check(IdKind::List, text).is_ok() && wants_list => {
            return Ok(Target::List(access::list(call, text, false)?));
        }
        Some(IdKind::Task) if crate::ids::check(IdKind::Task, text).is_ok() && wants_task => {
            let loaded = access::task(call, text)?;
            return Ok(Target::Task(Box::new(loaded.task), loaded.list));
        }
        Some(kind @ (IdKind::List | IdKind::Task)) if crate::ids::check(kind, text).is_ok() => {
            // A whole id of the other kind: say so rather than "not found".
            let (wanted, given) = if kind == IdKind::List {
                ("a task", "a list")
            } else {
                ("a list", "a task")
            };
            return Err(ToolError::invalid(
                format!("{text} is {given}; this action acts on {wanted}"),
                "",
            ));
        }
        _ => {}
    }
    let (kind, needle) = split(text);
    let lists = visible_lists(call)?;
    let mut found: Vec<Target> = Vec::new();
    if wants_list && kind != Some(IdKind::Task) {
        found.extend(
            lists
                .iter()
                .filter(|l| matches(&l.id, IdKind::List, &needle))
                .map(|l| Target::List(l.clone())),
        );
    }
    if wants_task && kind != Some(IdKind::List) {
        for task in matching_tasks(call, &lists, &needle)? {
            if let Some(list) = lists.iter().find(|l| l.id == task.list_id) {
                found.push(Target::Task(Box::new(task), list.clone()));
            }
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(unknown(text, aim, surface)),
        _ => Err(ambiguous(text, &found)),
    }
}

/// The kind the text names (by its prefix) and the rest, uppercased as
/// ids are (a ULID is uppercase).
fn split(text: &str) -> (Option<IdKind>, String) {
    for kind in [IdKind::List, IdKind::Task] {
        if let Some(rest) = text.strip_prefix(kind.prefix()) {
            return (Some(kind), rest.to_uppercase());
        }
    }
    (None, text.to_uppercase())
}

/// Whether `id` (of `kind`) starts with `needle` after its kind, or ends
/// with it.
fn matches(id: &str, kind: IdKind, needle: &str) -> bool {
    let ulid = id.strip_prefix(kind.prefix()).unwrap_or(id);
    !needle.is_empty() && (ulid.starts_with(needle) || id.ends_with(needle))
}

/// The lists a person sees (every person's surface shows these).
fn visible_lists(call: &Call) -> ToolResult<Vec<ListRow>> {
    let viewer = Viewer {
        agent: call.viewer.clone(),
        ctx: call.ctx,
        now: call.now(),
    };
    Ok(visible::all_lists(call.tx, &viewer)?.lists)
}

/// The live tasks of `lists` whose id starts (after `task_`) or ends with
/// `needle`; a few more than an ambiguity names.
fn matching_tasks(call: &Call, lists: &[ListRow], needle: &str) -> ToolResult<Vec<TaskRow>> {
    // Ids are letters and digits: anything else matches nothing (and never
    // reaches SQL as a pattern).
    if lists.is_empty() || needle.is_empty() || !needle.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Ok(Vec::new());
    }
    let n = needle.chars().count() as i64;
    let prefix_at = IdKind::Task.prefix().len() as i64 + 1;
    let mut args: Vec<Value> = vec![
        Value::Integer(prefix_at),
        Value::Integer(n),
        Value::from(needle),
        Value::Integer(n),
        Value::from(needle),
    ];
    args.extend(lists.iter().map(|l| Value::from(l.id.as_str())));
    args.push(Value::Integer(SHOWN as i64 + 1));
    let sql = format!(
        "SELECT {TASK_COLS} FROM tasks WHERE deleted_at IS NULL \
         AND (substr(id, ?, ?) = ? OR substr(id, length(id) - ? + 1) = ?) \
         AND list_id IN ({}) ORDER BY list_id, position, id LIMIT ?",
        marks(lists.len())
    );
    Ok(call
        .rows(&sql, &args)?
        .iter()
        .map(|r| TaskRow::from_row(r))
        .collect())
}

/// `not_found` for a target that names nothing visible.
fn unknown(text: &str, aim: Aim, surface: PersonSurface) -> ToolError {
    let what = match aim {
        Aim::List => "list",
        Aim::Task => "task",
        Aim::Either => "list or task",
    };
    ToolError::new(
        ErrorCode::NotFound,
        format!(
            "no {what} here has an id that starts or ends with {}",
            quote(text)
        ),
        words::where_ids_are(surface),
    )
}

/// `invalid_params` for a target several ids match, naming a few.
fn ambiguous(text: &str, found: &[Target]) -> ToolError {
    let named: Vec<String> = found
        .iter()
        .take(SHOWN)
        .map(|t| match t {
            Target::List(l) => format!("{} {}", l.id, quote(&fmt::truncate(&l.name, 40))),
            Target::Task(t, _) => format!("{} {}", t.id, quote(&fmt::truncate(&t.title, 40))),
        })
        .collect();
    let more = if found.len() > SHOWN { ", …" } else { "" };
    ToolError::invalid(
        format!(
            "{} matches more than one id: {}{more}",
            quote(text),
            named.join(", ")
        ),
        "give more characters of the id",
    )
}
