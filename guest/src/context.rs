//! Who is calling: the host's call context plus `params.agent_id`, resolved
//! into the one effective identity an action runs as.

use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::ids::{AGENT_ID_RULE, is_agent_id};
use crate::text::quote;

pub use crate::bindings::CallContext;

/// No identity, no workspace, no thread.
impl Default for CallContext {
    fn default() -> Self {
        CallContext {
            agent_id: None,
            agent_pinned: false,
            workspace: None,
            thread: None,
            person: None,
        }
    }
}

/// Resolves the effective agent id from the host default and `params.agent_id`.
/// A host never invents an identity, so `None` means anonymous.
pub fn effective_agent(ctx: &CallContext, param: Option<&str>) -> ToolResult<Option<String>> {
    // A blank host identity is no identity (hosts pass what they were given).
    let host = ctx
        .agent_id
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty());
    // The host's identity obeys the rule params.agent_id obeys, checked
    // whenever it would be used: an id the contract forbids never reaches
    // the store through a flag or an environment variable.
    if let Some(h) = host
        && (param.is_none() || ctx.agent_pinned)
        && !is_agent_id(h)
    {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!(
                "the host's agent id {} is not a valid agent id ({AGENT_ID_RULE})",
                quote(h)
            ),
            "restart the host with a valid --agent-id / TASKLISTS_AGENT_ID, or pass params.agent_id",
        ));
    }
    match (param, host) {
        (Some(p), h) if ctx.agent_pinned && Some(p) != h => Err(ToolError::new(
            ErrorCode::Forbidden,
            match h {
                Some(h) => format!(
                    "this host is pinned to agent {}; params.agent_id {} is not allowed",
                    quote(h),
                    quote(p)
                ),
                None => format!(
                    "this host is pinned to no identity; params.agent_id {} is not allowed",
                    quote(p)
                ),
            },
            "omit agent_id, or pass the pinned id",
        )),
        (Some(p), _) => Ok(Some(p.to_string())),
        (None, Some(h)) => Ok(Some(h.to_string())),
        (None, None) => Ok(None),
    }
}

/// The identity, or `agent_required` naming the action that needs it.
pub fn require_agent(agent: &Option<String>, what: impl std::fmt::Display) -> ToolResult<&str> {
    agent.as_deref().ok_or_else(|| {
        ToolError::new(
            ErrorCode::AgentRequired,
            format!("{what} needs an agent identity and none was given"),
            "pass params.agent_id, or start the host with --agent-id / TASKLISTS_AGENT_ID",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::MAX_AGENT_ID;

    fn ctx(agent: Option<&str>, pinned: bool) -> CallContext {
        CallContext {
            agent_id: agent.map(String::from),
            agent_pinned: pinned,
            ..Default::default()
        }
    }

    #[test]
    fn param_overrides_unless_pinned() {
        assert_eq!(
            effective_agent(&ctx(Some("a"), false), Some("b"))
                .unwrap()
                .as_deref(),
            Some("b")
        );
        assert_eq!(
            effective_agent(&ctx(Some("a"), true), Some("a"))
                .unwrap()
                .as_deref(),
            Some("a")
        );
        let e = effective_agent(&ctx(Some("a"), true), Some("b")).unwrap_err();
        assert_eq!(e.code, ErrorCode::Forbidden);
        assert_eq!(effective_agent(&ctx(None, false), None).unwrap(), None);
        assert_eq!(
            effective_agent(&ctx(None, true), Some("b"))
                .unwrap_err()
                .code,
            ErrorCode::Forbidden
        );
        assert_eq!(
            effective_agent(&ctx(Some("  "), false), None).unwrap(),
            None
        );
    }

    #[test]
    fn the_rule_in_words_names_the_limit() {
        assert!(AGENT_ID_RULE.starts_with(&format!("1 to {MAX_AGENT_ID} characters")));
    }

    #[test]
    fn a_bad_host_identity_is_refused_when_used() {
        let long = "x".repeat(10_000);
        for bad in ["bad\nid", "me\u{202e}", "zero\u{200b}width", long.as_str()] {
            let e = effective_agent(&ctx(Some(bad), false), None).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidParams, "{bad:?}");
            assert!(e.message.contains("host's agent id"), "{}", e.message);
            // The bad id is quoted (escaped, at most 200 characters), the
            // rule spelled out.
            assert!(
                e.message.contains(&crate::text::quote(bad)),
                "{}",
                e.message
            );
            assert!(e.message.chars().count() < 500, "{}", e.message);
            assert!(!e.message.contains(['\n', '\u{202e}', '\u{200b}']));
            // params.agent_id replaces it, unless the host is pinned to it.
            assert_eq!(
                effective_agent(&ctx(Some(bad), false), Some("ok"))
                    .unwrap()
                    .as_deref(),
                Some("ok")
            );
            let e = effective_agent(&ctx(Some(bad), true), Some(bad)).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidParams);
        }
    }
}
