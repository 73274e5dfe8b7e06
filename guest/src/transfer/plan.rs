//! What every import format parses into: a [`Plan`] of [`Item`]s, in the
//! order they become tasks, each naming where it came from (a line, a
//! field). [`Plan::fit`] makes every item keep the contract's rules before
//! anything is written, changing what does not fit and saying so in the
//! plan's [`Report`] (`--strict` refuses a plan whose report is not
//! empty); only a file that cannot be read at all (no task, too many) is
//! refused whole.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value as Json};

use super::report::Report;
use crate::contract::labels::{MAX_LABELS, check_label, label_from};
use crate::contract::refs::{MAX_REFS, check_ref};
use crate::contract::{MAX_DEPS, MAX_TEXT};
use crate::error::{ToolError, ToolResult};
use crate::ids::is_agent_id;
use crate::model::{Priority, Status};
use crate::text::quote;
use crate::text_budget;

/// Most tasks one import creates.
pub const MAX_IMPORT_TASKS: usize = 5_000;

/// Longest title, in characters (as `task_items create` takes).
const MAX_TITLE: usize = 500;

/// When a task was made, last changed, first started and closed, in ms
/// since the epoch, where its source says; none: the import's time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Times {
    /// Created.
    pub created: Option<i64>,
    /// Last changed.
    pub updated: Option<i64>,
    /// First started.
    pub started: Option<i64>,
    /// Closed (done or canceled).
    pub completed: Option<i64>,
}

/// One task to create.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Where it came from, for errors: `line 12`, `tasks[3]`.
    pub at: String,
    /// Its name in the file, which other items' `depends_on` use (an id,
    /// a line number); unique within the plan.
    pub key: String,
    /// The ref that names it in its source (`beads://./bd-12`), which a
    /// link to it kept as a ref uses; none: the file has no such name.
    pub source_ref: Option<String>,
    /// Title.
    pub title: String,
    /// Details.
    pub description: Option<String>,
    /// Working memory.
    pub notes: Option<String>,
    /// How it was closed.
    pub outcome: Option<String>,
    /// How to check it is done.
    pub verification: Option<String>,
    /// What the check showed.
    pub verification_result: Option<String>,
    /// Its status (never `in_progress`: nothing is claimed by an import).
    pub status: Status,
    /// Its priority.
    pub priority: Priority,
    /// Reserved for this agent.
    pub assigned: Option<String>,
    /// Links elsewhere.
    pub refs: Vec<String>,
    /// Labels (roles, skills, kinds).
    pub labels: Vec<String>,
    /// The keys of the items it waits for.
    pub depends_on: Vec<String>,
    /// Its source's times.
    pub times: Times,
    /// Closing it as done sends it to a person's review first.
    pub requires_review: bool,
}

impl Item {
    /// An item titled `title`, todo, medium, with nothing else.
    pub fn new(at: impl Into<String>, key: impl Into<String>, title: impl Into<String>) -> Self {
        Item {
            at: at.into(),
            key: key.into(),
            source_ref: None,
            title: title.into(),
            description: None,
            notes: None,
            outcome: None,
            verification: None,
            verification_result: None,
            status: Status::Todo,
            priority: Priority::Medium,
            assigned: None,
            refs: Vec::new(),
            labels: Vec::new(),
            depends_on: Vec::new(),
            times: Times::default(),
            requires_review: false,
        }
    }

    /// Adds `uri` to the refs unless it is there already.
    pub fn add_ref(&mut self, uri: String) {
        if !self.refs.contains(&uri) {
            self.refs.push(uri);
        }
    }

    /// Adds a dependency on `key` unless it is there already.
    pub fn add_dep(&mut self, key: String) {
        if !self.depends_on.contains(&key) {
            self.depends_on.push(key);
        }
    }

    /// Adds `label` unless it is there already.
    pub fn add_label(&mut self, label: String) {
        if !self.labels.contains(&label) {
            self.labels.push(label);
        }
    }

