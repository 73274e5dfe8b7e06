//! What an edit form suggests as the person types: the list's tasks (a
//! dependency picked by its title or id) and the list's agents (an
//! assignee), read in one read-only transaction as the context's agent.

use super::html::Html;
use super::read::Source;
use crate::actions::{Done, Request, access, invoke_fn};
use crate::error::ToolResult;
use crate::person::act::READ;
use crate::store::Value;

/// Most tasks suggested: as many as a board shows.
const MAX_TASKS: i64 = super::read::MAX_TASKS as i64;

/// Most agents suggested.
const MAX_AGENTS: i64 = 100;

/// Longest title a suggestion shows, in characters.
const TITLE_CHARS: i64 = 120;

/// A task a dependency may name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pick {
    /// Its id (what the field takes).
    pub id: String,
    /// Its title, cut to [`TITLE_CHARS`].
    pub title: String,
    /// Its position in the list.
    pub position: i64,
}

/// A list's suggestions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Suggestions {
    /// Its live tasks by position.
    pub tasks: Vec<Pick>,
    /// The agents that hold, were assigned or wrote in it, by name.
    pub agents: Vec<String>,
}

/// The suggestions for `list_id`'s forms.
pub(crate) fn read(src: &Source, list_id: &str) -> ToolResult<Suggestions> {
    let request = Request::new("", src.ctx, src.store, src.clock);
    invoke_fn(request, &READ, |call| {
        let list = access::list(call, list_id, false)?;
        let rows = call.rows(
            &format!(
                "SELECT id, SUBSTR(title, 1, {TITLE_CHARS}), position FROM tasks \
                 WHERE list_id = ? AND deleted_at IS NULL ORDER BY position, id LIMIT ?"
            ),
            crate::params![list.id.as_str(), MAX_TASKS],
        )?;
        let tasks = rows
            .iter()
            .map(|r| Pick {
                id: text(r, 0),
                title: text(r, 1),
                position: r.get(2).and_then(Value::as_i64).unwrap_or(0),
            })
            .collect();
        // A person's own events are marked `"by":"person"`: a person is no
        // agent to reserve a task for.
        let rows = call.rows(
            "SELECT a FROM (\
               SELECT assigned_to_agent_id AS a FROM tasks WHERE list_id = ? \
               UNION SELECT claimed_by_agent_id AS a FROM tasks WHERE list_id = ? \
               UNION SELECT agent_id AS a FROM events WHERE list_id = ? \
                 AND data NOT LIKE '%\"by\":\"person\"%'\
             ) w WHERE a IS NOT NULL AND a <> '' ORDER BY a LIMIT ?",
            crate::params![
                list.id.as_str(),
                list.id.as_str(),
                list.id.as_str(),
                MAX_AGENTS
            ],
        )?;
        let agents = rows.iter().map(|r| text(r, 0)).collect();
        Ok(Done {
            summary: String::new(),
            result: Suggestions { tasks, agents },
        })
    })
    .map(|d| d.result)
}

fn text(row: &[Value], i: usize) -> String {
    row.get(i)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The id of the datalist of `list_id`'s tasks.
pub(crate) fn tasks_id(list_id: &str) -> String {
    format!("tasks-of-{list_id}")
}

/// The id of the datalist of `list_id`'s agents.
pub(crate) fn agents_id(list_id: &str) -> String {
    format!("agents-of-{list_id}")
}

/// The two datalists of `list_id`: its tasks but `except` (each its id,
/// labelled `#position title`), and its agents.
pub(crate) fn write(h: &mut Html, list_id: &str, s: &Suggestions, except: Option<&str>) {
    h.open("datalist", &[("id", &tasks_id(list_id))]);
    for t in s.tasks.iter().filter(|t| Some(t.id.as_str()) != except) {
        let label = format!("#{} {}", t.position, t.title);
        h.void("option", &[("value", &t.id), ("label", &label)]);
    }
    h.close("datalist");
    h.open("datalist", &[("id", &agents_id(list_id))]);
    for a in &s.agents {
        h.void("option", &[("value", a)]);
    }
    h.close("datalist");
}

/// `?part=suggest` of a board: its datalists, for the "New task" fold
/// that opens (nothing for a person who may not act).
pub(crate) fn part(src: &Source, list_id: &str, can_act: bool) -> ToolResult<Html> {
    let mut h = Html::new();
    if can_act {
        let s = read(src, list_id)?;
        write(&mut h, list_id, &s, None);
    }
    Ok(h)
}
