//! The board's search and filters, read from the page's address (`q`,
//! `assignee`, `priority`, `status`, `label`, `running`, `needs`): what
//! they mean (as SQL over `tasks`), how the page names them, and the
//! address that keeps them. Every filter given narrows (they AND
//! together); an empty value filters nothing (a cleared field of the
//! search form); a value that means nothing is refused with the words
//! of what it may be, before anything is read.
//!
//! The search form itself is `find.rs`; the board (`board.rs`) and the
//! overview (`overview.rs`) apply the same [`Filter`].

use super::route::{Pairs, encode};
use crate::contract::labels::{LABELS_RULE, check_label};
use crate::error::{ToolError, ToolResult};
use crate::ids::{AGENT_ID_RULE, is_agent_id};
use crate::model::{Priority, Status, carries_any_label, label_mark};
use crate::store::Value;
use crate::text::quote;

/// Longest search text, in characters.
pub(crate) const MAX_Q: usize = 200;

/// Most words a search matches (each must be found).
pub(crate) const MAX_WORDS: usize = 10;

/// The statuses a `status=` may name: the board's columns, then the
/// contract's own names.
pub(crate) const STATUSES: [(&str, &[Status]); 8] = [
    ("todo", &[Status::Todo]),
    ("running", &[Status::InProgress]),
    ("paused", &[Status::Blocked]),
    ("closed", &[Status::Done, Status::Canceled]),
    ("in_progress", &[Status::InProgress]),
    ("blocked", &[Status::Blocked]),
    ("done", &[Status::Done]),
    ("canceled", &[Status::Canceled]),
];

/// How many of the [`STATUSES`] the search form offers (the columns).
pub(crate) const COLUMN_STATUSES: usize = 4;

/// The filters of a page, as read from its address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Filter {
    /// The search text as typed (trimmed; empty: none).
    pub q: String,
    /// Its words, lowercased: each must be found in the title, the
    /// description, the notes or the outcome.
    pub words: Vec<String>,
    /// The agent a task is assigned to or held by (without a leading `@`).
    pub assignee: Option<String>,
    /// The priority.
    pub priority: Option<Priority>,
    /// The status, as named in [`STATUSES`].
    pub status: Option<&'static str>,
    /// A label the task carries.
    pub label: Option<String>,
    /// Only tasks held now under a live lease.
    pub running: bool,
    /// Only tasks that need a person: a question to answer, a finish to
    /// review, an approval to give.
    pub needs: bool,
}

impl Filter {
    /// The filters of `query`; a value that means nothing is refused.
    pub(crate) fn read(query: &Pairs) -> ToolResult<Filter> {
        let given = |name: &str| query.get(name).map(str::trim).filter(|v| !v.is_empty());
        let mut f = Filter::default();
        if let Some(q) = given("q") {
            if q.chars().count() > MAX_Q {
                return Err(refused(
                    format!("the search is {} characters long", q.chars().count()),
                    format!("search with at most {MAX_Q} characters: a few words"),
                ));
            }
            let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
            if words.len() > MAX_WORDS {
                return Err(refused(
                    format!("the search has {} words", words.len()),
                    format!("search with at most {MAX_WORDS} words: every word must match"),
                ));
            }
            f.q = q.to_string();
            f.words = words;
        }
        if let Some(a) = given("assignee") {
            let a = a.strip_prefix('@').unwrap_or(a);
            if !is_agent_id(a) {
                return Err(refused(
                    format!("the assignee filter {} is no agent id", quote(a)),
                    format!("agent ids: {AGENT_ID_RULE}"),
                ));
            }
            f.assignee = Some(a.to_string());
        }
        if let Some(p) = given("priority") {
            f.priority = Some(Priority::parse(p).ok_or_else(|| {
                refused(
                    format!("the priority filter {} is no priority", quote(p)),
                    "priority=high, medium or low",
                )
            })?);
        }
        if let Some(s) = given("status") {
            let named = STATUSES
                .iter()
                .find(|(name, _)| *name == s)
                .ok_or_else(|| {
                    let names: Vec<&str> = STATUSES.iter().map(|(n, _)| *n).collect();
                    refused(
                        format!("the status filter {} is no status", quote(s)),
                        format!("status={}", names.join(", ")),
                    )
                })?;
            f.status = Some(named.0);
        }
        if let Some(l) = given("label") {
            check_label(l).map_err(|why| {
                refused(
                    format!("the label filter: {why}"),
                    format!("labels: {LABELS_RULE}; or open the board without ?label"),
                )
            })?;
            f.label = Some(l.to_string());
        }
        f.running = switch(query, "running", "only the tasks running now")?;
        f.needs = switch(query, "needs", "only the tasks that need a person")?;
        Ok(f)
    }

    /// Whether it filters anything.
    pub(crate) fn is_empty(&self) -> bool {
        self == &Filter::default()
    }

    /// Whether it filters anything but a label (the label alone keeps the
    /// board's older words).
    pub(crate) fn only_label(&self) -> bool {
        self.label.is_some()
            && Filter {
                label: None,
                ..self.clone()
            }
            .is_empty()
    }

