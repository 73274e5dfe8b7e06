//! A Markdown checklist read as tasks: a plan an agent or a person wrote,
//! or a list exported by [`super::markdown_out`].
//!
//! - Each checklist item (`- [ ]`, `* [x]`, `1. [-]`, …) is a task: `[ ]`
//!   todo, `[x]` done, `[-]` or `[~]` canceled.
//! - Nesting: an item nested under another is a task of its own, placed
//!   after it, and the outer item depends on it (a step is done when its
//!   sub-steps are).
//! - Under an item, a bullet `key: value` sets a field (`priority`,
//!   `status: blocked`, `assigned`, `after: #3 Title` or `after: Title`,
//!   `refs`, `description`, `notes`, `outcome`, `verification`,
//!   `verification result`); any other text or bullet under it is its
//!   description.
//! - A file without a single checkbox is read as a plain plan: each
//!   top-level list item is a todo task, anything under it its description.
//! - The first `# heading` before the first item names the list. Fenced
//!   code is text, never items.
//!
//! A file the export wrote carries its marker line
//! ([`super::markdown_escape::MARKER`]); in it, and only in it, texts are
//! read exactly: escapes are undone ([`super::markdown_escape::unescape`]:
//! titles, the list's name, every text line outside fenced code, `after:`
//! titles, assignees), each blank line inside a text is one empty line (a
//! plain file's blank lines count as one paragraph break), and a bare
//! `key:` line is an empty text (in a plain file, none). A checklist a
//! person wrote is read as it always was, backslashes and all.

use super::markdown_escape::{is_marker, unescape};
use super::plan::{Item, Plan, malformed};
use crate::error::ToolResult;
use crate::model::{Priority, Status};
use crate::text::quote;

/// A list item line: its indent, its checkbox (if any) and its text.
struct Bullet<'a> {
    indent: usize,
    check: Option<char>,
    text: &'a str,
}

/// The field a key line sets.
#[derive(Clone, Copy, PartialEq)]
enum Key {
    Description,
    Notes,
    Outcome,
    Verification,
    VerificationResult,
    Priority,
    Status,
    Assigned,
    After,
    Refs,
    Labels,
}

impl Key {
    fn parse(name: &str) -> Option<Key> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "description" => Key::Description,
            "notes" => Key::Notes,
            "outcome" => Key::Outcome,
            "verification" => Key::Verification,
            "verification result" | "verification_result" => Key::VerificationResult,
            "priority" => Key::Priority,
            "status" => Key::Status,
            "assigned" | "assignee" => Key::Assigned,
            "after" | "depends on" => Key::After,
            "refs" => Key::Refs,
            "labels" => Key::Labels,
            _ => return None,
        })
    }

    /// Whether its value may go on over several lines.
    fn is_text(self) -> bool {
        matches!(
            self,
            Key::Description
                | Key::Notes
                | Key::Outcome
                | Key::Verification
                | Key::VerificationResult
        )
    }
}

/// Where further indented lines go.
struct Open {
    item: usize,
    key: Key,
    /// The indent of the line that opened it: deeper lines continue it.
    indent: usize,
    /// Blank lines seen since its last line.
    blanks: usize,
}

/// How the file's text is read: as the export wrote it (escaped, exact)
/// or as a person wrote it (as it is).
#[derive(Clone, Copy)]
struct Mode {
    exact: bool,
}

impl Mode {
    /// One line's text, escapes undone in an export.
    fn text(self, s: &str) -> String {
        if self.exact {
            unescape(s)
        } else {
            s.to_string()
        }
    }
}

