//! The tables: every tool, action and parameter of the contract.

use super::{Access, ActionSpec, Handler, Param, ToolSpec, Ty};
use crate::actions::{audit, claims, help, items, items_update, lists, lists_get, reorder};
use crate::glue::ToolAnnotations;
use crate::ids::IdKind;
use crate::render::audit as ra;
use crate::render::claims as rc;
use crate::render::help as rh;
use crate::render::items as ri;
use crate::render::lists as rl;

/// Task statuses.
pub const STATUSES: &[&str] = &["todo", "in_progress", "blocked", "done", "canceled"];
/// List scope types.
pub const SCOPE_TYPES: &[&str] = &["workspace", "thread", "agent", "global", "custom"];
/// List visibilities.
pub const VISIBILITIES: &[&str] = &["private", "shared"];
/// Audit event kinds.
pub const EVENT_KINDS: &[&str] = &[
    "created",
    "updated",
    "status_changed",
    "claimed",
    "refreshed",
    "released",
    "expired",
    "reordered",
    "deleted",
    "private_bypass",
];

/// Page size of find and audit get when `limit` is not given.
pub const DEFAULT_PAGE: i64 = 50;
/// Tasks per `task_lists get` page when `limit` is not given.
pub const DEFAULT_TASK_PAGE: i64 = 100;
/// Most tasks per `task_lists get` page.
pub const MAX_TASK_PAGE: i64 = 500;
/// Claim lease when `lease_seconds` is not given: 15 minutes (the
/// `lease_seconds` doc and task_help's rules say "default 900").
pub const DEFAULT_LEASE_MS: i64 = 900_000;
/// Most tasks in one add_many.
pub const MAX_BATCH: usize = 500;
/// Most dependencies of one task.
pub const MAX_DEPS: usize = 100;
/// Longest title, description, notes or outcome (characters).
pub const MAX_TEXT: usize = 65_536;

const fn p(name: &'static str, ty: Ty, required: bool, doc: &'static str) -> Param {
    Param {
        name,
        ty,
        required,
        doc,
    }
}

/// `agent_id`, accepted by every action.
pub const AGENT: [Param; 1] = [p(
    "agent_id",
    Ty::Agent { nullable: false },
    false,
    "caller identity; overrides the host default",
)];

/// The private-list bypass pair, accepted by actions that reach a list.
pub const BYPASS: [Param; 2] = [
    p(
        "bypass_private",
        Ty::Bool,
        false,
        "act on another agent's private list (audited)",
    ),
    p(
        "bypass_reason",
        Ty::Str { min: 1, max: 500 },
        false,
        "why; required with bypass_private",
    ),
];

const LIST_ID: Param = p("list_id", Ty::Id(IdKind::List), true, "list id");
const TASK_ID: Param = p("task_id", Ty::Id(IdKind::Task), true, "task id");
const TITLE: Param = p("title", Ty::Str { min: 1, max: 500 }, true, "short title");
const DESCRIPTION: Param = p(
    "description",
    Ty::Str {
        min: 0,
        max: MAX_TEXT,
    },
    false,
    "details",
);
const NOTES: Param = p(
    "notes",
    Ty::Str {
        min: 0,
        max: MAX_TEXT,
    },
    false,
    "working memory: context, choices, blockers, next steps",
);
const ASSIGNED: Param = p(
    "assigned_to_agent_id",
    Ty::Agent { nullable: true },
    false,
    "reserve for this agent; null clears",
);
const LEASE: Param = p(
    "lease_seconds",
    Ty::Int {
        min: 30,
        max: 86_400,
    },
    false,
    "claim lease, default 900",
);
const LIMIT: Param = p(
    "limit",
    Ty::Int { min: 1, max: 200 },
    false,
    "page size, default 50",
);
const CURSOR: Param = p(
    "cursor",
    Ty::Cursor,
    false,
    "next_cursor of the previous page",
);
const INCLUDE_DELETED: Param = p("include_deleted", Ty::Bool, false, "also soft-deleted ones");

/// The keys of one add_many item (`position` is per batch, not per item).
pub const BATCH_ITEM: [Param; 6] = [
    TITLE,
    DESCRIPTION,
    NOTES,
    ASSIGNED,
    p(
        "depends_on",
        Ty::Deps { refs: true },
        false,
        "task ids or refs of this batch",
    ),
    p(
        "ref",
        Ty::Str { min: 1, max: 64 },
        false,
        "batch-local name other items can depend on",
    ),
];

