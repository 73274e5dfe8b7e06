//! The collapsed form of a reply, for a transcript: placeholder.

use super::{Line, render_reply};

/// The collapsed reply.
pub(crate) fn render(tool: &str, arguments: &str, reply: &crate::glue::ToolReply) -> Vec<Line> {
    render_reply(tool, arguments, reply)
        .into_iter()
        .take(1)
        .collect()
}