/// Parses `text` as a Markdown plan.
pub fn parse(text: &str) -> ToolResult<Plan> {
    let checklist = has_checkbox(text);
    let mode = Mode {
        exact: is_export(text),
    };
    let mut plan = Plan::default();
    // The open items (indent, index), outermost first.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<Open> = None;
    let mut fence = false;
    let mut afters: Vec<(usize, usize, String)> = Vec::new();
    let mut base: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r');
        let indent = indent_of(line);
        let trimmed = line.trim();
        // Fenced code is taken as it is, escapes and all.
        let as_is = Mode { exact: false };
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = !fence;
            add_text(&mut plan, &stack, &mut open, indent, line, as_is);
            continue;
        }
        if fence {
            add_text(&mut plan, &stack, &mut open, indent, line, as_is);
            continue;
        }
        if trimmed.is_empty() {
            if let Some(o) = open.as_mut() {
                o.blanks += 1;
            }
            continue;
        }
        if indent < 4 && trimmed.starts_with('#') {
            let level = trimmed.chars().take_while(|c| *c == '#').count();
            let title = trimmed[level..].trim();
            if level == 1 && plan.items.is_empty() && plan.name.is_none() && !title.is_empty() {
                plan.name = Some(mode.text(title));
            }
            stack.clear();
            open = None;
            continue;
        }
        let b = bullet(line);
        let is_task = b.as_ref().is_some_and(|b| {
            if checklist {
                b.check.is_some()
            } else {
                b.indent <= *base.get_or_insert(b.indent)
            }
        });
        if !is_task && stack.last().is_some_and(|(d, _)| indent <= *d) {
            // Text back at (or before) an item's own indent: it belongs to
            // an outer item, if any is indented less.
            while stack.last().is_some_and(|(d, _)| indent <= *d) {
                stack.pop();
            }
            open = None;
        }
        match b {
            Some(b) if checklist && b.check.is_some() => {
                while stack.last().is_some_and(|(d, _)| *d >= b.indent) {
                    stack.pop();
                }
                let status = match b.check {
                    Some(' ') => Status::Todo,
                    Some('x' | 'X') => Status::Done,
                    Some('-' | '~') => Status::Canceled,
                    Some(c) => {
                        return Err(malformed(
                            &format!("line {n}"),
                            format!("the checkbox [{c}] is not one of [ ], [x], [-]"),
                            "[ ] is open, [x] done, [-] canceled",
                        ));
                    }
                    None => Status::Todo,
                };
                let idx = new_item(&mut plan, n, b.text, status, mode);
                if let Some((_, parent)) = stack.last() {
                    let key = plan.items[idx].key.clone();
                    plan.items[*parent].add_dep(key);
                }
                stack.push((b.indent, idx));
                open = None;
            }
            Some(b) if is_task => {
                let idx = new_item(&mut plan, n, b.text, Status::Todo, mode);
                stack = vec![(b.indent, idx)];
                open = None;
            }
            Some(b) if stack.last().is_some_and(|(d, _)| b.indent > *d) => {
                let item = stack.last().map(|(_, i)| *i).unwrap_or_default();
                match b
                    .text
                    .split_once(':')
                    .and_then(|(k, v)| Some((Key::parse(k)?, v.trim())))
                {
                    Some((key, value)) => {
                        set(&mut plan, item, key, value, n, &mut afters, mode)?;
                        open = key.is_text().then_some(Open {
                            item,
                            key,
                            indent: b.indent,
                            blanks: 0,
                        });
                    }
                    None => {
                        open = None;
                        add_text(&mut plan, &stack, &mut open, b.indent, line, mode);
                    }
                }
            }
            Some(_) => {
                // A list outside any task (a list of notes before the plan).
                stack.clear();
                open = None;
            }
            None => {
                if stack.last().is_some_and(|(d, _)| indent > *d) {
                    add_text(&mut plan, &stack, &mut open, indent, line, mode);
                } else {
                    // A paragraph between lists ends the open items.
                    stack.clear();
                    open = None;
                }
            }
        }
    }
    resolve_afters(&mut plan, afters)?;
    Ok(plan)
}

