//! What every import format parses into: a [`Plan`] of [`Item`]s, in the
//! order they become tasks, each naming where it came from (a line, a
//! field) so that an error can say so. [`Plan::check`] applies the
//! contract's rules to every item before anything is written.

use std::collections::HashMap;

use serde_json::{Map, Value as Json};

use crate::contract::refs::{MAX_REFS, check_ref};
use crate::contract::{MAX_DEPS, MAX_TEXT};
use crate::error::{ToolError, ToolResult};
use crate::ids::{AGENT_ID_RULE, is_agent_id};
use crate::model::{Priority, Status};
use crate::text::quote;
use crate::text_budget;

/// Most tasks one import creates.
pub const MAX_IMPORT_TASKS: usize = 5_000;

/// One task to create.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Where it came from, for errors: `line 12`, `tasks[3]`.
    pub at: String,
    /// Its name in the file, which other items' `depends_on` use (an id,
    /// a line number); unique within the plan.
    pub key: String,
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
    /// The keys of the items it waits for.
    pub depends_on: Vec<String>,
}

impl Item {
    /// An item titled `title`, todo, medium, with nothing else.
    pub fn new(at: impl Into<String>, key: impl Into<String>, title: impl Into<String>) -> Self {
        Item {
            at: at.into(),
            key: key.into(),
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
            depends_on: Vec::new(),
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
}

/// A parsed file: the list name it suggests and its tasks, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    /// The name the file gives its list (a heading, a field), if any.
    pub name: Option<String>,
    /// The tasks, in the order they are created.
    pub items: Vec<Item>,
    /// What the parser changed on the way, said in the import's summary
    /// (in-progress tasks imported as todo, …).
    pub notes: Vec<String>,
}

/// A malformed input error: `at` (a line, a field) and what is wrong.
pub fn malformed(at: &str, why: impl std::fmt::Display, hint: impl Into<String>) -> ToolError {
    ToolError::invalid(format!("{at}: {why}"), hint)
}

impl Plan {
    /// Refuses the plan unless every item keeps the contract's rules:
    /// titles, texts, assignees, refs and dependencies (known keys, no
    /// cycle, at most 100 each); nothing is written before this passes.
    pub fn check(&self) -> ToolResult<()> {
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
        let mut keys: HashMap<&str, &str> = HashMap::new();
        for item in &self.items {
            if let Some(first) = keys.insert(&item.key, &item.at) {
                return Err(malformed(
                    &item.at,
                    format!("id {} is used again (first at {first})", quote(&item.key)),
                    "each task of the file needs its own id",
                ));
            }
        }
        for item in &self.items {
            check_item(item)?;
            for d in &item.depends_on {
                if !keys.contains_key(d.as_str()) {
                    return Err(malformed(
                        &item.at,
                        format!("depends on {}, which is not in the file", quote(d)),
                        "a dependency names another task of the same file",
                    ));
                }
            }
        }
        Ok(())
    }
}

fn check_item(item: &Item) -> ToolResult<()> {
    let at = item.at.as_str();
    let n = item.title.chars().count();
    if item.title.trim().is_empty() || n > 500 {
        return Err(malformed(
            at,
            format!("a title must be 1 to 500 characters (not blank), got {n}"),
            "shorten the title; longer text belongs in the description",
        ));
    }
    let texts = [
        ("description", &item.description),
        ("notes", &item.notes),
        ("outcome", &item.outcome),
        ("verification", &item.verification),
        ("verification_result", &item.verification_result),
    ];
    for (name, text) in texts {
        let Some(text) = text else { continue };
        if text.chars().count() > MAX_TEXT {
            return Err(malformed(
                at,
                format!("{name} is longer than {MAX_TEXT} characters"),
                "shorten it",
            ));
        }
    }
    let nul = item.title.contains('\0')
        || texts
            .iter()
            .any(|(_, t)| t.as_deref().is_some_and(|t| t.contains('\0')));
    if nul {
        return Err(malformed(
            at,
            "a text holds the NUL character (U+0000), which no store keeps",
            "remove it",
        ));
    }
    text_budget::check(
        &format!("{at}: "),
        [
            item.description.as_deref(),
            item.notes.as_deref(),
            item.outcome.as_deref(),
            item.verification.as_deref(),
            item.verification_result.as_deref(),
        ],
        0,
    )?;
    if let Some(agent) = item.assigned.as_deref()
        && !is_agent_id(agent)
    {
        return Err(malformed(
            at,
            format!(
                "assignee {} is not an agent id ({AGENT_ID_RULE})",
                quote(agent)
            ),
            "fix or remove the assignee",
        ));
    }
    if item.refs.len() > MAX_REFS {
        return Err(malformed(
            at,
            format!("{} refs; a task holds at most {MAX_REFS}", item.refs.len()),
            "keep the most useful links",
        ));
    }
    for r in &item.refs {
        check_ref(r)
            .map_err(|why| malformed(at, format!("ref {why}"), crate::contract::refs::REFS_RULE))?;
    }
    if item.depends_on.len() > MAX_DEPS {
        return Err(malformed(
            at,
            format!(
                "{} dependencies; a task waits for at most {MAX_DEPS}",
                item.depends_on.len()
            ),
            "",
        ));
    }
    Ok(())
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