    /// Where it is, for a report: its place and its key.
    pub fn place(&self) -> String {
        if self.at == format!("line {}", self.key) {
            self.at.clone()
        } else {
            format!("{} ({})", self.at, self.key)
        }
    }
}

/// A parsed file: the list name it suggests and its tasks, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    /// The name the file gives its list (a heading, a field, a tag), if any.
    pub name: Option<String>,
    /// The tasks, in the order they are created.
    pub items: Vec<Item>,
    /// What the reader changed on the way (and [`Plan::fit`] after it).
    pub report: Report,
    /// The list it came from needed a person's approval of its plan: the
    /// new list does too (its approval pending).
    pub requires_approval: bool,
    /// The list it came from sent its tasks to review: the new one does
    /// too.
    pub requires_review: bool,
}

/// A malformed input error: `at` (a line, a field) and what is wrong.
pub fn malformed(at: &str, why: impl std::fmt::Display, hint: impl Into<String>) -> ToolError {
    ToolError::invalid(format!("{at}: {why}"), hint)
}

impl Plan {
    /// Refuses a plan that cannot be imported at all (no task, too many),
    /// then makes every item keep the contract's rules, each change in the
    /// report: a title cut or given, texts cut to their bounds, a NUL
    /// removed, an assignee that is no agent id dropped, refs past 20 or
    /// malformed dropped, a key used twice made unique, a dependency on
    /// nothing in the file or past 100 kept as a ref, and the dependencies
    /// that would make a cycle kept as refs.
    pub fn fit(&mut self) -> ToolResult<()> {
        if self.items.is_empty() {
            return Err(ToolError::invalid(
                "the file holds no task to import",
                "a Markdown checklist has lines such as \"- [ ] step\"; see tasklists import --help",
            ));
        }
        if self.items.len() > MAX_IMPORT_TASKS {
            return Err(ToolError::invalid(
                format!(
                    "the file holds {} tasks; one import creates at most {MAX_IMPORT_TASKS}",
                    self.items.len()
                ),
                "split the file",
            ));
        }
        self.unique_keys();
        let keys: HashMap<String, Option<String>> = self
            .items
            .iter()
            .map(|i| (i.key.clone(), i.source_ref.clone()))
            .collect();
        let report = &mut self.report;
        for item in &mut self.items {
            fit_item(item, &keys, report);
        }
        self.break_cycles();
        Ok(())
    }

    /// Makes every key unique: a key used again gets `#2`, `#3`, … (its
    /// dependents keep naming the first).
    fn unique_keys(&mut self) {
        let mut seen: HashSet<String> = HashSet::new();
        for item in &mut self.items {
            if seen.insert(item.key.clone()) {
                continue;
            }
            let mut n = 2;
            while seen.contains(&format!("{}#{n}", item.key)) {
                n += 1;
            }
            let key = format!("{}#{n}", item.key);
            self.report.changed(
                "an id an earlier task of the file has, renamed ID#2, ID#3, …",
                item.place(),
            );
            item.key = key.clone();
            seen.insert(key);
        }
    }

    /// Keeps as refs the dependencies that close a cycle, one edge at a
    /// time, until none is left: the task still points at the other.
    fn break_cycles(&mut self) {
        loop {
            let graph: crate::actions::deps::Graph = self
                .items
                .iter()
                .map(|i| (i.key.clone(), i.depends_on.clone()))
                .collect();
            let Some(cycle) = crate::actions::deps::find_cycle(&graph) else {
                return;
            };
            let [.., from, to] = cycle.as_slice() else {
                return;
            };
            let target = self
                .items
                .iter()
                .find(|i| &i.key == to)
                .and_then(|i| i.source_ref.clone());
            let Some(item) = self.items.iter_mut().find(|i| &i.key == from) else {
                return;
            };
            item.depends_on.retain(|d| d != to);
            match target {
                Some(uri) => {
                    item.add_ref(uri);
                    self.report.kept_as_ref(
                        "a dependency that would make a cycle (kept as a ref)",
                        item.place(),
                    );
                }
                None => self
                    .report
                    .dropped("a dependency that would make a cycle", item.place()),
            }
        }
    }
}

