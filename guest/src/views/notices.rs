//! Notifications of the inbox: each entry once per channel (a webhook, the
//! desktop), remembered in the store's `notices` table so that a notifier
//! restarted sends nothing it already sent. The component words every
//! notice and builds the webhook's JSON; the host only delivers it.

use serde_json::json;

use super::inbox::{self, Entry, Kind};
use crate::bindings::Notice;
use crate::clock::Clock;
use crate::context::CallContext;
use crate::error::{ToolError, ToolResult};
use crate::store::{Store, Value};

/// Longest channel name a notifier may use.
const MAX_CHANNEL: usize = 200;
/// Most keys one `notices-sent` records.
const MAX_KEYS: usize = 1_000;

/// The entries of `ctx`'s inbox not yet sent on `channel`, as notices
/// whose links start at `board_url`.
pub fn pending(
    ctx: &CallContext,
    channel: &str,
    board_url: &str,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Vec<Notice>> {
    check_channel(channel)?;
    let viewer = super::read::Viewer::new(ctx, clock)?;
    let (inbox, sent) = super::read::read(store, |tx| {
        let inbox = inbox::collect(tx, &viewer)?;
        let sent: Vec<String> = tx
            .query(
                "SELECT entry FROM notices WHERE channel = ?",
                &[Value::from(channel)],
            )?
            .rows
            .iter()
            .filter_map(|r| r.first().and_then(Value::as_str).map(str::to_string))
            .collect();
        Ok((inbox, sent))
    })?;
    let base = board_base(board_url);
    let mut entries: Vec<&Entry> = inbox
        .entries
        .iter()
        .filter(|e| !sent.contains(&e.key))
        .collect();
    entries.sort_by(|a, b| a.since.cmp(&b.since));
    Ok(entries.into_iter().map(|e| notice(e, &base)).collect())
}

/// Records `keys` as sent on `channel`.
pub fn sent(
    channel: &str,
    keys: &[String],
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<()> {
    check_channel(channel)?;
    if keys.len() > MAX_KEYS {
        return Err(ToolError::invalid(
            format!("{} keys in one call; at most {MAX_KEYS}", keys.len()),
            "record them in several calls",
        ));
    }
    crate::schema::ensure(store)?;
    let tx = store.begin(true)?;
    for key in keys {
        // Recorded once: a key sent again (two notifiers on one channel)
        // changes nothing.
        tx.execute(
            "INSERT INTO notices (channel, entry, sent_at) VALUES (?, ?, ?) \
             ON CONFLICT (channel, entry) DO NOTHING",
            &[
                Value::from(channel),
                Value::from(key.as_str()),
                Value::Integer(clock.now_ms()),
            ],
        )?;
    }
    tx.commit()?;
    Ok(())
}

fn check_channel(channel: &str) -> ToolResult<()> {
    if channel.is_empty() || channel.len() > MAX_CHANNEL || channel.chars().any(char::is_control) {
        return Err(ToolError::invalid(
            "a notification channel is 1 to 200 printable characters",
            "",
        ));
    }
    Ok(())
}

/// The board's address without a query or fragment (a sign-in link's
/// token never reaches a notice) or a trailing slash.
fn board_base(url: &str) -> String {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    url[..end].trim_end_matches('/').to_string()
}

/// What a notice says about `e`, its links starting at `base`.
fn notice(e: &Entry, base: &str) -> Notice {
    let path = match &e.task_id {
        Some(task) => format!("/tasks/{task}"),
        None => format!("/lists/{}", e.list_id),
    };
    let link = (!base.is_empty()).then(|| format!("{base}{path}"));
    let title = match e.kind {
        Kind::Approval => format!("Plan to approve: {}", e.title),
        Kind::Question => format!("Question on {}", e.title),
        Kind::Review => format!("To review: {}", e.title),
        Kind::Stalled => format!("Stalled: {}", e.title),
        Kind::FailedCheck => format!("Check failed: {}", e.title),
    };
    let who = e
        .agent
        .as_deref()
        .map(|a| format!("@{a}: "))
        .unwrap_or_default();
    let body = format!("{who}{} ({})", e.said, e.list);
    let payload = json!({
        "kind": e.kind,
        "key": e.key,
        "list_id": e.list_id,
        "list": e.list,
        "task_id": e.task_id,
        "title": e.title,
        "said": e.said,
        "agent": e.agent,
        "since": e.since,
        "actions": e.actions,
        "link": link,
    });
    Notice {
        key: e.key.clone(),
        title: crate::render::fmt::truncate(&crate::render::fmt::one_line(&title), 120),
        body: crate::render::fmt::truncate(&crate::render::fmt::one_line(&body), 300),
        payload: payload.to_string(),
    }
}