/// Appends a line of text to the open field, else to the innermost open
/// item's description.
fn add_text(
    plan: &mut Plan,
    stack: &[(usize, usize)],
    open: &mut Option<Open>,
    indent: usize,
    line: &str,
    mode: Mode,
) {
    let continues = open.as_ref().is_some_and(|o| indent > o.indent);
    if !continues {
        let Some((d, item)) = stack.last() else {
            return;
        };
        *open = Some(Open {
            item: *item,
            key: Key::Description,
            indent: *d,
            blanks: 0,
        });
    }
    let Some(o) = open.as_mut() else { return };
    // The text keeps its own indentation past the field's.
    let strip = (o.indent + 4).min(indent);
    let text = mode.text(&line[byte_at(line, strip)..]);
    let item = &mut plan.items[o.item];
    let field = match o.key {
        Key::Notes => &mut item.notes,
        Key::Outcome => &mut item.outcome,
        Key::Verification => &mut item.verification,
        Key::VerificationResult => &mut item.verification_result,
        _ => &mut item.description,
    };
    // An export's blank lines are its text's empty lines, each one; a
    // person's blank lines part paragraphs.
    let sep = match (mode.exact, o.blanks) {
        (true, n) => "\n".repeat(n + 1),
        (false, 0) => "\n".to_string(),
        (false, _) => "\n\n".to_string(),
    };
    o.blanks = 0;
    *field = Some(match field.take() {
        Some(before) if !before.is_empty() => format!("{before}{sep}{text}"),
        _ => text,
    });
}

/// Sets `key` of item `idx` from `value` (line `n`).
fn set(
    plan: &mut Plan,
    idx: usize,
    key: Key,
    value: &str,
    n: usize,
    afters: &mut Vec<(usize, usize, String)>,
    mode: Mode,
) -> ToolResult<()> {
    let at = format!("line {n}");
    let item = &mut plan.items[idx];
    // In an export a bare `key:` is the empty text.
    let text = (mode.exact || !value.is_empty()).then(|| mode.text(value));
    match key {
        Key::Description => item.description = text,
        Key::Notes => item.notes = text,
        Key::Outcome => item.outcome = text,
        Key::Verification => item.verification = text,
        Key::VerificationResult => item.verification_result = text,
        Key::Priority => {
            item.priority = Priority::parse(&value.to_ascii_lowercase()).ok_or_else(|| {
                malformed(
                    &at,
                    format!("priority {} is not high, medium or low", quote(value)),
                    "",
                )
            })?;
        }
        Key::Status => {
            let v = value.to_ascii_lowercase();
            if v.starts_with("blocked") && item.status == Status::Todo {
                item.status = Status::Blocked;
            } else if v.starts_with("in progress") || v.starts_with("in_progress") {
                plan.report.changed(
                    "status in progress imported as todo (an import claims nothing)",
                    at.clone(),
                );
            } else if !(v.starts_with("todo") || v.starts_with("done") || v.starts_with("canceled"))
            {
                return Err(malformed(
                    &at,
                    format!(
                        "status {} is not todo, blocked or in progress",
                        quote(value)
                    ),
                    "the checkbox says done ([x]) or canceled ([-])",
                ));
            }
        }
        Key::Assigned if mode.exact => {
            item.assigned = Some(mode.text(value.strip_prefix('@').unwrap_or(value)));
        }
        Key::Assigned => {
            item.assigned = text.map(|a| a.trim_start_matches('@').to_string());
        }
        Key::After => afters.push((idx, n, mode.text(value))),
        Key::Refs => {
            for r in value.split_whitespace() {
                item.add_ref(r.to_string());
            }
        }
        Key::Labels => {
            for l in value.split_whitespace() {
                item.add_label(l.to_string());
            }
        }
    }
    Ok(())
}

