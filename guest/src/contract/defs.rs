//! The contract's data shared by its actions: the five tools, the closed
//! sets of values, the limits, and the parameters several actions accept.
//! Each action's own spec lives with its handler (`crate::actions`); the
//! registry lists them.

use super::{Param, ToolSpec, Ty};
use crate::bindings::ToolAnnotations;
use crate::ids::IdKind;

/// Task statuses.
pub const STATUSES: &[&str] = &["todo", "in_progress", "blocked", "done", "canceled"];
/// Task priorities, highest first (`medium` is the default).
pub const PRIORITIES: &[&str] = &["high", "medium", "low"];
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
    "approved",
    "rejected",
    "asked",
    "answered",
    "submitted",
    "accepted",
    "returned",
    "imported",
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

/// A parameter (for the spec tables).
pub const fn param(name: &'static str, ty: Ty, required: bool, doc: &'static str) -> Param {
    Param {
        name,
        ty,
        required,
        doc,
    }
}

/// `agent_id`, accepted by every action.
pub const AGENT: [Param; 1] = [param(
    "agent_id",
    Ty::Agent { nullable: false },
    false,
    "caller identity; overrides the host default",
)];

/// The private-list bypass pair, accepted by actions that reach a list.
pub const BYPASS: [Param; 2] = [
    param(
        "bypass_private",
        Ty::Bool,
        false,
        "act on another agent's private list (audited)",
    ),
    param(
        "bypass_reason",
        Ty::Str { min: 1, max: 500 },
        false,
        "why; required with bypass_private",
    ),
];

/// The shared `list_id` parameter.
pub const LIST_ID: Param = param("list_id", Ty::Id(IdKind::List), true, "list id");
/// The shared `task_id` parameter.
pub const TASK_ID: Param = param("task_id", Ty::Id(IdKind::Task), true, "task id");
/// The shared `title` parameter.
pub const TITLE: Param = param("title", Ty::Str { min: 1, max: 500 }, true, "short title");
/// The shared `description` parameter.
pub const DESCRIPTION: Param = param(
    "description",
    Ty::Str {
        min: 0,
        max: MAX_TEXT,
    },
    false,
    "details",
);
/// The shared `notes` parameter.
pub const NOTES: Param = param(
    "notes",
    Ty::Str {
        min: 0,
        max: MAX_TEXT,
    },
    false,
    "working memory: context, choices, blockers, next steps",
);
/// The shared `priority` parameter.
pub const PRIORITY: Param = param(
    "priority",
    Ty::Enum(PRIORITIES),
    false,
    "high, medium (default) or low: claim_next takes high first",
);
/// The shared `verification` parameter.
pub const VERIFICATION: Param = param(
    "verification",
    Ty::Str {
        min: 0,
        max: MAX_TEXT,
    },
    false,
    "how to check it is done; closing as done then needs verification_result",
);
/// The shared `refs` parameter (`super::refs`: schemes and bounds).
pub const REFS: Param = param(
    "refs",
    Ty::Refs,
    false,
    "links elsewhere: github://o/r/1, beads://./bd-1, https://…",
);
/// The shared `labels` parameter of a task's writes (`super::labels`:
/// the rule; the whole set, `[]` clears).
pub const LABELS: Param = param(
    "labels",
    Ty::Labels { min: 0 },
    false,
    "short words: role, skill, kind (see task_help)",
);
/// The shared `requires_review` parameter (a list's default, a task's own).
pub const REQUIRES_REVIEW: Param = param(
    "requires_review",
    Ty::Bool,
    false,
    "done goes to a person's review first",
);
/// The shared `assigned` parameter.
pub const ASSIGNED: Param = param(
    "assigned_to_agent_id",
    Ty::Agent { nullable: true },
    false,
    "reserve for this agent; null clears",
);
/// The shared `lease` parameter.
pub const LEASE: Param = param(
    "lease_seconds",
    Ty::Int {
        min: 30,
        max: 86_400,
    },
    false,
    "claim lease, default 900",
);
/// The shared `limit` parameter.
pub const LIMIT: Param = param(
    "limit",
    Ty::Int { min: 1, max: 200 },
    false,
    "page size, default 50",
);
/// The shared `cursor` parameter.
pub const CURSOR: Param = param(
    "cursor",
    Ty::Cursor,
    false,
    "next_cursor of the previous page",
);
/// The shared `include_deleted` parameter.
pub const INCLUDE_DELETED: Param =
    param("include_deleted", Ty::Bool, false, "also soft-deleted ones");

/// The keys of one add_many item (`position` is per batch, not per item).
pub const BATCH_ITEM: [Param; 10] = [
    TITLE,
    DESCRIPTION,
    NOTES,
    PRIORITY,
    VERIFICATION,
    ASSIGNED,
    REFS,
    LABELS,
    param(
        "depends_on",
        Ty::Deps { refs: true },
        false,
        "task ids or refs of this batch",
    ),
    param(
        "ref",
        Ty::Str { min: 1, max: 64 },
        false,
        "batch-local name other items can depend on",
    ),
];

/// The `task_lists` tool.
pub const TASK_LISTS: ToolSpec = ToolSpec {
    name: "task_lists",
    title: "Task lists",
    purpose: "Find, create, read and delete persistent task lists shared by agents.",
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
};

/// The `task_items` tool.
pub const TASK_ITEMS: ToolSpec = ToolSpec {
    name: "task_items",
    title: "Tasks",
    purpose: "Add, update (notes, status, outcome), reorder and delete tasks. Never set in_progress: use task_claims claim_next.",
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
};

/// The `task_claims` tool.
pub const TASK_CLAIMS: ToolSpec = ToolSpec {
    name: "task_claims",
    title: "Claims",
    purpose: "Claim the next ready task atomically (two agents never get the same one), extend or recover leases.",
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
};

/// The `task_audit` tool.
pub const TASK_AUDIT: ToolSpec = ToolSpec {
    name: "task_audit",
    title: "Audit log",
    purpose: "Read the audit log of changes, claims and private-list bypasses.",
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
};

/// The `task_help` tool.
pub const TASK_HELP: ToolSpec = ToolSpec {
    name: "task_help",
    title: "Help",
    purpose: "The reference: workflow, rules, parameter schemas and examples. Takes only action.",
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
};

/// The five tools, in the order hosts list them.
pub static TOOLS: [&ToolSpec; 5] = [
    &TASK_LISTS,
    &TASK_ITEMS,
    &TASK_CLAIMS,
    &TASK_AUDIT,
    &TASK_HELP,
];

/// The tool named `name`.
pub fn find_tool(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().copied().find(|t| t.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Priority, Status, Visibility};

    #[test]
    fn statuses_visibilities_and_priorities_are_their_enums() {
        let names: Vec<&str> = Status::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(STATUSES, names.as_slice());
        for s in Status::ALL {
            assert_eq!(Status::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(Status::parse("running"), None);
        let names: Vec<&str> = Priority::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(PRIORITIES, names.as_slice());
        for p in Priority::ALL {
            assert_eq!(Priority::parse(p.as_str()), Some(p));
            assert_eq!(Priority::from_rank(p.rank()), p);
            assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
        }
        assert_eq!(Priority::default(), Priority::Medium);
        assert_eq!(Priority::parse("urgent"), None);
        let names: Vec<&str> = Visibility::ALL.iter().map(|v| v.as_str()).collect();
        assert_eq!(VISIBILITIES, names.as_slice());
        for v in Visibility::ALL {
            assert_eq!(Visibility::parse(v.as_str()), Some(v));
            assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
        }
    }
}
