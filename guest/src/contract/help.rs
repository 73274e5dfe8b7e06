//! The workflow and rules `task_help` teaches: the contract's decisions in
//! prose, one sentence each.

/// The standard agent workflow (CONTRACT.md), as numbered steps.
pub const WORKFLOW: &[&str] = &[
    "task_lists find: look for an existing list (filter by scope_type/scope_key/name).",
    "Else task_lists create (get_or_create: true makes this safe when agents race).",
    "task_items create / add_many: add the tasks in execution order; depends_on for prerequisites (add_many: by batch ref).",
    "task_claims claim_next with your agent_id: atomically get the next ready task and a claim token.",
    "Do the task. Save working memory with task_items update notes (context, choices, blockers, next steps); each update renews your lease, task_claims refresh extends it.",
    "task_items update status: done or canceled (outcome required: decisions, actions, result), blocked (stays assigned to you unless assigned_to_agent_id is passed: null releases it, an id transfers it) or todo (gives it back).",
    "Repeat from claim_next until it returns task: null (waiting says why).",
];

/// The rules, including every decision the contract leaves open.
pub const RULES: &[&str] = &[
    "Same database + same list_id = same list. Two agents never hold the same task at once, whatever the number of processes.",
    "claim_next is the only way to start a task; update never sets in_progress.",
    "claim_next takes the first task by position that is todo (or in_progress with an expired lease), not deleted, assigned to nobody or to you, whose depends_on are all done/canceled. Deleted dependencies no longer block and drop out of depends_on.",
    "You hold at most one task per list: claim_next while you hold one returns it again (resumed: true, same token, renewed lease of the claim's length unless lease_seconds is given), notes included; also after your lease expired if nobody took it over.",
    "While another agent's lease runs, every update or delete of that task, and task_lists delete of its list, is refused (conflict). A claim_token that is not the current one is refused (conflict).",
    "done/canceled need a non-empty outcome in the same call; they end the claim and set completed_at. A closed task's outcome can be edited but never blanked; the task can only be reopened with status todo.",
    "blocked ends the claim and assigns the task to you unless the call passes assigned_to_agent_id (null releases, an id transfers); pausing an already blocked task again keeps its assignee. todo ends the claim and keeps the assignment.",
    "An update by the claim holder renews its lease (an update that changes nothing else is recorded as refreshed). refresh extends it (default: the lease length of the claim).",
    "Leases: lease_seconds 30-86400, default 900. release_expired returns expired claims to todo, keeping assignments, at most 500 per call (remaining says how many are left: call again); it is idempotent.",
    "Private lists are usable only by owner_agent_id (default: the creator). Others get forbidden unless they pass bypass_private: true and bypass_reason; the bypass is recorded as a private_bypass audit event, kept even when the call then fails (its change is rolled back, the event is written alone). An error after a bypass says no more than the call would have shown had it worked: the task it names and that task's status, but not the list's length, a claimer or lease end, nor the other tasks of a dependency cycle.",
    "get_or_create matches scope_type + scope_key + exact name + visibility among the non-deleted lists you can see; the oldest match wins. A private request only ever returns your own private list.",
    "Actions that change state or claim work need an agent identity (params.agent_id or the host default); reads do not, except a bypass (it is audited under your name) and task_audit get without list_id/task_id (it shows your bypass events). A pinned host refuses any other agent_id.",
    "add_many refs are names local to one batch: unique, and never shaped like a task id. depends_on may name refs before or after the item, and task ids of the same list.",
    "Positions are 1-based ranks among the list's non-deleted tasks; create/add_many insert at position (at most one past the end), reorder moves tasks and returns the moved ones at their new positions plus how many others shifted.",
    "task_lists get pages through the tasks in position order: limit (default 100, max 500) tasks, fewer when they are large (about 256 KiB of JSON a page); next_cursor is null on the last page, else pass it as cursor. counts always cover the whole list. Each task of a page leaves out list_id (list gives it) and its history times created_at, updated_at, started_at, completed_at unless include_times: true; claim_expires_at and deleted_at stay. Every other result carries the whole task.",
    "find and task_audit get page the same way (limit default 50, max 200, fewer when they are large; next_cursor). No result grows with a list, and one task always fits in one (under 1 MiB): description, notes and outcome are at most 64K characters each and 786432 bytes (768 KiB) together, counted as JSON sends them (a character is 1 to 4 bytes, a quote or backslash 2, a control or invisible character 6 or 12), so 64K-character texts without control or invisible characters always fit; a write past that is refused (invalid_params), unless it does not make the texts longer. A task stored before this bound that passes it is shown with its texts cut to fit, each ending with a \"[cut: N more characters not shown …]\" marker. add_many stores every task whole, and its result echoes them under 1 MiB too: when the echo would pass it, its texts are cut (the longest first, titles only if need be), each ending with \"[cut: N more characters not shown in this echo; the task is stored whole: task_lists get shows it]\", and the summary line says so; one add_many names at most 5000 depends_on entries in all (the echo keeps them whole).",
    "Deletes are soft: task_lists delete removes the list and its active tasks, keeping done/canceled history; nothing is erased.",
    "Every change is recorded in the audit log in the same transaction (a private_bypass also when its call fails). Kinds: created, updated, status_changed, claimed, refreshed, released (by release_expired), expired (an expired lease taken over), reordered, deleted, private_bypass.",
    "Every call is one transaction: a failed call changes nothing, except that a bypass it made stays audited. Errors carry code, message and hint.",
    "Ids are prefixed ULIDs (list_…, task_…, claim_…, evt_…). Times are RFC 3339 UTC with milliseconds. Absent fields are unset (except the history times a get page leaves out).",
    "Agent ids are 1-200 characters with no surrounding spaces, no control, bidirectional or zero-width characters and no space but the plain one, so that no id can pass for another. Text (titles, notes, …) is stored as sent; result JSON escapes DEL, C1 controls and invisible characters as \\uXXXX, and messages quote at most 200 characters of a bad value.",
];
