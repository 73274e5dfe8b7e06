//! `tasklists tools` and `tasklists db-path`.

use super::output::{Stream, print_lines, print_text};
use super::{Failure, Globals};
use tasklists_host::{HostError, Span, Style};

/// Prints the catalogue: names and descriptions, or all of it as JSON.
pub(crate) fn tools(globals: &Globals, json: bool) -> Result<(), Failure> {
    let mut host = globals.open_host()?;
    let tools = host.catalogue()?;
    if json {
        let tools: Vec<serde_json::Value> = tools
            .iter()
            .map(|t| {
                let a = &t.annotations;
                serde_json::json!({
                    "name": t.name,
                    "title": t.title,
                    "description": t.description,
                    "input_schema": t.schema(),
                    "annotations": {
                        "read_only": a.read_only,
                        "destructive": a.destructive,
                        "idempotent": a.idempotent,
                        "open_world": a.open_world,
                    },
                })
            })
            .collect();
        let text =
            serde_json::to_string_pretty(&tools).map_err(|e| Failure::Usage(e.to_string()))?;
        print_text(&text);
        return Ok(());
    }
    let mut lines = Vec::new();
    for tool in &tools {
        lines.push(vec![
            Span::new(tool.name.clone(), Style::Accent),
            Span::new(format!("  {}", tool.title), Style::Strong),
        ]);
        for line in tool.description.lines() {
            lines.push(vec![Span::new(format!("  {line}"), Style::Text)]);
        }
    }
    print_lines(&lines, globals.color, Stream::Stdout);
    Ok(())
}

/// Prints the database path in effect (without opening it). A connection
/// string that cannot be used as written is refused with the reason every
/// call would get (which quotes no part of a password), rather than shown
/// as whatever a guess at its parts gives.
pub(crate) fn db_path(globals: &Globals) -> Result<(), Failure> {
    let location = globals.location()?;
    if let Some(problem) = location.problem() {
        return Err(HostError::Store(problem).into());
    }
    print_text(&location.to_string());
    Ok(())
}
