//! The contract's data: what a tool, an action and a parameter are, the
//! five tools, the limits, and what is derived from the specs alone (the
//! validator, the JSON Schemas, the request's shape, the answers to an
//! unknown tool or action). Plain data, no function pointers: each
//! action's spec lives with its handler, and the registry (at the top)
//! joins spec, handler and renderer.

mod defs;
mod help;
mod json_schema;
pub mod labels;
pub mod refs;
mod request;
mod suggest;
mod validate;

pub use defs::{
    ASSIGNED, BATCH_ITEM, CURSOR, DEFAULT_LEASE_MS, DEFAULT_PAGE, DEFAULT_TASK_PAGE, DESCRIPTION,
    EVENT_KINDS, INCLUDE_DELETED, LABELS, LEASE, LIMIT, LIST_ID, MAX_BATCH, MAX_DEPS,
    MAX_TASK_PAGE, MAX_TEXT, NOTES, PRIORITIES, PRIORITY, REFS, REQUIRES_REVIEW, SCOPE_TYPES,
    STATUSES, TASK_AUDIT, TASK_CLAIMS, TASK_HELP, TASK_ID, TASK_ITEMS, TASK_LISTS, TITLE, TOOLS,
    VERIFICATION, VISIBILITIES, find_tool, param,
};
pub use help::{RULES, WORKFLOW};
pub use json_schema::{action_schema, tool_input_schema};
pub use request::{parse_arguments, shown_name, unknown_action, unknown_tool};
pub use suggest::closest as closest_name;
pub use validate::{Params, check_id, validate};

use crate::bindings::ToolAnnotations;
use crate::ids::IdKind;

/// The shape and limits of one parameter.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// A string of `min..=max` characters.
    Str {
        /// Fewest characters.
        min: usize,
        /// Most characters.
        max: usize,
    },
    /// An agent id (1–200 characters); `nullable` also allows `null`.
    Agent {
        /// Whether `null` is accepted too.
        nullable: bool,
    },
    /// `true` or `false`.
    Bool,
    /// An integer in `min..=max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of the given strings.
    Enum(&'static [&'static str]),
    /// One of the given strings, or a non-empty array of them.
    EnumOrList(&'static [&'static str]),
    /// An id of the given kind.
    Id(IdKind),
    /// A non-empty array of ids of the given kind (at most `max`).
    Ids(IdKind, usize),
    /// An array of task ids or, inside add_many, batch-local refs.
    Deps {
        /// Whether batch-local refs are accepted (inside add_many).
        refs: bool,
    },
    /// An RFC 3339 time.
    Time,
    /// An opaque pagination cursor from a previous result.
    Cursor,
    /// A task's `refs`: an array of URIs ([`refs`]'s rule).
    Refs,
    /// An array of labels ([`labels`]'s rule): at least `min`, at most
    /// [`labels::MAX_LABELS`].
    Labels {
        /// Fewest labels (0: `[]` is a value, e.g. clearing them).
        min: usize,
    },
    /// One label ([`labels`]'s rule).
    Label,
    /// The add_many `tasks` array: 1–`max` objects shaped by [`defs::BATCH_ITEM`].
    Items {
        /// Most items per call.
        max: usize,
    },
}

/// One parameter of an action.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The key in `params`.
    pub name: &'static str,
    /// Its type and limits.
    pub ty: Ty,
    /// Whether it must be present.
    pub required: bool,
    /// One short sentence for the schema and help.
    pub doc: &'static str,
}

/// How an action reaches a list, which decides whether the private-list
/// bypass parameters apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No list involved (help, list creation, find).
    None,
    /// Addresses a list or task: private lists need ownership or a bypass.
    List,
}

/// One action of a tool.
#[derive(Debug, Clone, Copy)]
pub struct ActionSpec {
    /// The tool it belongs to.
    pub tool: &'static ToolSpec,
    /// Action name, e.g. `claim_next`.
    pub name: &'static str,
    /// One line for the catalogue and help.
    pub summary: &'static str,
    /// Action-specific parameters (the common ones are added by [`ActionSpec::params`]).
    pub own_params: &'static [Param],
    /// Whether private-list bypass parameters apply.
    pub access: Access,
    /// Whether the action changes state (and so runs in a write transaction).
    pub writes: bool,
    /// A worked example of `params`, as JSON; checked against this spec by tests.
    pub example: &'static str,
}

/// One tool of the contract.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    /// Tool name, e.g. `task_items`.
    pub name: &'static str,
    /// Short human title.
    pub title: &'static str,
    /// What the tool is for (the catalogue adds the action list).
    pub purpose: &'static str,
    /// Whether calls carry a `params` object (`task_help` takes only its
    /// action).
    pub takes_params: bool,
    /// MCP annotations, as the catalogue publishes them.
    pub annotations: ToolAnnotations,
    /// One line for the system prompt's list of tools (Pi's `promptSnippet`).
    pub snippet: &'static str,
    /// Guideline bullets for the system prompt, each naming its tool.
    pub guidelines: &'static [&'static str],
}

/// The whole catalogue as data, in published order: each tool with its
/// actions' specs (built by the registry, read by `task_help`).
pub type Listing = Vec<(&'static ToolSpec, Vec<&'static ActionSpec>)>;

/// An action as messages name it: `task_items update`.
impl std::fmt::Display for ActionSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{} {}", self.tool.name, self.name)
    }
}

impl ActionSpec {
    /// Every accepted parameter: the action's own, then `agent_id`, then the
    /// bypass pair for actions that reach a list.
    pub fn params(&self) -> impl Iterator<Item = &'static Param> + '_ {
        let bypass: &'static [Param] = if self.access == Access::List {
            &defs::BYPASS
        } else {
            &[]
        };
        self.own_params
            .iter()
            .chain(defs::AGENT.iter())
            .chain(bypass.iter())
    }
}
