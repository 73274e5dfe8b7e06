//! Private-list bypasses: the audited `private_bypass` event, kept whatever
//! becomes of the call that made it.
//!
//! The event is written in the call's own transaction, next to the change
//! it allowed. A call can still fail after its bypass (a position past the
//! end, a claimed task, a cycle); its transaction then rolls back, but the
//! caller did reach the list, so [`keep`] writes the call's bypass events
//! again in a short write transaction of their own, holding nothing else.
//! And an error after a bypass tells no more than the call would have
//! shown had it worked (update and refresh return the task whole, so its
//! status may be named; delete returns ids only): where an error would
//! say more, its wording through a bypass (`Call::redacts`) leaves out the
//! list's length, another agent's claim (who, until when) and the other
//! tasks of a dependency cycle (see `task_help workflow`).

use serde_json::json;

use super::call::{Bypass, Call, INSERT_EVENT};
use crate::error::{ToolError, ToolResult};
use crate::model::ListRow;
use crate::store::Store;

/// Records that the call bypasses `list` (once per list and call): its
/// event goes into the call's transaction, and the call keeps it for
/// [`keep`].
pub fn record(call: &mut Call, list: &ListRow) -> ToolResult<()> {
    call.agent()?;
    let reason = call.params.str("bypass_reason").unwrap_or_default();
    let data = json!({
        "tool": call.tool.name,
        "action": call.action.name,
        "reason": reason,
        "owner_agent_id": list.owner_agent_id.clone().unwrap_or_default(),
    });
    let id = call.event("private_bypass", Some(&list.id), None, data.clone())?;
    call.bypasses.push(Bypass {
        id,
        list_id: list.id.clone(),
        data,
    });
    Ok(())
}

