//! Status badges: the symbol, word and style of a task status.

use super::truncate;
use crate::render::{Span, Style};

/// How a task status is shown: symbol, word and style. `in_progress` reads
/// `run` and `blocked` reads `paused` (the widget's words). The list
/// counters ([`super::counters`]) keep the wire word `blocked`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Badge {
    /// One-column symbol.
    pub symbol: &'static str,
    /// Short word.
    pub label: String,
    /// Style of both.
    pub style: Style,
}

impl Badge {
    /// `symbol label` as one span.
    pub(crate) fn span(&self) -> Span {
        Span {
            text: format!("{} {}", self.symbol, self.label),
            style: self.style,
        }
    }
}

/// The badge of a wire status; unknown values stay readable, muted.
pub(crate) fn status(s: &str) -> Badge {
    let (symbol, label, style) = match s {
        "todo" => ("○", "todo", Style::Text),
        "in_progress" => ("▶", "run", Style::Accent),
        "blocked" => ("⏸", "paused", Style::Warning),
        "done" => ("✓", "done", Style::Success),
        "canceled" => ("✗", "canceled", Style::Muted),
        other => {
            return Badge {
                symbol: "?",
                label: truncate(other, 12),
                style: Style::Muted,
            };
        }
    };
    Badge {
        symbol,
        label: label.to_string(),
        style,
    }
}

/// The badge of a task: its status's, or what it waits on a person for
/// (`? asks`, `◆ review`) when it does: a view names the wait, not a
/// bare `paused`.
pub(crate) fn task_badge(wire: &str, waits: Option<crate::waits::WaitsOn>) -> Badge {
    use crate::waits::WaitsOn;
    let (symbol, label) = match waits {
        Some(WaitsOn::Answer) => ("?", "asks"),
        Some(WaitsOn::Review) => ("◆", "review"),
        None => return status(wire),
    };
    Badge {
        symbol,
        label: label.to_string(),
        style: Style::Warning,
    }
}
