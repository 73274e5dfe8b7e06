//! Snapshot tests of the views, driven through the real tools on a real
//! SQLite store with the test clock. Ids are random, so every id a fixture
//! makes is replaced in the output by a stable one of the same length
//! (`task_…TASK01`), and layouts stay exactly as they were drawn.
//!
//! Snapshots show styles as markers: text in the `text` style is bare,
//! any other style reads `[accent]Sprint 12[/]`.

mod approval;
mod commands;
mod complete;
mod memory;
mod widget;

use serde_json::{Value, json};

use crate::bindings::{Line, Style};
use crate::context::CallContext;
use crate::render::fmt;
use crate::store::{Store, StoreError, Tx};
use crate::testing::Harness;

/// The workspace every fixture context works in (the harness's own).
pub(super) const WORKSPACE: &str = "/repo";

/// A harness plus the ids it handed out, for stable output.
pub(super) struct Fixture {
    /// The store and clock.
    pub h: Harness,
    /// Real id → stable id, in creation order.
    ids: Vec<(String, String)>,
}

impl Fixture {
    /// A fresh database at 2026-11-30T12:00Z.
    pub fn new() -> Self {
        Fixture {
            h: Harness::default(),
            ids: Vec::new(),
        }
    }

    /// Remembers `real` under a stable id of the same shape.
    fn name(&mut self, real: &str, tag: &str) {
        let n = self
            .ids
            .iter()
            .filter(|(r, _)| r.starts_with(&real[..5]))
            .count()
            + 1;
        let (prefix, _) = real.split_once('_').unwrap_or(("x", ""));
        let tail = format!("{tag}{n:02}");
        let fake = format!("{prefix}_{tail:0>26}");
        self.ids.push((real.to_string(), fake));
    }

    /// A list made by `agent` with extra `create` params.
    pub fn list(&mut self, agent: &str, name: &str, extra: Value) -> String {
        let mut params = json!({"name": name, "scope_type": "workspace"});
        if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        let d = self.h.ok(agent, "task_lists", "create", params);
        let id = d["list"]["id"].as_str().unwrap().to_string();
        self.name(&id, "LIST");
        self.h.advance_secs(1);
        id
    }

    /// Tasks added by `agent` to `list`, in order.
    pub fn tasks(&mut self, agent: &str, list: &str, titles: &[&str]) -> Vec<String> {
        let tasks: Vec<Value> = titles.iter().map(|t| json!({"title": t})).collect();
        let d = self.h.ok(
            agent,
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": tasks}),
        );
        let ids: Vec<String> = d["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect();
        for id in &ids {
            self.name(id, "TASK");
        }
        self.h.advance_secs(1);
        ids
    }

    /// `agent` claims the next task of `list`; its id.
    pub fn claim(&self, agent: &str, list: &str) -> String {
        let d = self
            .h
            .ok(agent, "task_claims", "claim_next", json!({"list_id": list}));
        d["task"]["id"].as_str().unwrap().to_string()
    }

    /// `task_items update` by `agent`.
    pub fn update(&self, agent: &str, task: &str, fields: Value) {
        let mut params = json!({"task_id": task});
        if let (Some(p), Some(e)) = (params.as_object_mut(), fields.as_object()) {
            p.extend(e.clone());
        }
        self.h.ok(agent, "task_items", "update", params);
    }

    /// `text` with every known id (full and short) replaced by its stable
    /// twin.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (real, fake) in &self.ids {
            out = out.replace(real, fake);
            out = out.replace(&fmt::short_id(real), &fmt::short_id(fake));
        }
        out
    }

    /// Lines as snapshot text (styles as markers), ids made stable.
    pub fn show(&self, lines: &[Line]) -> String {
        self.redact(&styled(lines))
    }
}

/// The call context of `agent` in the fixtures' workspace and thread.
pub(super) fn ctx(agent: Option<&str>) -> CallContext {
    CallContext {
        agent_id: agent.map(String::from),
        agent_pinned: false,
        workspace: Some(WORKSPACE.into()),
        thread: Some("thread-1".into()),
        person: None,
    }
}

/// The snapshot name of a style.
fn style_name(s: Style) -> &'static str {
    match s {
        Style::Text => "text",
        Style::Accent => "accent",
        Style::Muted => "muted",
        Style::Success => "success",
        Style::Warning => "warning",
        Style::Error => "error",
        Style::Strong => "strong",
    }
}

/// Lines with their styles as `[style]…[/]` markers (plain text bare).
pub(super) fn styled(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|l| {
            l.iter()
                .map(|s| match s.style {
                    Style::Text => s.text.clone(),
                    st => format!("[{}]{}[/]", style_name(st), s.text),
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts that no raw control, C1 or bidirectional character reaches a
/// screen through `lines`.
pub(super) fn assert_clean(lines: &[Line]) {
    for span in lines.iter().flatten() {
        for c in span.text.chars() {
            assert!(
                !c.is_control() && !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'),
                "raw {c:?} in {:?}",
                span.text
            );
        }
    }
}

/// Asserts every line fits in `width` display columns.
pub(super) fn assert_width(lines: &[Line], width: usize) {
    for l in lines {
        let w: usize = l.iter().map(|s| fmt::width(&s.text)).sum();
        assert!(
            w <= width,
            "{w} > {width}: {}",
            styled(std::slice::from_ref(l))
        );
    }
}

/// Titles and names that try to drive a terminal or reorder text: ESC
/// (colors, clear screen), a C1 CSI, an OSC title change, a C1 NEL, and
/// bidi overrides.
pub(super) const NASTY: &str = "\u{1b}[31mred\u{1b}[0m \u{9b}2J \u{1b}]0;pwned\u{7} \u{85}next \u{202e}evil\u{202c} \u{2066}iso\u{2069}";

/// A store whose every transaction fails, as a locked or vanished
/// database does.
pub(super) struct BrokenStore;

impl Store for BrokenStore {
    fn begin(&self, _write: bool) -> Result<Box<dyn Tx + '_>, StoreError> {
        Err(StoreError::Busy("database is locked".into()))
    }
}

/// The view queries read indexes, never a whole table: the widget runs
/// them after every tool call and whenever another process writes.
#[test]
fn view_queries_use_indexes() {
    use crate::views::read::Viewer;
    let mut f = Fixture::new();
    let l = f.list("planner", "Work", json!({}));
    f.tasks("planner", &l, &["a", "b"]);
    let c = ctx(Some("me"));
    let viewer = Viewer::new(&c, &f.h.clock).unwrap();
    let plans = crate::views::read::read(&f.h.store, |tx| {
        let mut plans = Vec::new();
        for (sql, args) in crate::views::visible::queries(&viewer, &l) {
            let rows = tx.query(&format!("EXPLAIN QUERY PLAN {sql}"), &args)?.rows;
            let plan: Vec<String> = rows
                .iter()
                .filter_map(|r| r.last().and_then(|v| v.as_str()).map(str::to_string))
                .collect();
            plans.push((sql, plan));
        }
        Ok(plans)
    })
    .unwrap();
    for (sql, plan) in plans {
        for step in &plan {
            let full_scan = (step.starts_with("SCAN lists")
                || step.starts_with("SCAN tasks")
                || step.starts_with("SCAN t")
                || step.starts_with("SCAN l"))
                && !step.contains("USING");
            assert!(!full_scan, "{step} in the plan of {sql}: {plan:?}");
        }
    }
}
