//! Import and export (`tasklists import`, `tasklists export`; the WIT
//! `transfer` interface): a list written out as a Markdown checklist or
//! the tasklists JSON format, and a Markdown plan, a tasklists JSON
//! export, a Beads JSONL file or a Taskmaster tasks.json read into a new
//! or an existing list. Each format's reader and writer is its own file;
//! every reader makes a [`plan::Plan`], checked whole ([`plan::Plan::check`])
//! and written in one transaction ([`apply`]): all or nothing, a dry run
//! rolled back.

pub mod apply;
pub mod beads;
pub mod json_in;
pub mod json_out;
pub mod markdown_escape;
pub mod markdown_in;
pub mod markdown_out;
#[cfg(test)]
mod markdown_tests;
pub mod plan;
pub mod snapshot;
pub mod taskmaster;
#[cfg(test)]
mod tests;

use serde_json::json;

use crate::actions::lists::CreateList;
use crate::actions::{Action, Call, Done, Request, access, invoke_fn};
use crate::bindings::{CallContext, Line};
use crate::clock::Clock;
use crate::contract::{Access, ActionSpec, LIST_ID, SCOPE_TYPES, TASK_LISTS, Ty, param};
use crate::error::{ToolError, ToolResult};
use crate::render::{LineBuf, Style};
use crate::results::ListJson;
use crate::store::Store;
use crate::text::{plural, quote};

pub use crate::bindings::exports::tasklists::component::transfer::{
    Format, ImportRequest, TransferReply,
};

/// The most bytes of text one import takes (4 MiB): what a call may carry,
/// and well within the component's memory once parsed. A host refuses a
/// larger file before reading it whole.
pub const MAX_IMPORT_BYTES: u64 = 4 << 20;

/// The most bytes one export writes (32 MiB); a larger list is refused.
pub const MAX_EXPORT_BYTES: usize = 32 << 20;

/// `export` as the action it runs as: a read of one list.
const EXPORT: &ActionSpec = &ActionSpec {
    tool: &TASK_LISTS,
    name: "export",
    summary: "a list as Markdown or tasklists JSON (tasklists export)",
    own_params: &[LIST_ID],
    access: Access::List,
    writes: false,
    example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}"#,
};

/// `import` as the action it runs as: a write to one list, or a new one.
const IMPORT: &ActionSpec = &ActionSpec {
    tool: &TASK_LISTS,
    name: "import",
    summary: "tasks from a file into a new or existing list (tasklists import)",
    own_params: &[
        param(
            "list_id",
            Ty::Id(crate::ids::IdKind::List),
            false,
            "append to this list",
        ),
        param(
            "name",
            Ty::Str { min: 1, max: 200 },
            false,
            "the new list's name",
        ),
        param(
            "scope_type",
            Ty::Enum(SCOPE_TYPES),
            false,
            "the new list's scope",
        ),
    ],
    access: Access::List,
    writes: true,
    example: r#"{"name":"Imported plan"}"#,
};

/// The format's name.
pub fn format_name(f: Format) -> &'static str {
    match f {
        Format::Markdown => "markdown",
        Format::Json => "json",
        Format::Beads => "beads",
        Format::Taskmaster => "taskmaster",
    }
}

