//! Dependencies (`depends_on`): same-list task ids that must be done or
//! canceled before a task can be claimed; cycles are refused and named.

use std::collections::HashMap;

use super::call::{Call, IN_LIST_MAX};
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::store::Value;

/// Dependency edges: task id → the ids it depends on, in position order.
pub type Graph = HashMap<String, Vec<String>>;

/// The live (non-deleted) dependencies of each of `task_ids`.
pub fn of_tasks(call: &Call, task_ids: &[&str]) -> ToolResult<Graph> {
    let mut graph = Graph::new();
    for chunk in task_ids.chunks(IN_LIST_MAX) {
        for (a, b) in edges_from(call, chunk)? {
            graph.entry(a).or_default().push(b);
        }
    }
    Ok(graph)
}

/// The edges out of `from` (at most [`IN_LIST_MAX`] ids) to live tasks, in
/// position order of the dependency.
fn edges_from(call: &Call, from: &[&str]) -> ToolResult<Vec<(String, String)>> {
    let marks = vec!["?"; from.len()].join(", ");
    let args: Vec<Value> = from.iter().map(|id| Value::from(*id)).collect();
    let rows = call.rows(
        &format!(
            "SELECT d.task_id, d.depends_on_id FROM task_deps d JOIN tasks u ON u.id = d.depends_on_id \
             WHERE d.task_id IN ({marks}) AND u.deleted_at IS NULL ORDER BY d.task_id, u.position, u.id"
        ),
        &args,
    )?;
    Ok(rows
        .into_iter()
        .filter_map(|r| match (r[0].as_str(), r[1].as_str()) {
            (Some(a), Some(b)) => Some((a.to_string(), b.to_string())),
            _ => None,
        })
        .collect())
}

/// The dependencies of one task in a graph (empty when none).
pub fn get<'g>(graph: &'g Graph, task_id: &str) -> &'g [String] {
    graph.get(task_id).map(Vec::as_slice).unwrap_or(&[])
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
/// Iterative (an explicit stack, no recursion), linear in nodes + edges.
pub fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: HashMap<&str, Mark> = HashMap::new();
    let mut nodes: Vec<&String> = graph.keys().collect();
    nodes.sort();
    for root in nodes {
        if marks.contains_key(root.as_str()) {
            continue;
        }
        // The open path: each node with the index of its next edge.
        let mut path: Vec<(&str, usize)> = vec![(root.as_str(), 0)];
        marks.insert(root, Mark::Open);
        while let Some((node, next)) = path.last_mut() {
            let Some(dep) = get(graph, node).get(*next) else {
                marks.insert(node, Mark::Done);
                path.pop();
                continue;
            };
            *next += 1;
            match marks.get(dep.as_str()) {
                Some(Mark::Done) => {}
                Some(Mark::Open) => {
                    let start = path.iter().position(|(n, _)| *n == dep).unwrap_or(0);
                    let mut cycle: Vec<String> =
                        path[start..].iter().map(|(n, _)| n.to_string()).collect();
                    cycle.push(dep.clone());
                    return Some(cycle);
                }
                None => {
                    marks.insert(dep, Mark::Open);
                    path.push((dep, 0));
                }
            }
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

/// Refuses new dependencies of `task_id` that would close a cycle: one
/// of them already depends, directly or not, on `task_id`.
///
/// The check is one recursive query whatever the size of the graph (the
/// store walks it, the component holds nothing of it); only when it finds
/// a cycle is the path walked here, breadth first, to name it.
///
/// Through a bypass (`redact`), the error names only the task and the
/// dependency the caller gave, not the chain of the list's other tasks
/// between them.
pub fn check_no_cycle(call: &Call, task_id: &str, deps: &[String], redact: bool) -> ToolResult<()> {
    if deps.is_empty() || !reaches(call, deps, task_id)? {
        return Ok(());
    }
    let cycle = shortest_path_back(call, task_id, deps)?;
    if redact {
        let dep = cycle.get(1).map_or(task_id, String::as_str);
        return Err(ToolError::new(
            ErrorCode::Cycle,
            format!(
                "depends_on would create a cycle: {dep} already depends on {task_id}, directly or through other tasks"
            ),
            "remove it from depends_on",
        ));
    }
    Err(cycle_error(&cycle, str::to_string))
}

/// Whether `target` is reachable from `from` along live dependencies.
fn reaches(call: &Call, from: &[String], target: &str) -> ToolResult<bool> {
    let marks = vec!["?"; from.len()].join(", ");
    let mut args: Vec<Value> = from.iter().map(Value::from).collect();
    args.push(target.into());
    // UNION (not UNION ALL) visits each task once: linear in the graph.
    let rows = call.rows(
        &format!(
            "WITH RECURSIVE reach(id) AS (\
                 SELECT id FROM tasks WHERE id IN ({marks}) \
                 UNION \
                 SELECT d.depends_on_id FROM task_deps d JOIN reach r ON d.task_id = r.id \
                 JOIN tasks u ON u.id = d.depends_on_id WHERE u.deleted_at IS NULL) \
             SELECT 1 FROM reach WHERE id = ? LIMIT 1"
        ),
        &args,
    )?;
    Ok(!rows.is_empty())
}

/// The shortest cycle `task_id → dep → … → task_id` through the new
/// dependencies `deps`, found breadth first from them (one query per
/// level, each level's ids in chunks). Called only when one exists.
fn shortest_path_back(call: &Call, task_id: &str, deps: &[String]) -> ToolResult<Vec<String>> {
    // Each task reached, with the task it was reached from: a tree rooted
    // at task_id (`check_existing` refused task_id among its own deps).
    let mut came_from: HashMap<String, String> = HashMap::new();
    let mut level: Vec<String> = Vec::new();
    for d in deps {
        if !came_from.contains_key(d) {
            came_from.insert(d.clone(), task_id.to_string());
            level.push(d.clone());
        }
    }
    // The task that depends on task_id, closing the cycle.
    let mut closing: Option<String> = None;
    while closing.is_none() && !level.is_empty() {
        let mut next = Vec::new();
        for chunk in level.chunks(IN_LIST_MAX) {
            let ids: Vec<&str> = chunk.iter().map(String::as_str).collect();
            for (a, b) in edges_from(call, &ids)? {
                if b == task_id {
                    closing = Some(a);
                    break;
                }
                if !came_from.contains_key(&b) {
                    came_from.insert(b.clone(), a);
                    next.push(b);
                }
            }
            if closing.is_some() {
                break;
            }
        }
        level = next;
    }
    let mut path = vec![task_id.to_string()];
    let mut at = closing.unwrap_or_else(|| task_id.to_string());
    while at != task_id {
        path.push(at.clone());
        at = came_from
            .get(&at)
            .cloned()
            .unwrap_or_else(|| task_id.to_string());
    }
    path.push(task_id.to_string());
    path.reverse();
    Ok(path)
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
        assert_eq!(find_cycle(&g(&[("a", "a")])).unwrap(), ["a", "a"]);
        // A diamond is no cycle.
        assert_eq!(
            find_cycle(&g(&[("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])),
            None
        );
    }

    #[test]
    fn long_chains_need_no_stack() {
        let n = 200_000;
        let mut graph: Graph = (0..n - 1)
            .map(|i| (format!("t{i}"), vec![format!("t{}", i + 1)]))
            .collect();
        assert_eq!(find_cycle(&graph), None);
        graph.insert(format!("t{}", n - 1), vec!["t0".into()]);
        let c = find_cycle(&graph).unwrap();
        assert_eq!(c.len(), n + 1);
        assert_eq!(c.first(), c.last());
    }
}
