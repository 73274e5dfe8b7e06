//! Human renderers: every action's result ([`Render`], implemented for the
//! action's type), every error and every call, as lines of styled spans.
//!
//! The model never sees these lines (it gets full ids and the JSON data); a
//! person reading a terminal does, so ids are shortened, JSON is hidden and
//! columns are aligned. Renderers are pure functions from data to lines, and
//! they never panic: a missing or odd field falls back to a default, and data
//! that does not have the expected shape at all falls back to a generic
//! key/value view, so a host can always show *something*.

mod action;
pub(crate) mod audit;
mod call_line;
pub(crate) mod claims;
pub(crate) mod fmt;
mod generic;
pub(crate) mod help;
pub(crate) mod items;
pub(crate) mod lists;
pub(crate) mod table;
pub(crate) mod task;
#[cfg(test)]
mod tests;

use crate::error::ToolError;
use serde_json::Value;

/// Style tokens, spans and lines are the WIT `ui` types: hosts map each
/// style to their own colors (Pi theme, ANSI, plain).
pub use crate::bindings::{Line, Span, Style};

pub use action::{Headline, Render, render_as};
pub use generic::render as generic_view;

/// Renders a failed call: code + message in the error style, then the hint (muted) if non-empty.
pub fn render_error(err: &ToolError) -> Vec<Line> {
    let mut lines = Vec::new();
    // Messages may span several lines (e.g. a list of valid actions): keep
    // their breaks rather than squashing them, each continuation indented.
    let mut message = err.message.lines().filter(|l| !l.trim().is_empty());
    let mut first = LineBuf::new();
    first
        .push("✗ ", Style::Error)
        .push(err.code.as_str(), Style::Error);
    if let Some(head) = message.next() {
        first
            .push(": ", Style::Error)
            .push(head.trim_end(), Style::Error);
    }
    lines.push(first.finish());
    for more in message {
        let mut l = LineBuf::new();
        l.push("  ", Style::Text)
            .push(more.trim_end(), Style::Error);
        lines.push(l.finish());
    }
    let mut hint = err.hint.lines().filter(|l| !l.trim().is_empty());
    if let Some(head) = hint.next() {
        let mut l = LineBuf::new();
        l.push("  hint: ", Style::Muted)
            .push(head.trim_end(), Style::Muted);
        lines.push(l.finish());
        for more in hint {
            let mut l = LineBuf::new();
            l.push("        ", Style::Text)
                .push(more.trim_end(), Style::Muted);
            lines.push(l.finish());
        }
    }
    lines
}

/// Renders the call itself in ONE line: tool, action, key params (list/task id shortened, title, status…).
pub fn render_call(tool: &str, action: &str, params: &Value) -> Vec<Line> {
    vec![call_line::line(tool, action, params)]
}

/// Largest params or result text the renderers parse: what a host lets
/// through to a call (4 MiB). Parsing a larger, deeply nested text could
/// take the component past its memory cap, and a view never shows that
/// much anyway.
pub const INPUT_MAX_BYTES: usize = 4 << 20;

/// The JSON a renderer is given, parsed; `null` (the call line without
/// params, the generic view) when it is broken or over [`INPUT_MAX_BYTES`].
pub fn parse_input(json: &str) -> Value {
    if json.len() > INPUT_MAX_BYTES {
        return Value::Null;
    }
    serde_json::from_str(json).unwrap_or(Value::Null)
}

/// Plain text of lines (spans concatenated, lines joined with '\n'), for tests.
#[cfg(test)]
pub fn to_plain(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|line| line.iter().map(|s| s.text.as_str()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Builds one line span by span. Every renderer goes through it, so text is
/// always made single-line (control characters become spaces), empty spans
/// are dropped and neighbours of the same style are merged: hosts get few,
/// clean spans.
#[derive(Debug, Default)]
pub(crate) struct LineBuf {
    spans: Vec<Span>,
}

impl LineBuf {
    /// An empty line.
    pub(crate) fn new() -> Self {
        LineBuf { spans: Vec::new() }
    }

    /// Appends text in a style.
    pub(crate) fn push(&mut self, text: impl AsRef<str>, style: Style) -> &mut Self {
        let text = fmt::one_line(text.as_ref());
        if text.is_empty() {
            return self;
        }
        match self.spans.last_mut() {
            Some(last) if last.style == style => last.text.push_str(&text),
            _ => self.spans.push(Span { text, style }),
        }
        self
    }

    /// Appends already-built spans (e.g. a table cell).
    pub(crate) fn extend(&mut self, spans: &[Span]) -> &mut Self {
        for s in spans {
            self.push(&s.text, s.style);
        }
        self
    }

    /// Display width so far, in terminal columns.
    pub(crate) fn width(&self) -> usize {
        self.spans.iter().map(|s| fmt::width(&s.text)).sum()
    }

    /// True when nothing was pushed.
    pub(crate) fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Cuts the line to at most `max` columns, ending with `…` when cut, so a
    /// one-line view stays one line even with huge parameters.
    pub(crate) fn truncate(&mut self, max: usize) -> &mut Self {
        if self.width() <= max {
            return self;
        }
        let mut kept: Vec<Span> = Vec::new();
        let mut used = 0;
        let budget = max.saturating_sub(1);
        for s in self.spans.drain(..) {
            let w = fmt::width(&s.text);
            if used + w <= budget {
                used += w;
                kept.push(s);
                continue;
            }
            let cut = fmt::take_width(&s.text, budget.saturating_sub(used));
            let style = s.style;
            if !cut.is_empty() {
                kept.push(Span { text: cut, style });
            }
            match kept.last_mut() {
                Some(last) => last.text.push('…'),
                None => kept.push(Span {
                    text: "…".into(),
                    style,
                }),
            }
            break;
        }
        self.spans = kept;
        self
    }

    /// The finished line, without trailing blanks (a padded cell at the end
    /// of a row must not leave spaces behind).
    pub(crate) fn finish(mut self) -> Line {
        while let Some(last) = self.spans.last_mut() {
            let trimmed = last.text.trim_end().len();
            if trimmed == 0 {
                self.spans.pop();
            } else {
                last.text.truncate(trimmed);
                break;
            }
        }
        self.spans
    }
}

/// A one-span line: the common case for headers and notices.
pub(crate) fn line(text: impl AsRef<str>, style: Style) -> Line {
    let mut l = LineBuf::new();
    l.push(text, style);
    l.finish()
}