/// Makes `item` keep the contract's rules; `keys` are the plan's keys
/// with each one's source ref.
fn fit_item(item: &mut Item, keys: &HashMap<String, Option<String>>, report: &mut Report) {
    let at = item.place();
    if item.title.contains('\0') {
        item.title = item.title.replace('\0', "");
        report.changed("a NUL character (U+0000) removed", at.clone());
    }
    if item.title.trim().is_empty() {
        item.title = format!("(untitled {})", item.key);
        report.changed("a blank title given as (untitled ID)", at.clone());
    }
    if item.title.chars().count() > MAX_TITLE {
        item.title = item.title.chars().take(MAX_TITLE).collect();
        report.changed(format!("a title cut to {MAX_TITLE} characters"), at.clone());
    }
    for (name, text) in [
        ("description", &mut item.description),
        ("notes", &mut item.notes),
        ("outcome", &mut item.outcome),
        ("verification", &mut item.verification),
        ("verification_result", &mut item.verification_result),
    ] {
        let Some(t) = text else { continue };
        if t.contains('\0') {
            *t = t.replace('\0', "");
            report.changed("a NUL character (U+0000) removed", at.clone());
        }
        if t.chars().count() > MAX_TEXT {
            *t = t.chars().take(MAX_TEXT).collect();
            report.changed(format!("{name} cut to {MAX_TEXT} characters"), at.clone());
        }
    }
    fit_budget(item, report);
    if item.status.is_closed() && item.outcome.as_deref().is_none_or(|o| o.trim().is_empty()) {
        item.outcome = Some(format!("{} before the import", item.status));
        report.changed(
            "a closed task without an outcome given \"done/canceled before the import\"",
            at.clone(),
        );
    }
    if let Some(agent) = item.assigned.clone()
        && !is_agent_id(&agent)
    {
        item.assigned = None;
        report.dropped(
            "an assignee that is no agent id",
            format!("{at}: {}", quote(&agent)),
        );
    }
    let mut refs = Vec::new();
    for r in std::mem::take(&mut item.refs) {
        if check_ref(&r).is_err() {
            report.dropped(
                "a ref no task may hold (its scheme or characters)",
                at.clone(),
            );
        } else if refs.len() >= MAX_REFS {
            report.dropped(format!("refs past {MAX_REFS}"), at.clone());
        } else {
            refs.push(r);
        }
    }
    item.refs = refs;
    fit_labels(item, &at, report);
    let mut deps = Vec::new();
    for d in std::mem::take(&mut item.depends_on) {
        match keys.get(&d) {
            None => {
                report.dropped(
                    "a dependency on an id not in the file",
                    format!("{at} → {d}"),
                );
            }
            Some(_) if d == item.key => {
                report.dropped("a dependency on itself", at.clone());
            }
            Some(target) if deps.len() >= MAX_DEPS => match target {
                Some(uri) if item.refs.len() < MAX_REFS => {
                    item.add_ref(uri.clone());
                    report.kept_as_ref(format!("dependencies past {MAX_DEPS}"), at.clone());
                }
                _ => report.dropped(format!("dependencies past {MAX_DEPS}"), at.clone()),
            },
            Some(_) => deps.push(d),
        }
    }
    item.depends_on = deps;
}

/// Makes each label keep the contract's rule (`contract::labels`): one
/// it breaks is made into one that keeps it, or dropped when nothing of
/// it is left; labels past the most a task carries are dropped.
fn fit_labels(item: &mut Item, at: &str, report: &mut Report) {
    let mut labels: Vec<String> = Vec::new();
    for given in std::mem::take(&mut item.labels) {
        let label = if check_label(&given).is_ok() {
            given
        } else if let Some(made) = label_from(&given) {
            report.changed(
                "a label made to keep the rule (letters, digits, - _ . : / @ + #; 64 characters)",
                format!("{at}: {}", quote(&given)),
            );
            made
        } else {
            report.dropped(
                "a label with no character a label may hold",
                format!("{at}: {}", quote(&given)),
            );
            continue;
        };
        if labels.contains(&label) {
            continue;
        }
        if labels.len() >= MAX_LABELS {
            report.dropped(format!("labels past {MAX_LABELS}"), at.to_string());
            continue;
        }
        labels.push(label);
    }
    item.labels = labels;
}

