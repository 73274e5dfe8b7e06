//! Dependencies (`depends_on`): same-list task ids that must be done or
//! canceled before a task can be claimed; cycles are refused and named.

use std::collections::HashMap;

use super::call::Call;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::store::Value;

/// Dependency edges of a list: task id → the ids it depends on.
pub type Graph = HashMap<String, Vec<String>>;

/// All dependency edges among the list's tasks.
pub fn of_list(call: &Call, list_id: &str) -> ToolResult<Graph> {
    let rows = call.rows(
        "SELECT d.task_id, d.depends_on_id FROM task_deps d JOIN tasks t ON t.id = d.task_id \
         JOIN tasks u ON u.id = d.depends_on_id WHERE t.list_id = ? AND u.deleted_at IS NULL ORDER BY d.task_id, u.position, u.id",
        crate::params![list_id],
    )?;
    let mut graph = Graph::new();
    for r in rows {
        if let (Some(a), Some(b)) = (r[0].as_str(), r[1].as_str()) {
            graph.entry(a.to_string()).or_default().push(b.to_string());
        }
    }
    Ok(graph)
}

/// The dependencies of one task in a graph (empty when none).
pub fn get<'g>(graph: &'g Graph, task_id: &str) -> &'g [String] {
    graph.get(task_id).map(Vec::as_slice).unwrap_or(&[])
}

/// The dependencies of one task.
pub fn of_task(call: &Call, task_id: &str) -> ToolResult<Vec<String>> {
    let rows = call.rows(
        "SELECT d.depends_on_id FROM task_deps d JOIN tasks u ON u.id = d.depends_on_id \
         WHERE d.task_id = ? AND u.deleted_at IS NULL ORDER BY u.position, u.id",
        crate::params![task_id],
    )?;
    Ok(rows
        .into_iter()
        .filter_map(|r| r[0].as_str().map(str::to_string))
        .collect())
}

/// Checks that every id names a task of `list_id` (and not `task_id`
/// itself); returns the non-deleted ones without duplicates, in the given
/// order. Deleted tasks of the list are dropped: they no longer block, so a
/// `depends_on` read back from an older result stays valid.
pub fn check_existing(
    call: &Call,
    list_id: &str,
    task_id: Option<&str>,
    ids: &[&str],
) -> ToolResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if out.iter().any(|o| o == id) {
            continue;
        }
        if Some(*id) == task_id {
            return Err(ToolError::new(
                ErrorCode::Cycle,
                format!("task {id} cannot depend on itself"),
                "remove it from depends_on",
            ));
        }
        let rows = call.rows(
            "SELECT list_id, deleted_at FROM tasks WHERE id = ?",
            crate::params![*id],
        )?;
        match rows.first() {
            Some(r) if r[0].as_str() == Some(list_id) => {
                if r[1] == Value::Null {
                    out.push(id.to_string());
                }
            }
            // Same message whether the task is missing or in another
            // (maybe private) list: nothing leaks about other lists.
            _ => {
                return Err(ToolError::invalid(
                    format!("depends_on: {id} is not a task of list {list_id}"),
                    "dependencies must be tasks of the same list; task_lists get shows them",
                ));
            }
        }
    }
    Ok(out)
}

/// Writes the dependencies of `task_id`; with `replace`, first drops the old ones.
pub fn write(call: &Call, task_id: &str, deps: &[String], replace: bool) -> ToolResult<()> {
    if replace {
        call.exec(
            "DELETE FROM task_deps WHERE task_id = ?",
            crate::params![task_id],
        )?;
    }
    for d in deps {
        call.exec(
            "INSERT INTO task_deps (task_id, depends_on_id) VALUES (?, ?)",
            crate::params![task_id, d.as_str()],
        )?;
    }
    Ok(())
}

/// Finds a cycle in `graph`, returned as the path `a → b → … → a`.
pub fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &Graph,
        marks: &mut HashMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = stack.iter().position(|n| n == node).unwrap_or(0);
                let mut cycle = stack[start..].to_vec();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.to_string(), Mark::Open);
        stack.push(node.to_string());
        for next in get(graph, node) {
            if let Some(c) = visit(next, graph, marks, stack) {
                return Some(c);
            }
        }
        stack.pop();
        marks.insert(node.to_string(), Mark::Done);
        None
    }
    let mut marks = HashMap::new();
    let mut nodes: Vec<&String> = graph.keys().collect();
    nodes.sort();
    for n in nodes {
        if let Some(c) = visit(n, graph, &mut marks, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

/// A `cycle` error naming the path, with `label` turning ids into names.
pub fn cycle_error(cycle: &[String], label: impl Fn(&str) -> String) -> ToolError {
    // A long chain would make a huge message: show its two ends.
    const SHOWN: usize = 8;
    let mut path: Vec<String> = cycle.iter().take(SHOWN).map(|n| label(n)).collect();
    if cycle.len() > SHOWN {
        path.push(format!("… ({} more) …", cycle.len() - SHOWN - 1));
        path.push(label(&cycle[cycle.len() - 1]));
    }
    ToolError::new(
        ErrorCode::Cycle,
        format!("depends_on would create a cycle: {}", path.join(" → ")),
        "remove one of these dependencies",
    )
}

/// Refuses new dependencies of `task_id` that would close a cycle in its list.
pub fn check_no_cycle(
    call: &Call,
    list_id: &str,
    task_id: &str,
    deps: &[String],
) -> ToolResult<()> {
    let mut graph = of_list(call, list_id)?;
    graph.insert(task_id.to_string(), deps.to_vec());
    // The graph was acyclic before, so any cycle found runs through task_id.
    match find_cycle(&graph) {
        Some(c) => Err(cycle_error(&c, str::to_string)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(edges: &[(&str, &str)]) -> Graph {
        let mut graph = Graph::new();
        for (a, b) in edges {
            graph.entry(a.to_string()).or_default().push(b.to_string());
        }
        graph
    }

    #[test]
    fn finds_and_names_cycles() {
        assert_eq!(find_cycle(&g(&[("a", "b"), ("b", "c")])), None);
        let c = find_cycle(&g(&[("a", "b"), ("b", "c"), ("c", "a")])).unwrap();
        assert_eq!(c.first(), c.last());
        assert_eq!(c.len(), 4);
    }
}