/// After a call that bypassed and then failed (its transaction over,
/// rolled back or its commit failed): writes its bypass events alone and
/// returns `error`. If even that fails, the caller learns nothing from the
/// list: the answer is that store failure, whatever `error` said.
pub fn keep(
    store: &dyn Store,
    bypasses: &[Bypass],
    now: i64,
    agent: Option<&str>,
    error: ToolError,
) -> ToolError {
    if bypasses.is_empty() {
        return error;
    }
    // The same events, ids included, unless a commit whose outcome is
    // unknown kept them after all.
    let again = format!("{INSERT_EVENT} ON CONFLICT (id) DO NOTHING");
    let written = (|| -> ToolResult<()> {
        let tx = store.begin(true)?;
        for b in bypasses {
            let data = b.data.to_string();
            tx.execute(
                &again,
                crate::params![
                    b.id.as_str(),
                    now,
                    agent,
                    "private_bypass",
                    b.list_id.as_str(),
                    None::<&str>,
                    data
                ],
            )?;
        }
        tx.commit().map_err(ToolError::commit_failed)
    })();
    // Every failure of the store is a `storage` error.
    written.err().unwrap_or(error)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use serde_json::json;

    use crate::context::CallContext;
    use crate::error::ErrorCode;
    use crate::registry::call_tool;
    use crate::store::{Store, StoreError, Tx};
    use crate::testing::Harness;
    use serde_json::Value as Json;

    /// A private list of `owner` with three tasks, the first claimed.
    fn private_list(h: &Harness) -> (String, Vec<String>) {
        let d = h.ok(
            "owner",
            "task_lists",
            "create",
            json!({"name": "Mine", "visibility": "private"}),
        );
        let list = d["list"]["id"].as_str().unwrap().to_string();
        let d = h.ok(
            "owner",
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "a"}, {"title": "b"}, {"title": "c"}]}),
        );
        let ids = d["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect();
        h.ok(
            "owner",
            "task_claims",
            "claim_next",
            json!({"list_id": list}),
        );
        (list, ids)
    }

    fn bypasses(h: &Harness) -> Vec<Json> {
        let d = h.ok("owner", "task_audit", "get", json!({}));
        d["events"].as_array().unwrap().clone()
    }

    #[test]
    fn a_bypass_outlives_the_failure_of_its_call() {
        let h = Harness::default();
        let (list, ids) = private_list(&h);
        let by = |action: &str, mut p: Json| {
            p["bypass_private"] = json!(true);
            p["bypass_reason"] = json!("why");
            let tool = if action == "claim" {
                "task_claims"
            } else {
                "task_items"
            };
            let action = if action == "claim" { "refresh" } else { action };
            h.call(Some("other"), tool, action, p).unwrap_err()
        };
        let e = by(
            "create",
            json!({"list_id": list, "title": "x", "position": 1_000_000}),
        );
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert_eq!(e.message, "position 1000000 is past the end of the list");
        let e = by("delete", json!({"task_id": ids[0]}));
        assert_eq!(
            e.message,
            format!("task {} is claimed by another agent", ids[0])
        );
        let e = by("claim", json!({"task_id": ids[0]}));
        assert_eq!(
            e.message,
            format!("task {} is claimed by another agent", ids[0])
        );
        let e = by(
            "reorder",
            json!({"list_id": list, "task_ids": [ids[1]], "position": 9}),
        );
        assert_eq!(e.message, "position 9 is past the end of the list");
        let events = bypasses(&h);
        let actions: Vec<&str> = events
            .iter()
            .map(|e| e["data"]["action"].as_str().unwrap())
            .collect();
        assert_eq!(actions, ["reorder", "refresh", "delete", "create"]);
        // The owner's own failures say everything, as before.
        let e = h
            .call(
                Some("owner"),
                "task_items",
                "create",
                json!({"list_id": list, "title": "x", "position": 9}),
            )
            .unwrap_err();
        assert!(e.message.ends_with("(3 tasks)"), "{}", e.message);
        let e = h
            .call(
                Some("other"),
                "task_lists",
                "delete",
                json!({"list_id": list, "bypass_private": true, "bypass_reason": "why"}),
            )
            .unwrap_err();
        assert_eq!(
            e.message,
            format!("list {list} cannot be deleted: one of its tasks is claimed by another agent")
        );
        // A call without a bypass that fails writes nothing.
        let before = bypasses(&h).len();
        h.call(
            Some("other"),
            "task_items",
            "delete",
            json!({"task_id": ids[0]}),
        )
        .unwrap_err();
        assert_eq!(bypasses(&h).len(), before);
    }

    /// A store whose `n`th `begin` (from 1) fails as busy.
    struct FailingBegin<'a> {
        inner: &'a dyn Store,
        seen: Cell<u32>,
        n: u32,
    }

    impl Store for FailingBegin<'_> {
        fn begin(&self, write: bool) -> Result<Box<dyn Tx + '_>, StoreError> {
            self.seen.set(self.seen.get() + 1);
            if self.seen.get() == self.n {
                return Err(StoreError::Busy("locked".into()));
            }
            self.inner.begin(write)
        }
    }

    #[test]
    fn when_the_bypass_cannot_be_kept_the_error_tells_nothing_of_the_list() {
        let h = Harness::default();
        let (list, _) = private_list(&h);
        // The call's own transaction opens; the one of its bypass event fails.
        let store = FailingBegin {
            inner: &h.store,
            seen: Cell::new(0),
            n: 2,
        };
        let ctx = CallContext {
            agent_id: Some("other".into()),
            ..Default::default()
        };
        let params = json!({"list_id": list, "title": "x", "position": 1_000_000,
                            "bypass_private": true, "bypass_reason": "why"});
        let e = call_tool(
            "task_items",
            "create",
            &params.to_string(),
            &ctx,
            &store,
            &h.clock,
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::Storage, "{}", e.message);
        assert!(!e.message.contains("position"), "{}", e.message);
        assert_eq!(store.seen.get(), 2);
        assert!(bypasses(&h).is_empty());
    }
}
