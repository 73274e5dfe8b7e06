//! `task_claims` results: a task claimed (or resumed), nothing to claim and
//! why, a lease renewed, expired claims released.

use super::action::Render;
use super::fmt;
use super::items::id_list;
use super::{Line, LineBuf, Style, line, task};
use crate::actions::claims;
use crate::actions::claims::{ClaimJson, ClaimNext, Claimed, Released, Waiting};
use crate::model::Approval;
use crate::results::TaskJson;

/// `lease until 12:15 (15m) · claim_…ZZZZZZ`: when the lease ends, and how
/// long it lasts counted from the task's last update (when it was granted).
fn lease_line(task: &TaskJson, claim: Option<&ClaimJson>) -> Option<Line> {
    let claim = claim?;
    let mut l = LineBuf::new();
    l.push("  ", Style::Text);
    if let Some(until) = fmt::opt(&claim.expires_at) {
        let granted = fmt::opt(&task.updated_at);
        l.push(
            format!("lease until {}", fmt::compact_date(until, granted)),
            Style::Muted,
        );
        if let Some(secs) = granted
            .and_then(|g| fmt::seconds_between(g, until))
            .filter(|s| *s > 0)
        {
            l.push(format!(" ({})", fmt::duration(secs)), Style::Muted);
        }
    }
    if let Some(token) = fmt::opt(&claim.token) {
        if l.width() > 2 {
            l.push(" · ", Style::Muted);
        }
        l.push(fmt::short_id(token), Style::Muted);
    }
    let l = l.finish();
    (!l.is_empty()).then_some(l)
}

/// `claim_next` → `{task, claim, resumed?}` or `{task: null, waiting}`.
pub(crate) fn claimed_next(result: ClaimNext) -> Option<Vec<Line>> {
    let waiting = match result {
        ClaimNext::Claimed(claimed) => return Some(claimed_lines(&claimed)),
        ClaimNext::Nothing(nothing) => nothing.waiting,
    };
    let mut lines = vec![waiting_line(&waiting)];
    if let Some(hint) = waiting.hint.as_deref().and_then(fmt::nonblank) {
        lines.push(line(
            format!("  {}", fmt::truncate(hint, 200)),
            Style::Muted,
        ));
    }
    Some(lines)
}

/// A claimed (or resumed) task: its name, lease and notes.
fn claimed_lines(claimed: &Claimed) -> Vec<Line> {
    let t = &claimed.task;
    {
        let resumed = claimed.resumed;
        let mut head = LineBuf::new();
        // A resumed claim is the agent getting back what it was doing: worth
        // telling apart from fresh work.
        head.push(
            if resumed {
                "▶ resumed "
            } else {
                "▶ claimed "
            },
            Style::Accent,
        );
        task::name(t, &mut head);
        let mut lines = vec![head.finish()];
        lines.extend(lease_line(t, claimed.claim.as_ref()));
        lines.extend(task::notes_line(t, 2));
        lines.extend(task::verification_lines(t, 2));
        lines.extend(task::exchange_lines(t, 2));
        lines.extend(task::refs_line(t, 2));
        lines.extend(task::labels_line(t, 2, false));
        lines
    }
}

/// Why nothing was handed out; all zero means every task is closed.
fn waiting_line(waiting: &Waiting) -> Line {
    let known = [
        (waiting.claimed_by_others, "claimed by others"),
        (waiting.awaiting_approval, "awaiting approval"),
        (waiting.waiting_on_dependencies, "waiting on dependencies"),
        (waiting.assigned_to_others, "assigned to others"),
        (waiting.blocked, "paused"),
        (waiting.without_labels.unwrap_or(0), "without those labels"),
    ];
    let mut reasons: Vec<String> = Vec::new();
    for (n, words) in known {
        if n != 0 {
            reasons.push(format!("{n} {words}"));
        }
    }
    // Reasons a newer guest may add still show, in their wire words.
    for (key, v) in &waiting.more {
        if let Some(n) = fmt::as_int(v).filter(|n| *n != 0) {
            reasons.push(format!("{n} {}", fmt::truncate(&key.replace('_', " "), 30)));
        }
    }
    // A plan that is not approved holds back every task, whatever each
    // one waits for.
    let plan = waiting.approval.as_ref().map(|a| match a.state {
        Approval::Rejected => {
            let by =
                a.by.as_deref()
                    .map(|b| format!(" by {}", fmt::truncate(b, 24)));
            let reason = a
                .reason
                .as_deref()
                .map(|r| format!(": \"{}\"", fmt::truncate(r, 80)));
            format!(
                "plan rejected{}{}",
                by.unwrap_or_default(),
                reason.unwrap_or_default()
            )
        }
        _ => crate::results::PLAN_AWAITS.to_string(),
    });
    if reasons.is_empty() && plan.is_none() {
        return line("✓ list is finished: nothing left to claim", Style::Success);
    }
    let mut l = LineBuf::new();
    l.push("nothing to claim: ", Style::Warning);
    if let Some(plan) = plan {
        l.push(plan, Style::Warning);
        if !reasons.is_empty() {
            l.push(" · ", Style::Muted);
        }
    }
    l.push(reasons.join(" · "), Style::Muted);
    l.finish()
}

/// `refresh` → `{task, claim}`.
pub(crate) fn refreshed(result: Claimed) -> Option<Vec<Line>> {
    let Claimed { task: t, claim, .. } = result;
    let mut head = LineBuf::new();
    head.push("↻ renewed ", Style::Accent);
    task::name(&t, &mut head);
    let mut lines = vec![head.finish()];
    lines.extend(lease_line(&t, claim.as_ref()));
    Some(lines)
}