const LISTS: &[ActionSpec] = &[
    ActionSpec {
        name: "create",
        summary: "create a list (get_or_create returns an existing one with the same scope, name and visibility)",
        own_params: &[
            p("name", Ty::Str { min: 1, max: 200 }, true, "list name"),
            p("scope_type", Ty::Enum(SCOPE_TYPES), false, "default custom"),
            p(
                "scope_key",
                Ty::Str { min: 0, max: 1000 },
                false,
                "context key; defaults from the host for workspace/thread/agent",
            ),
            p(
                "visibility",
                Ty::Enum(VISIBILITIES),
                false,
                "default shared",
            ),
            p(
                "owner_agent_id",
                Ty::Agent { nullable: false },
                false,
                "owner; private lists default to the creator",
            ),
            p(
                "get_or_create",
                Ty::Bool,
                false,
                "return the existing list if any",
            ),
        ],
        access: Access::None,
        writes: true,
        example: r#"{"name":"Release 1.2","scope_type":"workspace","scope_key":"/repo","get_or_create":true}"#,
        handler: Handler::Call(lists::create),
        render: rl::created,
    },
    ActionSpec {
        name: "find",
        summary: "lists you can see, most recently updated first, with counts",
        own_params: &[
            p("scope_type", Ty::Enum(SCOPE_TYPES), false, "filter"),
            p("scope_key", Ty::Str { min: 0, max: 1000 }, false, "filter"),
            p(
                "name",
                Ty::Str { min: 1, max: 200 },
                false,
                "case-insensitive substring",
            ),
            p("visibility", Ty::Enum(VISIBILITIES), false, "filter"),
            INCLUDE_DELETED,
            LIMIT,
            CURSOR,
        ],
        access: Access::None,
        writes: false,
        example: r#"{"scope_type":"workspace","scope_key":"/repo"}"#,
        handler: Handler::Call(lists::find),
        render: rl::found,
    },
    ActionSpec {
        name: "get",
        summary: "one list with counts and a page of its tasks in position order",
        own_params: &[
            LIST_ID,
            p("include_tasks", Ty::Bool, false, "default true"),
            p(
                "status",
                Ty::EnumOrList(STATUSES),
                false,
                "only tasks with this status (or any of these)",
            ),
            INCLUDE_DELETED,
            p(
                "include_times",
                Ty::Bool,
                false,
                "also each task's created_at, updated_at, started_at, completed_at",
            ),
            p(
                "limit",
                Ty::Int {
                    min: 1,
                    max: MAX_TASK_PAGE,
                },
                false,
                "tasks per page, default 100 (fewer when tasks are large)",
            ),
            CURSOR,
        ],
        access: Access::List,
        writes: false,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","status":["todo","in_progress"]}"#,
        handler: Handler::Call(lists_get::get),
        render: rl::detail,
    },
    ActionSpec {
        name: "delete",
        summary: "soft-delete a list and its active tasks",
        own_params: &[LIST_ID],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}"#,
        handler: Handler::Call(lists::delete),
        render: rl::deleted,
    },
];

