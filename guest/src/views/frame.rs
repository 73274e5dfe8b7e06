//! The widget's rounded frame: as wide as its widest line, never wider than
//! the terminal, each line cut (display-width aware) rather than wrapped.

use crate::render::fmt;
use crate::render::{Line, LineBuf, Style};

/// Columns the frame itself takes on each line: `│ ` and ` │`.
pub(crate) const BORDER: usize = 4;

/// Most lines a widget may have, frame included: Pi shows ten lines of a
/// widget and then truncates it itself, which the widget must never cause.
pub(crate) const MAX_LINES: usize = 10;

/// Content lines that fit inside the frame.
pub(crate) const MAX_CONTENT: usize = MAX_LINES - 2;

/// `line` cut to `max` columns (with `…` when cut).
pub(crate) fn fit(line: &Line, max: usize) -> Line {
    let mut l = LineBuf::new();
    l.extend(line).truncate(max);
    l.finish()
}

/// Display width of a line.
pub(crate) fn line_width(line: &Line) -> usize {
    line.iter().map(|s| fmt::width(&s.text)).sum()
}

/// `content` in a frame titled `title`, at most `width` columns wide:
/// `╭─ title ──╮`, `│ line │`, `╰───╯`.
pub(crate) fn frame(title: &str, content: &[Line], width: usize) -> Vec<Line> {
    let inner_max = width.saturating_sub(BORDER).max(1);
    let body: Vec<Line> = content.iter().map(|l| fit(l, inner_max)).collect();
    let widest = body.iter().map(line_width).max().unwrap_or(0);
    // The top border holds `─ title ` and at least one more `─`.
    let title = fmt::truncate(title, inner_max.saturating_sub(2));
    let inner = widest.max(fmt::width(&title) + 2).min(inner_max);
    let mut lines = Vec::with_capacity(body.len() + 2);

    let mut top = LineBuf::new();
    let rule = inner.saturating_sub(fmt::width(&title) + 1);
    top.push("╭─ ", Style::Muted)
        .push(&title, Style::Accent)
        .push(format!(" {}╮", "─".repeat(rule)), Style::Muted);
    lines.push(top.finish());
    for l in &body {
        let mut row = LineBuf::new();
        let pad = inner.saturating_sub(line_width(l));
        row.push("│ ", Style::Muted)
            .extend(l)
            .push(" ".repeat(pad), Style::Text)
            .push(" │", Style::Muted);
        lines.push(row.finish());
    }
    let mut bottom = LineBuf::new();
    bottom.push(format!("╰{}╯", "─".repeat(inner + 2)), Style::Muted);
    lines.push(bottom.finish());
    lines
}