/// `release_expired` → `{released: [task ids], remaining}`.
pub(crate) fn released(result: Released) -> Option<Vec<Line>> {
    let Released {
        released: ids,
        remaining,
    } = result;
    if ids.is_empty() {
        return Some(vec![line("no expired claims", Style::Muted)]);
    }
    let head = format!(
        "↺ released {} back to todo",
        fmt::plural(ids.len(), "expired claim")
    );
    let mut lines = vec![line(head, Style::Warning), id_list(&ids)];
    if remaining > 0 {
        lines.push(line(
            format!("  {remaining} more expired: run it again"),
            Style::Muted,
        ));
    }
    Some(lines)
}

impl Render for claims::ClaimNextTask {
    fn render(result: ClaimNext) -> Option<Vec<Line>> {
        claimed_next(result)
    }
}

impl Render for claims::RefreshClaim {
    fn render(result: Claimed) -> Option<Vec<Line>> {
        refreshed(result)
    }
}

impl Render for claims::ReleaseExpired {
    fn render(result: Released) -> Option<Vec<Line>> {
        released(result)
    }
}

#[cfg(test)]
mod tests {
    use crate::registry::render_result;
    use crate::render::tests::*;
    use crate::render::{Style, to_plain};
    use serde_json::json;

    fn running() -> serde_json::Value {
        let mut t = task_json(2, "in_progress", "Write the parser");
        t["claimed_by_agent_id"] = json!("builder-2");
        t["claim_expires_at"] = json!("2026-11-30T12:15:00.000Z");
        t["updated_at"] = json!("2026-11-30T12:00:00.000Z");
        t["notes"] = json!("tokenizer done; next: expressions");
        t
    }

    fn claim() -> serde_json::Value {
        json!({"token": "claim_01JDQ4ZK8M3N5P7R9T1VCLAIM1", "expires_at": "2026-11-30T12:15:00.000Z"})
    }

    #[test]
    fn claimed_and_resumed() {
        let out = render_result(
            "task_claims",
            "claim_next",
            &json!({"task": running(), "claim": claim()}),
        );
        assert_eq!(
            to_plain(&out),
            "▶ claimed #2 Write the parser  task_…TASK02\n\
             \x20 lease until 12:15 (15m) · claim_…CLAIM1\n\
             \x20 notes: tokenizer done; next: expressions"
        );
        assert_eq!(style_of(&out, "▶ claimed"), Some(Style::Accent));
        let out = render_result(
            "task_claims",
            "claim_next",
            &json!({"task": running(), "claim": claim(), "resumed": true}),
        );
        assert!(to_plain(&out).starts_with("▶ resumed #2 Write the parser"));
    }

    #[test]
    fn nothing_to_claim_says_why() {
        let data = json!({"task": null, "waiting": {"claimed_by_others": 2, "waiting_on_dependencies": 1, "assigned_to_others": 0, "blocked": 1}});
        let out = render_result("task_claims", "claim_next", &data);
        assert_eq!(
            to_plain(&out),
            "nothing to claim: 2 claimed by others · 1 waiting on dependencies · 1 paused"
        );
        assert_eq!(style_of(&out, "nothing to claim"), Some(Style::Warning));
        let gated = json!({"task": null, "waiting": {"claimed_by_others": 0, "waiting_on_dependencies": 0, "assigned_to_others": 0, "blocked": 0,
            "approval": {"state": "rejected", "reason": "split it", "by": "ana"}, "hint": "only a person can approve"}});
        let out = render_result("task_claims", "claim_next", &gated);
        assert_eq!(
            to_plain(&out),
            "nothing to claim: plan rejected by ana: \"split it\"\n  only a person can approve"
        );
        let late = json!({"task": null, "waiting": {"claimed_by_others": 0, "waiting_on_dependencies": 0, "assigned_to_others": 0, "blocked": 0,
            "awaiting_approval": 2}});
        let out = render_result("task_claims", "claim_next", &late);
        assert_eq!(to_plain(&out), "nothing to claim: 2 awaiting approval");
        let done = json!({"task": null, "waiting": {"claimed_by_others": 0, "waiting_on_dependencies": 0, "assigned_to_others": 0, "blocked": 0}});
        let out = render_result("task_claims", "claim_next", &done);
        assert_eq!(to_plain(&out), "✓ list is finished: nothing left to claim");
        assert_eq!(out[0][0].style, Style::Success);
    }

    #[test]
    fn refresh_shows_the_new_lease() {
        let mut t = running();
        t["updated_at"] = json!("2026-11-30T12:10:00.000Z");
        let c = json!({"token": "claim_01JDQ4ZK8M3N5P7R9T1VCLAIM1", "expires_at": "2026-11-30T13:40:00.000Z"});
        let out = render_result("task_claims", "refresh", &json!({"task": t, "claim": c}));
        assert_eq!(
            to_plain(&out),
            "↻ renewed #2 Write the parser  task_…TASK02\n  lease until 13:40 (1h30m) · claim_…CLAIM1"
        );
    }

    #[test]
    fn release_expired_lists_ids() {
        let out = render_result(
            "task_claims",
            "release_expired",
            &json!({"released": [task_id(3)]}),
        );
        assert_eq!(
            to_plain(&out),
            "↺ released 1 expired claim back to todo\n  task_…TASK03"
        );
        assert_eq!(style_of(&out, "↺ released"), Some(Style::Warning));
        let none = render_result("task_claims", "release_expired", &json!({"released": []}));
        assert_eq!(to_plain(&none), "no expired claims");
    }
}
