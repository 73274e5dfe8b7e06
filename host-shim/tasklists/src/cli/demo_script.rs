//! The demo, as data: who calls which tool with what. Placeholders in the
//! params are filled from earlier results by `demo.rs`: `$list` (the list
//! the planner created), `$task:<ref>` (a task by its `add_many` ref) and
//! `$held` (the task the calling agent currently holds).

use tasklists_host::ErrorCode;

/// What a step is expected to return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expect {
    /// A successful result.
    Ok,
    /// The contract error with this code.
    Error(ErrorCode),
}

/// One call of the scripted session.
pub(crate) struct Step {
    /// The simulated agent making the call.
    pub(crate) agent: &'static str,
    /// The tool.
    pub(crate) tool: &'static str,
    /// The action.
    pub(crate) action: &'static str,
    /// The params object, with placeholders.
    pub(crate) params: &'static str,
    /// What should happen (the demo stops if something else does).
    pub(crate) expect: Expect,
    /// A few words shown after the step's header.
    pub(crate) note: &'static str,
}

const fn ok(
    agent: &'static str,
    tool: &'static str,
    action: &'static str,
    params: &'static str,
    note: &'static str,
) -> Step {
    Step {
        agent,
        tool,
        action,
        params,
        expect: Expect::Ok,
        note,
    }
}

/// The agents, in the order they are introduced.
pub(crate) const AGENTS: [&str; 4] = ["planner", "builder-1", "builder-2", "reviewer"];

/// The session: a planner fills a list, two builders work it in turns, a
/// reviewer looks at the board and the audit trail.
pub(crate) const SCRIPT: &[Step] = &[
    ok(
        "planner",
        "task_lists",
        "create",
        r#"{"name":"Ship the login page","visibility":"shared"}"#,
        "a shared list",
    ),
    ok(
        "planner",
        "task_items",
        "add_many",
        r#"{"list_id":"$list","tasks":[
            {"ref":"schema","title":"Design the users table"},
            {"ref":"api","title":"Write the POST /login endpoint","depends_on":["schema"]},
            {"ref":"form","title":"Build the login form"},
            {"ref":"wire","title":"Wire the form to the endpoint","depends_on":["api","form"]},
            {"ref":"docs","title":"Document the login flow"},
            {"ref":"e2e","title":"End-to-end test of the login","depends_on":["wire"]}]}"#,
        "six tasks; refs let the batch name its own dependencies",
    ),
    ok(
        "builder-1",
        "task_claims",
        "claim_next",
        r#"{"list_id":"$list"}"#,
        "takes the first ready task",
    ),
    ok(
        "builder-2",
        "task_claims",
        "claim_next",
        r#"{"list_id":"$list"}"#,
        "never the same task; the endpoint waits on the schema",
    ),
    ok(
        "builder-1",
        "task_items",
        "update",
        r#"{"task_id":"$held","notes":"users(id, email UNIQUE, password_hash); argon2id for hashes"}"#,
        "working memory in notes",
    ),
    ok(
        "builder-2",
        "task_items",
        "update",
        r#"{"task_id":"$held","status":"blocked","notes":"waiting for the design tokens from the design team"}"#,
        "paused: stays assigned to builder-2",
    ),
    ok(
        "builder-1",
        "task_items",
        "update",
        r#"{"task_id":"$held","status":"done","outcome":"users table created (migration 0002), unique email index"}"#,
        "done, with its outcome",
    ),
    ok(
        "builder-1",
        "task_claims",
        "claim_next",
        r#"{"list_id":"$list"}"#,
        "the endpoint is ready now",
    ),
    ok(
        "builder-2",
        "task_claims",
        "claim_next",
        r#"{"list_id":"$list"}"#,
        "its own form is paused, so: the docs",
    ),
    Step {
        agent: "builder-2",
        tool: "task_items",
        action: "update",
        params: r#"{"task_id":"$held","status":"done"}"#,
        expect: Expect::Error(ErrorCode::OutcomeRequired),
        note: "closing needs an outcome",
    },
    ok(
        "builder-2",
        "task_items",
        "update",
        r#"{"task_id":"$held","status":"canceled","outcome":"the docs move to the wiki page 'Login'; nothing to do here"}"#,
        "canceled, with its outcome",
    ),
    ok(
        "builder-1",
        "task_items",
        "update",
        r#"{"task_id":"$held","status":"done","outcome":"POST /login returns a session cookie; rate-limited to 5 attempts a minute"}"#,
        "done",
    ),
    ok(
        "builder-1",
        "task_claims",
        "claim_next",
        r#"{"list_id":"$list"}"#,
        "nothing ready: it says why",
    ),
    ok(
        "reviewer",
        "task_lists",
        "get",
        r#"{"list_id":"$list"}"#,
        "the board",
    ),
    ok(
        "reviewer",
        "task_audit",
        "get",
        r#"{"list_id":"$list","limit":8}"#,
        "the last events",
    ),
];