const ITEMS: &[ActionSpec] = &[
    ActionSpec {
        name: "create",
        summary: "add one task (appended unless position is given)",
        own_params: &[
            LIST_ID,
            TITLE,
            DESCRIPTION,
            NOTES,
            ASSIGNED,
            p(
                "depends_on",
                Ty::Deps { refs: false },
                false,
                "task ids of this list that must be done/canceled first",
            ),
            p(
                "position",
                Ty::Int {
                    min: 1,
                    max: 1_000_000,
                },
                false,
                "1-based rank to insert at",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","title":"Write the migration","depends_on":["task_01JDQ50000000000000000000A"]}"#,
        handler: Handler::Call(items::create),
        render: ri::created,
    },
    ActionSpec {
        name: "add_many",
        summary: "add 1-500 tasks at once, all or nothing; items may depend on each other by ref",
        own_params: &[
            LIST_ID,
            p(
                "tasks",
                Ty::Items { max: MAX_BATCH },
                true,
                "items: title, description?, notes?, assigned_to_agent_id?, depends_on?, ref?",
            ),
            p(
                "position",
                Ty::Int {
                    min: 1,
                    max: 1_000_000,
                },
                false,
                "1-based rank of the first new task",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","tasks":[{"ref":"schema","title":"Design schema"},{"title":"Write API","depends_on":["schema"]}]}"#,
        handler: Handler::Call(items::add_many),
        render: ri::added,
    },
    ActionSpec {
        name: "update",
        summary: "change fields or status (todo, blocked, done, canceled); done/canceled need an outcome",
        own_params: &[
            TASK_ID,
            p("title", Ty::Str { min: 1, max: 500 }, false, "short title"),
            DESCRIPTION,
            NOTES,
            p(
                "status",
                Ty::Enum(STATUSES),
                false,
                "todo, blocked, done or canceled (in_progress comes from claim_next)",
            ),
            p(
                "outcome",
                Ty::Str {
                    min: 0,
                    max: MAX_TEXT,
                },
                false,
                "decisions, actions, result; required for done/canceled",
            ),
            ASSIGNED,
            p(
                "depends_on",
                Ty::Deps { refs: false },
                false,
                "replaces the dependencies",
            ),
            p(
                "claim_token",
                Ty::Id(IdKind::Claim),
                false,
                "token from claim_next; refused if stale",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"task_id":"task_01JDQ50000000000000000000A","status":"done","outcome":"Migration 0002 adds the index; tests pass"}"#,
        handler: Handler::Call(items_update::update),
        render: ri::updated,
    },
    ActionSpec {
        name: "reorder",
        summary: "move tasks (in the given order) to a position, or before/after a task",
        own_params: &[
            LIST_ID,
            p(
                "task_ids",
                Ty::Ids(IdKind::Task, 10_000),
                true,
                "tasks to move, in the wanted order",
            ),
            p(
                "position",
                Ty::Int {
                    min: 1,
                    max: 1_000_000,
                },
                false,
                "rank of the first moved task, default 1",
            ),
            p(
                "before_task_id",
                Ty::Id(IdKind::Task),
                false,
                "anchor: move before this task",
            ),
            p(
                "after_task_id",
                Ty::Id(IdKind::Task),
                false,
                "anchor: move after this task",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","task_ids":["task_01JDQ50000000000000000000A"],"position":1}"#,
        handler: Handler::Call(reorder::reorder),
        render: ri::reordered,
    },
    ActionSpec {
        name: "delete",
        summary: "soft-delete tasks (task_id or task_ids)",
        own_params: &[
            p("task_id", Ty::Id(IdKind::Task), false, "one task"),
            p(
                "task_ids",
                Ty::Ids(IdKind::Task, MAX_BATCH),
                false,
                "several tasks",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"task_id":"task_01JDQ50000000000000000000A"}"#,
        handler: Handler::Call(items::delete),
        render: ri::deleted,
    },
];

const CLAIMS: &[ActionSpec] = &[
    ActionSpec {
        name: "claim_next",
        summary: "atomically take the next ready task (or get back the one you hold)",
        own_params: &[LIST_ID, LEASE],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","agent_id":"builder-1"}"#,
        handler: Handler::Call(claims::claim_next),
        render: rc::claimed_next,
    },
    ActionSpec {
        name: "refresh",
        summary: "extend your lease on a task you hold",
        own_params: &[
            TASK_ID,
            LEASE,
            p(
                "claim_token",
                Ty::Id(IdKind::Claim),
                false,
                "token from claim_next",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"task_id":"task_01JDQ50000000000000000000A","lease_seconds":1800}"#,
        handler: Handler::Call(claims::refresh),
        render: rc::refreshed,
    },
    ActionSpec {
        name: "release_expired",
        summary: "return expired claims to todo (one list, or all you can see)",
        own_params: &[p(
            "list_id",
            Ty::Id(IdKind::List),
            false,
            "list id; default all visible lists",
        )],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}"#,
        handler: Handler::Call(claims::release_expired),
        render: rc::released,
    },
];

const AUDIT: &[ActionSpec] = &[ActionSpec {
    name: "get",
    summary: "audit events, newest first (without list_id: private-bypass events you may see)",
    own_params: &[
        p(
            "list_id",
            Ty::Id(IdKind::List),
            false,
            "events of this list",
        ),
        p(
            "task_id",
            Ty::Id(IdKind::Task),
            false,
            "events of this task",
        ),
        p(
            "kinds",
            Ty::EnumOrList(EVENT_KINDS),
            false,
            "only these kinds",
        ),
        p("since", Ty::Time, false, "RFC 3339; events at or after"),
        LIMIT,
        CURSOR,
    ],
    access: Access::List,
    writes: false,
    example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","kinds":["status_changed"],"limit":20}"#,
    handler: Handler::Call(audit::get),
    render: ra::events,
}];

const HELP: &[ActionSpec] = &[
    ActionSpec {
        name: "all",
        summary: "workflow, rules, schemas and examples",
        own_params: &[],
        access: Access::None,
        writes: false,
        example: "{}",
        handler: Handler::Help(help::run),
        render: rh::help,
    },
    ActionSpec {
        name: "workflow",
        summary: "the standard agent workflow and sharing rules",
        own_params: &[],
        access: Access::None,
        writes: false,
        example: "{}",
        handler: Handler::Help(help::run),
        render: rh::help,
    },
    ActionSpec {
        name: "schemas",
        summary: "JSON Schema of every tool+action",
        own_params: &[],
        access: Access::None,
        writes: false,
        example: "{}",
        handler: Handler::Help(help::run),
        render: rh::help,
    },
    ActionSpec {
        name: "examples",
        summary: "worked example calls",
        own_params: &[],
        access: Access::None,
        writes: false,
        example: "{}",
        handler: Handler::Help(help::run),
        render: rh::help,
    },
];

/// The five tools, in the order hosts list them.
pub static TOOLS: [ToolSpec; 5] = [
    ToolSpec {
        name: "task_lists",
        title: "Task lists",
        purpose: "Find, create, read and delete persistent task lists shared by agents.",
        actions: LISTS,
        takes_params: true,
        annotations: ToolAnnotations {
            read_only: false,
            destructive: true,
            idempotent: false,
            // Nothing reaches beyond its own store.
            open_world: false,
        },
        snippet: "Find, create, read or delete the shared task list for the work at hand",
        guidelines: &[
            "Use task_lists find (or task_lists create with get_or_create: true) before making a new list, so agents sharing the work use one list.",
        ],
    },
    ToolSpec {
        name: "task_items",
        title: "Tasks",
        purpose: "Add, update (notes, status, outcome), reorder and delete tasks. Never set in_progress: use task_claims claim_next.",
        actions: ITEMS,
        takes_params: true,
        annotations: ToolAnnotations {
            read_only: false,
            destructive: true,
            idempotent: false,
            // Nothing reaches beyond its own store.
            open_world: false,
        },
        snippet: "Add tasks, keep working notes on them, close them with an outcome",
        guidelines: &[
            "Keep your working memory on the task you hold with task_items update notes (context, choices, next steps), as you go.",
            "Close a task with task_items update status done or canceled and a non-empty outcome; status blocked pauses it.",
        ],
    },
    ToolSpec {
        name: "task_claims",
        title: "Claims",
        purpose: "Claim the next ready task atomically (two agents never get the same one), extend or recover leases.",
        actions: CLAIMS,
        takes_params: true,
        annotations: ToolAnnotations {
            read_only: false,
            destructive: false,
            idempotent: false,
            // Nothing reaches beyond its own store.
            open_world: false,
        },
        snippet: "Claim the next ready task atomically; work only on tasks you claimed",
        guidelines: &[
            "Start a task only with task_claims claim_next; called again on the same list it hands back the task you hold, notes and token included.",
        ],
    },
    ToolSpec {
        name: "task_audit",
        title: "Audit log",
        purpose: "Read the audit log of changes, claims and private-list bypasses.",
        actions: AUDIT,
        takes_params: true,
        annotations: ToolAnnotations {
            read_only: true,
            destructive: false,
            idempotent: true,
            // Nothing reaches beyond its own store.
            open_world: false,
        },
        snippet: "Read the audit log of a task list",
        guidelines: &[],
    },
    ToolSpec {
        name: "task_help",
        title: "Help",
        purpose: "The reference: workflow, rules, parameter schemas and examples. Takes only action.",
        actions: HELP,
        takes_params: false,
        annotations: ToolAnnotations {
            read_only: true,
            destructive: false,
            idempotent: true,
            // Nothing reaches beyond its own store.
            open_world: false,
        },
        snippet: "The task tools' workflow, rules, schemas and examples",
        guidelines: &[],
    },
];

/// The tool named `name`.
pub fn find_tool(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Status, Visibility};

    #[test]
    fn statuses_and_visibilities_are_their_enums() {
        let names: Vec<&str> = Status::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(STATUSES, names.as_slice());
        for s in Status::ALL {
            assert_eq!(Status::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(Status::parse("running"), None);
        let names: Vec<&str> = Visibility::ALL.iter().map(|v| v.as_str()).collect();
        assert_eq!(VISIBILITIES, names.as_slice());
        for v in Visibility::ALL {
            assert_eq!(Visibility::parse(v.as_str()), Some(v));
            assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
        }
    }

    /// Every action of the contract has one row, hence one handler and
    /// one renderer; help actions (and only they) take no params.
    #[test]
    fn every_action_has_a_handler_and_a_renderer() {
        let rows: Vec<String> = TOOLS
            .iter()
            .flat_map(|t| {
                t.actions
                    .iter()
                    .map(move |a| format!("{} {}", t.name, a.name))
            })
            .collect();
        assert_eq!(
            rows,
            [
                "task_lists create",
                "task_lists find",
                "task_lists get",
                "task_lists delete",
                "task_items create",
                "task_items add_many",
                "task_items update",
                "task_items reorder",
                "task_items delete",
                "task_claims claim_next",
                "task_claims refresh",
                "task_claims release_expired",
                "task_audit get",
                "task_help all",
                "task_help workflow",
                "task_help schemas",
                "task_help examples",
            ]
        );
        for t in &TOOLS {
            for a in t.actions {
                let help = matches!(a.handler, Handler::Help(_));
                assert_eq!(help, !t.takes_params, "{} {}", t.name, a.name);
                // A renderer is total: odd data gives None, never a panic.
                let _ = (a.render)(&serde_json::Value::Null);
                let _ = (a.render)(&serde_json::json!({}));
            }
        }
    }
}