/// Exports list `list_id` as `format`.
pub fn export_list(
    list_id: &str,
    format: Format,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> TransferReply {
    let params = json!({ "list_id": list_id }).to_string();
    let req = Request::new(&params, ctx, store, clock);
    let done = invoke_fn(req, EXPORT, |call| {
        let list = access::list_param(call, false)?;
        let snap = snapshot::read(call, list)?;
        let text = match format {
            Format::Markdown => markdown_out::write(&snap),
            Format::Json => json_out::write(&snap, call.now()),
            Format::Beads | Format::Taskmaster => {
                return Err(ToolError::invalid(
                    format!(
                        "tasklists exports markdown or json, not {}",
                        format_name(format)
                    ),
                    "pass --format markdown or --format json",
                ));
            }
        };
        if text.len() > MAX_EXPORT_BYTES {
            return Err(ToolError::invalid(
                format!(
                    "the export would be {} bytes; one export writes at most {MAX_EXPORT_BYTES}",
                    text.len()
                ),
                "",
            ));
        }
        Ok(Done {
            summary: String::new(),
            result: text,
        })
    });
    match done {
        Ok(done) => TransferReply {
            failed: false,
            text: done.result,
            lines: Vec::new(),
        },
        Err(e) => refused(&e),
    }
}

/// What an import did (or, rehearsed, would do).
#[derive(Debug, serde::Serialize)]
struct Imported {
    format: &'static str,
    dry_run: bool,
    list: ListJson,
    created_list: bool,
    tasks: Vec<apply::Created>,
    notes: Vec<String>,
}

/// Imports `req.text` as one transaction.
pub fn import_text(
    req: &ImportRequest,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> TransferReply {
    match import(req, ctx, store, clock) {
        Ok(done) => TransferReply {
            failed: false,
            text: serde_json::to_string(&done).unwrap_or_default(),
            lines: summary(&done),
        },
        Err(e) => refused(&e),
    }
}

fn import(
    req: &ImportRequest,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Imported> {
    if req.text.len() as u64 > MAX_IMPORT_BYTES {
        return Err(too_large_error(&req.file_name, req.text.len() as u64));
    }
    let format = req
        .format
        .unwrap_or_else(|| guess(&req.file_name, &req.text));
    let plan = match format {
        Format::Markdown => markdown_in::parse(&req.text)?,
        Format::Json => json_in::parse(&req.text)?,
        Format::Beads => beads::parse(&req.text)?,
        Format::Taskmaster => taskmaster::parse(&req.text)?,
    };
    plan.check()?;
    let mut params = serde_json::Map::new();
    match (&req.into, &req.list_name) {
        (Some(_), Some(_)) => {
            return Err(ToolError::invalid(
                "pass --list NAME (a new list) or --into LIST_ID (an existing one), not both",
                "",
            ));
        }
        (Some(into), None) => {
            params.insert("list_id".into(), json!(into));
        }
        (None, name) => {
            let name = name
                .clone()
                .or_else(|| plan.name.clone())
                .or_else(|| file_stem(&req.file_name))
                .unwrap_or_else(|| "Imported tasks".into());
            let name: String = name.chars().take(200).collect();
            params.insert("name".into(), json!(name.trim()));
            // A list of this workspace when the host gives one, so that
            // its views show it here; else a custom list.
            let scope = if ctx.workspace.is_some() {
                "workspace"
            } else {
                "custom"
            };
            params.insert("scope_type".into(), json!(scope));
        }
    }
    let params = serde_json::Value::Object(params).to_string();
    let (ctx, person) = importer(ctx, req.dry_run)?;
    let request = Request {
        rehearse: req.dry_run,
        person: person.as_deref(),
        ..Request::new(&params, &ctx, store, clock)
    };
    let fmt = format_name(format);
    let done = invoke_fn(request, IMPORT, |call: &mut Call| {
        let (list, created_list) = match call.params.str("list_id") {
            Some(_) => (access::list_param(call, false)?, false),
            None => {
                let made = CreateList::run(call)?;
                (access::read_list(call.tx, &made.result.list.id)?, true)
            }
        };
        call.agent()?;
        let tasks = apply::write(call, &list, &plan, fmt)?;
        let list = access::read_list(call.tx, &list.id)?;
        Ok(Done {
            summary: String::new(),
            result: Imported {
                format: fmt,
                dry_run: req.dry_run,
                list: ListJson::from(&list),
                created_list,
                tasks,
                notes: plan.notes.clone(),
            },
        })
    })?;
    Ok(done.result)
}

/// Who imports, and the context the import runs in. A person at a shell
/// (`ctx.person`) imports as themself: the list and the tasks are theirs
/// and every event names them `"by": "person"`, seen as the context's
/// agent sees (or as the person, when no agent is named). Otherwise the
/// context's agent imports. A dry run writes nothing that stays, so it
/// needs no identity: without one it runs as `anyone`, as `next` does.
fn importer(ctx: &CallContext, dry_run: bool) -> ToolResult<(CallContext, Option<String>)> {
    let mut ctx = ctx.clone();
    if ctx.person.as_deref().is_some_and(|p| !p.trim().is_empty()) {
        let person = crate::person::identity::person(&ctx, "import")?.to_string();
        if ctx.agent_id.is_none() {
            ctx.agent_id = Some(person.clone());
        }
        return Ok((ctx, Some(person)));
    }
    if dry_run && ctx.agent_id.is_none() {
        ctx.agent_id = Some("anyone".into());
        ctx.agent_pinned = false;
    }
    Ok((ctx, None))
}

/// The format of a file named `name` holding `text`, when none is given.
pub fn guess(name: &str, text: &str) -> Format {
    let lower = name.to_ascii_lowercase();
    let first = text.trim_start();
    if lower.ends_with(".md") || lower.ends_with(".markdown") || !first.starts_with('{') {
        return Format::Markdown;
    }
    if lower.ends_with(".jsonl") {
        return Format::Beads;
    }
    // One object per line with an id and a title: Beads.
    let line_one: Option<serde_json::Value> =
        serde_json::from_str(first.lines().next().unwrap_or_default()).ok();
    if line_one.is_some_and(|v| v.get("id").is_some() && v.get("title").is_some()) {
        return Format::Beads;
    }
    if first.contains("\"format\"") && first.contains("\"tasklists\"") {
        Format::Json
    } else {
        Format::Taskmaster
    }
}

/// The file name without its folders and extension, if any.
fn file_stem(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next()?;
    let stem = base.split('.').next().unwrap_or(base).trim();
    (!stem.is_empty()).then(|| stem.to_string())
}

/// The import's summary lines.
fn summary(done: &Imported) -> Vec<Line> {
    let mut out = Vec::new();
    let mut head = LineBuf::new();
    let verb = if done.dry_run {
        "would import"
    } else {
        "imported"
    };
    head.push(if done.dry_run { "○ " } else { "✓ " }, Style::Success)
        .push(
            format!(
                "{verb} {} ({}) into ",
                plural(done.tasks.len(), "task"),
                done.format
            ),
            Style::Text,
        )
        .push(
            if done.created_list {
                "a new list "
            } else {
                "list "
            },
            Style::Text,
        )
        .push(quote(&done.list.name), Style::Strong)
        .push(format!("  {}", done.list.id), Style::Muted);
    out.push(head.finish());
    const SHOWN: usize = 30;
    for t in done.tasks.iter().take(SHOWN) {
        let mut l = LineBuf::new();
        l.push(format!("  #{:<4}", t.position), Style::Muted)
            .push(format!("{:<9}", t.status.as_str()), Style::Accent)
            .push(crate::render::fmt::truncate(&t.title, 70), Style::Text)
            .push(
                format!("  ← {}", crate::render::fmt::truncate(&t.source, 30)),
                Style::Muted,
            );
        out.push(l.finish());
    }
    if done.tasks.len() > SHOWN {
        let mut l = LineBuf::new();
        l.push(
            format!("  … {} more", done.tasks.len() - SHOWN),
            Style::Muted,
        );
        out.push(l.finish());
    }
    for n in &done.notes {
        let mut l = LineBuf::new();
        l.push(format!("  note: {n}"), Style::Warning);
        out.push(l.finish());
    }
    if done.dry_run {
        let mut l = LineBuf::new();
        l.push("dry run: nothing was changed", Style::Warning);
        out.push(l.finish());
    }
    out
}

/// A refusal as a reply: the error's lines and JSON.
fn refused(e: &ToolError) -> TransferReply {
    TransferReply {
        failed: true,
        text: e.to_json().to_string(),
        lines: crate::render::render_error(e),
    }
}

fn too_large_error(file_name: &str, size: u64) -> ToolError {
    ToolError::invalid(
        format!(
            "{} is {size} bytes; an import takes at most {MAX_IMPORT_BYTES} bytes (4 MiB)",
            if file_name.is_empty() {
                "the file".to_string()
            } else {
                quote(file_name)
            }
        ),
        "split it into several files and import each (--into LIST_ID appends to a list)",
    )
}

/// The refusal of a file past [`MAX_IMPORT_BYTES`], for a host that
/// refused it before reading it.
pub fn too_large(file_name: &str, size: u64) -> Vec<Line> {
    crate::render::render_error(&too_large_error(file_name, size))
}