/// Turns each `after:` into a dependency: `#N …` is the file's N-th task,
/// anything else the one task of that exact title.
fn resolve_afters(plan: &mut Plan, afters: Vec<(usize, usize, String)>) -> ToolResult<()> {
    for (idx, n, value) in afters {
        let at = format!("line {n}");
        let by_number = value
            .strip_prefix('#')
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<usize>().ok());
        let target = match by_number {
            Some(k) if (1..=plan.items.len()).contains(&k) => k - 1,
            Some(k) => {
                return Err(malformed(
                    &at,
                    format!("after: #{k}, but the file has {} tasks", plan.items.len()),
                    "after: #N names the file's N-th task",
                ));
            }
            None => {
                let same: Vec<usize> = (0..plan.items.len())
                    .filter(|i| plan.items[*i].title == value)
                    .collect();
                match same.as_slice() {
                    [one] => *one,
                    [] => {
                        return Err(malformed(
                            &at,
                            format!("after: no task of the file is titled {}", quote(&value)),
                            "name the task by its exact title, or as #N (the file's N-th task)",
                        ));
                    }
                    _ => {
                        return Err(malformed(
                            &at,
                            format!("after: {} tasks are titled {}", same.len(), quote(&value)),
                            "name it as #N (the file's N-th task)",
                        ));
                    }
                }
            }
        };
        let key = plan.items[target].key.clone();
        plan.items[idx].add_dep(key);
    }
    Ok(())
}

/// Adds a task from line `n`; its index.
fn new_item(plan: &mut Plan, n: usize, title: &str, status: Status, mode: Mode) -> usize {
    let key = (plan.items.len() + 1).to_string();
    let mut item = Item::new(format!("line {n}"), key, mode.text(title.trim()));
    item.status = status;
    match status {
        Status::Done => item.outcome = Some("done before the import (Markdown checklist)".into()),
        Status::Canceled => {
            item.outcome = Some("canceled before the import (Markdown checklist)".into())
        }
        _ => {}
    }
    plan.items.push(item);
    plan.items.len() - 1
}

/// Whether the export wrote `text`: an unindented marker line outside
/// fenced code.
fn is_export(text: &str) -> bool {
    any_outside_fences(text, is_marker)
}

/// Whether any line outside fenced code is a checklist item.
fn has_checkbox(text: &str) -> bool {
    any_outside_fences(text, |line| bullet(line).is_some_and(|b| b.check.is_some()))
}

/// Whether `test` holds for any line of `text` outside fenced code
/// (``` or ~~~).
fn any_outside_fences(text: &str, test: impl Fn(&str) -> bool) -> bool {
    let mut fence = false;
    text.lines().any(|line| {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            return false;
        }
        !fence && test(line)
    })
}

/// The line as a list item (`-`, `*`, `+` or `N.`/`N)` then a space),
/// with its checkbox when it has one.
fn bullet(line: &str) -> Option<Bullet<'_>> {
    let indent = indent_of(line);
    let rest = line.trim_start();
    let after = if let Some(r) = rest.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || digits > 9 {
            return None;
        }
        rest[digits..].strip_prefix(['.', ')'])?
    };
    if !after.starts_with([' ', '\t']) {
        return None;
    }
    let text = after.trim_start();
    let mut chars = text.chars();
    if let (Some('['), Some(c), Some(']')) = (chars.next(), chars.next(), chars.next()) {
        let tail = chars.as_str();
        if tail.is_empty() || tail.starts_with([' ', '\t']) {
            return Some(Bullet {
                indent,
                check: Some(c),
                text: tail.trim(),
            });
        }
    }
    Some(Bullet {
        indent,
        check: None,
        text: text.trim_end(),
    })
}

/// Leading white space, a tab counting 4.
fn indent_of(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The byte offset after the first `cols` columns of leading white space.
fn byte_at(line: &str, cols: usize) -> usize {
    let mut seen = 0;
    for (i, c) in line.char_indices() {
        if seen >= cols || !c.is_whitespace() {
            return i;
        }
        seen += if c == '\t' { 4 } else { 1 };
    }
    line.len()
}
