//! The contract's calling convention, owned by the component so that every
//! host carries calls the same way: the arguments exactly as the agent sent
//! them go in, and what the agent receives comes out (content text,
//! structured data, whether it is an error). A host never parses a request
//! nor words a reply, even for a call it could not finish ([`failed`]).

mod failure;

pub use crate::contract::{parse_arguments, unknown_tool};
pub use failure::{describe as describe_failure, failed};

use crate::actions::Output;
use crate::bindings::ToolReply;
use crate::clock::Clock;
use crate::context::CallContext;
use crate::contract::find_tool;
use crate::error::ToolResult;
use crate::registry::call_tool;
use crate::store::Store;
use crate::text::json_text;

/// Runs a call from the agent's own `arguments` (`{"action", "params"}`).
pub fn call(
    tool: &str,
    arguments: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolReply {
    let ctx = &for_tools(ctx);
    let result = check_tool(tool)
        .and_then(|()| parse_arguments(arguments))
        .and_then(|(action, params)| call_tool(tool, &action, &params, ctx, store, clock));
    reply(result)
}

/// Runs a call whose action and params (JSON text, `""` for none) the host
/// holds apart.
pub fn call_action(
    tool: &str,
    action: &str,
    params: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolReply {
    let ctx = &for_tools(ctx);
    // call_tool answers an unknown tool the same way.
    reply(call_tool(tool, action, params, ctx, store, clock))
}

/// The context a tool call runs in: the host's, without the person. The
/// five tools never act as a person (no tool call can approve a plan),
/// whatever a host put in its context.
fn for_tools(ctx: &CallContext) -> CallContext {
    CallContext {
        person: None,
        ..ctx.clone()
    }
}

/// The reply the agent receives for `result`: on success the summary, a
/// newline and the compact data; on failure the error object, as both the
/// text and the structured content.
pub fn reply(result: ToolResult<Output>) -> ToolReply {
    match result {
        Ok(output) => {
            let data = output.data;
            let mut text = String::with_capacity(output.summary.len() + 1 + data.len());
            text.push_str(&output.summary);
            text.push('\n');
            text.push_str(&data);
            ToolReply {
                text,
                structured: data,
                outcome: Ok(output.summary),
            }
        }
        Err(error) => {
            let json = json_text(&error.to_json());
            ToolReply {
                text: json.clone(),
                structured: json,
                outcome: Err(error),
            }
        }
    }
}

/// Checks the tool name before anything else of a call is read.
pub fn check_tool(name: &str) -> ToolResult<()> {
    match find_tool(name) {
        Some(_) => Ok(()),
        None => Err(unknown_tool(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use crate::testing::Harness;

    fn run(h: &Harness, tool: &str, arguments: &str) -> ToolReply {
        let ctx = CallContext {
            agent_id: Some("a".into()),
            ..CallContext::default()
        };
        call(tool, arguments, &ctx, &h.store, &h.clock)
    }

    #[test]
    fn a_reply_is_the_summary_and_the_compact_data() {
        let h = Harness::default();
        let r = run(
            &h,
            "task_lists",
            r#"{"action":"create","params":{"name":"x"}}"#,
        );
        let summary = r.outcome.clone().expect("created");
        assert_eq!(r.text, format!("{summary}\n{}", r.structured));
        let data: serde_json::Value = serde_json::from_str(&r.structured).unwrap();
        assert_eq!(data["list"]["name"], "x");
    }

    #[test]
    fn an_error_reply_is_the_error_object_twice() {
        let h = Harness::default();
        let r = run(&h, "task_lists", r#"{"action":"nope"}"#);
        assert_eq!(r.text, r.structured);
        let error = r.outcome.unwrap_err();
        assert_eq!(error.code, ErrorCode::UnknownAction);
        let json: serde_json::Value = serde_json::from_str(&r.text).unwrap();
        assert_eq!(json["error"]["code"], "unknown_action");
        assert_eq!(json["error"]["message"], error.message.as_str());
        let keys: Vec<&String> = json["error"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["code", "message", "hint"]);
    }

    #[test]
    fn unknown_tools_get_one_answer_both_ways() {
        let h = Harness::default();
        let ctx = CallContext::default();
        let by_arguments = run(&h, "task_list", r#"{"action":"find"}"#);
        let by_action = call_action("task_list", "find", "", &ctx, &h.store, &h.clock);
        assert_eq!(by_arguments, by_action);
        let error = by_action.outcome.unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidParams);
        assert!(
            error
                .message
                .starts_with("unknown tool `task_list`; the tools are task_lists,"),
            "{}",
            error.message
        );
    }
}
