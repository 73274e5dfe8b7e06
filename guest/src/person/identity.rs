//! Who the person is: `ctx.person`, given explicitly by a flag or an
//! environment variable and never invented. Without one, a person's
//! surface is read-only.

use crate::context::CallContext;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::ids::{AGENT_ID_RULE, is_agent_id};
use crate::text::quote;

/// What a person's surface says when it has no person to act as: the
/// environment variable every host reads, and each host's own flag.
pub(crate) const NO_PERSON_HINT: &str = "name yourself: TASKLISTS_PERSON, or your host's flag \
     (tasklists --person NAME, pi --tasklists-person NAME); the name audits your actions";

/// The person of `ctx` (obeying the agent-id rule), or why not: `what`
/// names the action that needs one.
pub(crate) fn person<'a>(ctx: &'a CallContext, what: &str) -> ToolResult<&'a str> {
    // A blank name is no name (hosts pass what they were given).
    let Some(name) = ctx.person.as_deref().filter(|p| !p.trim().is_empty()) else {
        return Err(ToolError::new(
            ErrorCode::AgentRequired,
            format!(
                "{what} is a person's action, and no person was given: this surface is read-only"
            ),
            NO_PERSON_HINT,
        ));
    };
    if !is_agent_id(name) {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!(
                "the person's name {} is not a valid name ({AGENT_ID_RULE})",
                quote(name)
            ),
            "start it again with a valid name: TASKLISTS_PERSON, or your host's flag \
             (tasklists --person NAME, pi --tasklists-person NAME)",
        ));
    }
    Ok(name)
}

/// Whether `ctx` has a person who may act (the dashboard shows its write
/// keys only then).
pub(crate) fn can_act(ctx: &CallContext) -> bool {
    person(ctx, "").is_ok()
}
