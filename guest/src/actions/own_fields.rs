//! Which updates change only the task's own row: those run under the
//! task's row lock rather than its list's, and on PostgreSQL may close in
//! one round trip. A module of its own because `invoke` and
//! `items_update_close` both ask it, and `invoke` already depends on
//! `items_update`, which depends on `items_update_close`.

use crate::contract;

/// The parameters of `task_items update` whose change stays in the task's
/// own row and is read by no claim of another task: the task, the actor,
/// the claim's token, notes, the outcome and verification result, and a
/// status that closes or pauses it ([`own_status`]).
const OWN_FIELDS: &[&str] = &[
    "task_id",
    "agent_id",
    "claim_token",
    "notes",
    "outcome",
    "verification_result",
    "status",
];

/// A status [`OWN_FIELDS`] may set: done, canceled or blocked (paused).
/// Not todo: a reopened task becomes claimable, a change to the list's
/// set of ready tasks that stays under the list's lock.
fn own_status(status: &str) -> bool {
    matches!(status, "done" | "canceled" | "blocked")
}

/// Whether an update changes only what the task's row lock covers
/// (`crate::schema::dialect::WriteScope::TaskRow`):
/// no other parameter given (no dependencies, position, assignee, title,
/// priority, refs, nor a bypass of privacy). `params` were checked
/// against `task_items update`: they hold no other key.
pub(super) fn own_fields_only(params: &contract::Params) -> bool {
    params.keys().all(|key| OWN_FIELDS.contains(&key))
        && params.str("status").is_none_or(own_status)
}
