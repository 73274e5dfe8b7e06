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
pub mod report;
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
        param(
            "requires_approval",
            Ty::Bool,
            false,
            "the new list's plan awaits a person's approval",
        ),
        param(
            "requires_review",
            Ty::Bool,
            false,
            "the new list's tasks go to a person's review when done",
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

/// One list an import wrote to.
#[derive(Debug, serde::Serialize)]
struct ListImported {
    list: ListJson,
    created_list: bool,
    tasks: Vec<apply::Created>,
}

/// What an import did (or, rehearsed, would do): the first (most often
/// the only) list at the top, every list in `lists` (a Taskmaster file
/// makes one a tag), and the report of what changed on the way.
#[derive(Debug, serde::Serialize)]
struct Imported {
    format: &'static str,
    dry_run: bool,
    list: ListJson,
    created_list: bool,
    tasks: Vec<apply::Created>,
    lists: Vec<ListImported>,
    report: report::Report,
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
    if req.into.is_some() && req.list_name.is_some() {
        return Err(ToolError::invalid(
            "pass --list NAME (a new list) or --into LIST_ID (an existing one), not both",
            "",
        ));
    }
    if req.tag.is_some() && format != Format::Taskmaster {
        return Err(ToolError::invalid(
            "--tag chooses a tag of a Taskmaster file",
            "leave --tag out for other formats",
        ));
    }
    let mut plans = match format {
        Format::Markdown => vec![markdown_in::parse(&req.text)?],
        Format::Json => vec![json_in::parse(&req.text)?],
        Format::Beads => vec![beads::parse(&req.text)?],
        Format::Taskmaster => taskmaster::parse(&req.text, req.tag.as_deref())?,
    };
    let mut report = report::Report::default();
    for plan in &mut plans {
        plan.fit()?;
        report.extend(&plan.report);
    }
    if req.strict && !report.is_empty() {
        return Err(strict_refusal(&report));
    }
    if plans.len() > 1 && (req.into.is_some() || req.list_name.is_some()) {
        let tags: Vec<&str> = plans.iter().filter_map(|p| p.name.as_deref()).collect();
        return Err(ToolError::invalid(
            format!(
                "the file holds {} lists ({}): --into and --list take one",
                plans.len(),
                tags.join(", ")
            ),
            "choose one with --tag NAME, or leave --into and --list out (a new list a tag)",
        ));
    }
    let (ctx, person) = importer(ctx, req.dry_run)?;
    if req.approve && person.is_none() {
        return Err(ToolError::invalid(
            "--approve is a person's: an agent's import leaves a plan awaiting approval",
            "a person imports with tasklists --person NAME import FILE --approve, or approves after with tasklists approve LIST",
        ));
    }
    let fmt = format_name(format);
    let mut lists = Vec::new();
    // One transaction for the whole file: the first list's call opens it
    // through the tools' own action (creating the list or checking the one
    // named), the others' lists are created in it.
    let params = list_params(req, &ctx, &plans[0]).to_string();
    let request = Request {
        rehearse: req.dry_run,
        person: person.as_deref(),
        ..Request::new(&params, &ctx, store, clock)
    };
    let done = invoke_fn(request, IMPORT, |call: &mut Call| {
        call.agent()?;
        for (n, plan) in plans.iter().enumerate() {
            let (list, created_list) = match (n, call.params.str("list_id")) {
                (0, Some(_)) => (access::list_param(call, false)?, false),
                _ => {
                    let made = if n == 0 {
                        CreateList::run(call)?
                    } else {
                        // The next list, made by the same action with its
                        // own params, in the same transaction.
                        let own = list_params(req, call.ctx, plan).to_string();
                        let own = crate::contract::validate(IMPORT, &own)?;
                        let first = std::mem::replace(&mut call.params, own);
                        let made = CreateList::run(call);
                        call.params = first;
                        made?
                    };
                    (access::read_list(call.tx, &made.result.list.id)?, true)
                }
            };
            let tasks = apply::write(call, &list, plan)?;
            let list = access::read_list(call.tx, &list.id)?;
            call.event(
                "imported",
                Some(&list.id),
                None,
                json!({
                    "format": fmt,
                    "file": req.file_name,
                    "tasks": tasks.len(),
                    "changed": plan.report.changed.iter().map(|t| t.count).sum::<usize>(),
                    "kept_as_refs": plan.report.kept_as_refs.iter().map(|t| t.count).sum::<usize>(),
                    "dropped": plan.report.dropped.iter().map(|t| t.count).sum::<usize>(),
                }),
            )?;
            // A person who asked approves the plan as they import it: the
            // same approval, audited after the import.
            let list = match list.approval {
                Some(_) if req.approve => {
                    crate::actions::approval::approve(call, &list.id, None, None)?;
                    access::read_list(call.tx, &list.id)?
                }
                _ => list,
            };
            lists.push(ListImported {
                list: ListJson::from(&list),
                created_list,
                tasks,
            });
        }
        Ok(Done {
            summary: String::new(),
            result: (),
        })
    });
    done?;
    let first = lists.first().ok_or_else(|| {
        ToolError::new(
            crate::error::ErrorCode::Internal,
            "an import wrote no list",
            "",
        )
    })?;
    Ok(Imported {
        format: fmt,
        dry_run: req.dry_run,
        list: first.list.clone(),
        created_list: first.created_list,
        tasks: first.tasks.clone(),
        lists,
        report,
    })
}

/// The params of the list `plan` goes to: the one `--into` names, else a
/// new one named by `--list`, the file (its heading, its tag) or the
/// file's name, of this workspace when the host gives one, needing a
/// person's approval when the file's list did.
fn list_params(req: &ImportRequest, ctx: &CallContext, plan: &plan::Plan) -> serde_json::Value {
    let mut params = serde_json::Map::new();
    if let Some(into) = &req.into {
        params.insert("list_id".into(), json!(into));
        return serde_json::Value::Object(params);
    }
    let name = req
        .list_name
        .clone()
        .or_else(|| plan.name.clone())
        .or_else(|| file_stem(&req.file_name))
        .unwrap_or_else(|| "Imported tasks".into());
    let name: String = name.chars().take(200).collect();
    params.insert("name".into(), json!(name.trim()));
    // A list of this workspace when the host gives one, so that its views
    // show it here; else a custom list.
    let scope = if ctx.workspace.is_some() {
        "workspace"
    } else {
        "custom"
    };
    params.insert("scope_type".into(), json!(scope));
    if plan.requires_approval {
        params.insert("requires_approval".into(), json!(true));
    }
    if plan.requires_review {
        params.insert("requires_review".into(), json!(true));
    }
    serde_json::Value::Object(params)
}

/// The refusal of a `--strict` import whose file did not come across as
/// it was: the first things its report says.
fn strict_refusal(report: &report::Report) -> ToolError {
    let said: Vec<String> = report
        .sections()
        .into_iter()
        .flat_map(|(section, tallies)| {
            tallies.iter().map(move |t| {
                format!(
                    "{section}: {} ×{} (first at {})",
                    t.what,
                    t.count,
                    t.examples.join(", ")
                )
            })
        })
        .take(5)
        .collect();
    ToolError::invalid(
        format!(
            "--strict: the file does not come across as it is: {}",
            said.join("; ")
        ),
        "leave --strict out to import it with these changes (the report lists them all)",
    )
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

/// The import's summary lines: each list with its first tasks, then the
/// report, section by section.
fn summary(done: &Imported) -> Vec<Line> {
    let mut out = Vec::new();
    let verb = if done.dry_run {
        "would import"
    } else {
        "imported"
    };
    for one in &done.lists {
        let mut head = LineBuf::new();
        head.push(if done.dry_run { "○ " } else { "✓ " }, Style::Success)
            .push(
                format!(
                    "{verb} {} ({}) into ",
                    plural(one.tasks.len(), "task"),
                    done.format
                ),
                Style::Text,
            )
            .push(
                if one.created_list {
                    "a new list "
                } else {
                    "list "
                },
                Style::Text,
            )
            .push(quote(&one.list.name), Style::Strong)
            .push(format!("  {}", one.list.id), Style::Muted);
        out.push(head.finish());
        let shown = if done.lists.len() > 1 { 5 } else { 30 };
        for t in one.tasks.iter().take(shown) {
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
        if one.tasks.len() > shown {
            let mut l = LineBuf::new();
            l.push(
                format!("  … {} more", one.tasks.len() - shown),
                Style::Muted,
            );
            out.push(l.finish());
        }
    }
    for (section, tallies) in done.report.sections() {
        if tallies.is_empty() {
            continue;
        }
        let total: usize = tallies.iter().map(|t| t.count).sum();
        let mut l = LineBuf::new();
        l.push(format!("{section}: {total}"), Style::Warning);
        out.push(l.finish());
        for t in tallies {
            let mut l = LineBuf::new();
            l.push(format!("  {:>5} × ", t.count), Style::Muted)
                .push(crate::render::fmt::truncate(&t.what, 100), Style::Text)
                .push(
                    format!(
                        "  e.g. {}",
                        crate::render::fmt::truncate(&t.examples.join("; "), 80)
                    ),
                    Style::Muted,
                );
            out.push(l.finish());
        }
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