/// Cuts the longest texts until they fit the budget a task holds.
fn fit_budget(item: &mut Item, report: &mut Report) {
    let texts = |i: &Item| {
        [
            i.description.clone(),
            i.notes.clone(),
            i.outcome.clone(),
            i.verification.clone(),
            i.verification_result.clone(),
        ]
    };
    let mut cut = false;
    loop {
        let now = texts(item);
        let size = text_budget::size(now.each_ref().map(|t| t.as_deref()));
        if size <= text_budget::TASK_TEXT_BYTES {
            break;
        }
        cut = true;
        let fields = [
            &mut item.description,
            &mut item.notes,
            &mut item.outcome,
            &mut item.verification,
            &mut item.verification_result,
        ];
        let Some(longest) = fields
            .into_iter()
            .flatten()
            .max_by_key(|t| crate::text::json_str_len(t))
        else {
            break;
        };
        let keep = longest.chars().count() * 3 / 4;
        *longest = longest.chars().take(keep).collect();
    }
    if cut {
        report.changed(
            format!(
                "texts cut to the {} bytes of JSON a task holds",
                text_budget::TASK_TEXT_BYTES
            ),
            item.place(),
        );
    }
}

/// Reading a JSON object's fields with their path, so that a wrong one
/// is named in the error (`tasks[3].status must be a string`).
pub struct Fields<'a> {
    /// The object.
    pub map: &'a Map<String, Json>,
    /// Its path (`tasks[3]`, `line 4`).
    pub at: String,
}

impl<'a> Fields<'a> {
    /// The object `value` at `at`, or an error saying it is not one.
    pub fn of(value: &'a Json, at: impl Into<String>) -> ToolResult<Self> {
        let at = at.into();
        match value.as_object() {
            Some(map) => Ok(Fields { map, at }),
            None => Err(malformed(&at, "must be a JSON object", "")),
        }
    }

    /// The path of field `key`.
    pub fn path(&self, key: &str) -> String {
        if self.at.starts_with("line ") {
            format!("{}: {key}", self.at)
        } else {
            format!("{}.{key}", self.at)
        }
    }

    /// An optional string field (null and absent: none).
    pub fn str(&self, key: &str) -> ToolResult<Option<&'a str>> {
        match self.map.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) => Ok(Some(s)),
            Some(_) => Err(ToolError::invalid(
                format!("{} must be a string", self.path(key)),
                "",
            )),
        }
    }

    /// A non-empty string field, as an owned text (absent, null or blank: none).
    pub fn text(&self, key: &str) -> ToolResult<Option<String>> {
        Ok(self
            .str(key)?
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string))
    }

    /// A required string field.
    pub fn required(&self, key: &str) -> ToolResult<&'a str> {
        self.str(key)?
            .ok_or_else(|| ToolError::invalid(format!("{} is missing", self.path(key)), ""))
    }

    /// An optional array field (null and absent: empty).
    pub fn array(&self, key: &str) -> ToolResult<&'a [Json]> {
        match self.map.get(key) {
            None | Some(Json::Null) => Ok(&[]),
            Some(Json::Array(a)) => Ok(a),
            Some(_) => Err(ToolError::invalid(
                format!("{} must be an array", self.path(key)),
                "",
            )),
        }
    }

    /// An id field, a string or an integer, as text.
    pub fn id(&self, key: &str) -> ToolResult<String> {
        match self.map.get(key) {
            Some(Json::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
            Some(Json::Number(n)) => Ok(n.to_string()),
            _ => Err(ToolError::invalid(
                format!("{} must be a non-empty string or a number", self.path(key)),
                "",
            )),
        }
    }
}

/// `a` and `b` joined by a blank line, either may be missing.
pub fn join(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a}\n\n{b}")),
        (a, b) => a.or(b),
    }
}
