//! The priority mark: one column before a title, only when the priority
//! is not the default (`medium`), so most rows look as they always did.

use crate::model::Priority;
use crate::render::{Span, Style};

/// `↑` (high) or `↓` (low) and its style; None for medium.
pub(crate) fn priority(p: Priority) -> Option<Span> {
    let (text, style) = match p {
        Priority::High => ("↑", Style::Warning),
        Priority::Medium => return None,
        Priority::Low => ("↓", Style::Muted),
    };
    Some(Span {
        text: text.into(),
        style,
    })
}

/// The mark of a task's JSON priority (absent: medium).
pub(crate) fn priority_of(p: Option<Priority>) -> Option<Span> {
    priority(p.unwrap_or_default())
}
