//! The working memory put back in front of the model after its context was
//! compacted: the agent's current claims, compactly, with full ids (the
//! model calls tools with them) and no raw control character.

use super::read::{self, Viewer};
use super::visible::{self, Claims};
use crate::clock::{Clock, format_ms};
use crate::context::CallContext;
use crate::error::ToolResult;
use crate::store::Store;
use crate::text::{json_text, printable};

/// Most claims listed; the rest are counted.
const MAX_CLAIMS: usize = 20;
/// Notes longer than this many characters are cut (claim_next gives them
/// back whole).
const NOTES_MAX: usize = 500;

/// The memory text of `ctx`'s agent: empty without an identity, without a
/// claim, or when the store cannot be read (nothing is better than a
/// wrong memory).
pub(crate) fn text(ctx: &CallContext, store: &dyn Store, clock: &dyn Clock) -> String {
    match claims(ctx, store, clock) {
        Ok(Some((agent, claims))) => compose(&agent, &claims),
        _ => String::new(),
    }
}

/// The agent and its claims; None without an identity.
fn claims(
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Option<(String, Claims)>> {
    let viewer = Viewer::new(ctx, clock)?;
    let Some(agent) = viewer.agent.clone() else {
        return Ok(None);
    };
    let claims = read::read(store, |tx| visible::claims(tx, &viewer, MAX_CLAIMS))?;
    Ok(Some((agent, claims)))
}

/// A text as a JSON string: quoted, escapes readable, nothing raw.
fn quoted(s: &str) -> String {
    json_text(&serde_json::Value::from(s))
}

/// The heading, then one block per claim.
fn compose(agent: &str, claims: &Claims) -> String {
    let Claims { held, total } = claims;
    if held.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "Before this conversation was compacted you (agent {}) were working on these tasks, and you still hold their claims. \
         To resume one, call task_claims claim_next with its list_id: it hands the same task back with the same claim token and its notes. \
         Close it with task_items update (status done or canceled with an outcome, or blocked), and keep your notes up to date as you go.\n",
        quoted(agent)
    );
    for (task, list) in held {
        out.push_str(&format!(
            "\n- task {} {}\n  list {} {}\n  lease until {}\n",
            printable(&task.id),
            quoted(&task.title),
            printable(&list.id),
            quoted(&list.name),
            task.claim_expires_at.map(format_ms).unwrap_or_default(),
        ));
        if let Some(notes) = task.notes.as_deref().filter(|n| !n.trim().is_empty()) {
            out.push_str(&format!("  notes: {}\n", one_line("notes", notes)));
        }
        if let Some(check) = task.verification.as_deref() {
            // The rule it brings: done needs what the check showed.
            out.push_str(&format!(
                "  verification (done needs verification_result): {}\n",
                one_line("verification", check)
            ));
        }
    }
    if *total > held.len() {
        out.push_str(&format!(
            "\n… {} more claims not shown (task_lists get on your lists shows them)\n",
            total - held.len()
        ));
    }
    out
}

/// A text (`what`: notes, verification) on one line: line breaks as
/// ` / `, other controls escaped, cut at [`NOTES_MAX`] characters with a
/// marker saying how long it is.
fn one_line(what: &str, text: &str) -> String {
    let joined = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" / ");
    let n = joined.chars().count();
    if n <= NOTES_MAX {
        return printable(&joined);
    }
    let cut: String = joined.chars().take(NOTES_MAX).collect();
    format!(
        "{}… [{what} cut: {n} characters in all; claim_next returns them whole]",
        printable(&cut)
    )
}