    /// The statuses `status=` names.
    pub(crate) fn statuses(&self) -> Option<&'static [Status]> {
        let name = self.status?;
        STATUSES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
    }

    /// The address's part that keeps these filters (`q=…&label=…`, no
    /// leading `&`; empty when none).
    pub(crate) fn query(&self) -> String {
        self.pairs(true).join("&")
    }

    /// [`Self::query`] without the label: a card's label link sets its own.
    pub(crate) fn query_without_label(&self) -> String {
        self.pairs(false).join("&")
    }

    fn pairs(&self, label: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut push = |name: &str, value: &str| out.push(format!("{name}={}", encode(value)));
        if !self.q.is_empty() {
            push("q", &self.q);
        }
        if let Some(a) = &self.assignee {
            push("assignee", a);
        }
        if let Some(p) = self.priority {
            push("priority", p.as_str());
        }
        if let Some(s) = self.status {
            push("status", s);
        }
        if let (true, Some(l)) = (label, &self.label) {
            push("label", l);
        }
        if self.running {
            push("running", "1");
        }
        if self.needs {
            push("needs", "1");
        }
        out
    }

    /// What the page says it shows, one phrase a filter, in the order the
    /// form asks them: `labeled backend`, `matching “api db”`, ….
    pub(crate) fn phrases(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(l) = &self.label {
            out.push(format!("labeled {l}"));
        }
        if !self.q.is_empty() {
            out.push(format!("matching {}", quote(&self.q)));
        }
        if let Some(a) = &self.assignee {
            out.push(format!("assigned to or held by @{a}"));
        }
        if let Some(p) = self.priority {
            out.push(format!("of {p} priority"));
        }
        if let Some(s) = self.status {
            out.push(format!("with status {s}"));
        }
        if self.running {
            out.push("running now".into());
        }
        if self.needs {
            out.push("needing a person".into());
        }
        out
    }

    /// The SQL conditions over `tasks` (unaliased), each ` AND (…)`,
    /// their values pushed on `args` (numbered `?N` after those already
    /// there); `now` for a live lease.
    pub(crate) fn sql(&self, args: &mut Vec<Value>, now: i64) -> String {
        let mut bind = |v: Value| {
            args.push(v);
            format!("?{}", args.len())
        };
        let mut sql = String::new();
        for word in &self.words {
            let p = bind(Value::from(format!("%{}%", escape_like(word))));
            let any: Vec<String> = ["title", "description", "notes", "outcome"]
                .iter()
                .map(|c| format!("LOWER({c}) LIKE {p} ESCAPE '\\'"))
                .collect();
            sql.push_str(&format!(" AND ({})", any.join(" OR ")));
        }
        if let Some(a) = &self.assignee {
            let a = bind(Value::from(a.as_str()));
            sql.push_str(&format!(
                " AND (assigned_to_agent_id = {a} OR (status = 'in_progress' AND claimed_by_agent_id = {a}))"
            ));
        }
        if let Some(p) = self.priority {
            sql.push_str(&format!(
                " AND priority = {}",
                bind(Value::Integer(p.rank()))
            ));
        }
        if let Some(statuses) = self.statuses() {
            let names: Vec<String> = statuses
                .iter()
                .map(|s| bind(Value::from(s.as_str())))
                .collect();
            sql.push_str(&format!(" AND status IN ({})", names.join(", ")));
        }
        if let Some(l) = &self.label {
            let nl = bind(Value::from("\n"));
            let mark = bind(Value::from(label_mark(l)));
            sql.push_str(&format!(
                " AND {}",
                carries_any_label("labels", &[mark], &nl)
            ));
        }
        if self.running {
            let now = bind(Value::Integer(now));
            sql.push_str(&format!(
                " AND (status = 'in_progress' AND claimed_by_agent_id IS NOT NULL AND claim_expires_at > {now})"
            ));
        }
        if self.needs {
            // As the inbox asks a person: a question, a finish to review,
            // a task added after approval, an open task of a plan pending.
            sql.push_str(
                " AND (waits_on IS NOT NULL OR awaits_approval = 1 OR (status NOT IN ('done', 'canceled') \
                 AND EXISTS (SELECT 1 FROM lists pl WHERE pl.id = tasks.list_id AND pl.approval = 'pending')))",
            );
        }
        sql
    }
}

/// `running=1` or `needs=1` (`0` or empty: off); anything else refused.
fn switch(query: &Pairs, name: &str, what: &str) -> ToolResult<bool> {
    match query.get(name).map(str::trim) {
        None | Some("" | "0") => Ok(false),
        Some("1") => Ok(true),
        Some(other) => Err(refused(
            format!("the {name} filter {} means nothing", quote(other)),
            format!("{name}=1 shows {what}; leave it out to show every task"),
        )),
    }
}

/// `invalid_params` for a filter of the address.
fn refused(message: impl Into<String>, hint: impl Into<String>) -> ToolError {
    ToolError::invalid(message, hint)
}

/// `s` with LIKE's wildcards and escape character escaped (`\`).
fn escape_like(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
