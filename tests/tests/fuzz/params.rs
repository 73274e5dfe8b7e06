//! Calls to fuzz: valid params of every tool+action against the seed's
//! ids (optional fields drawn at random), then mutated (fields dropped,
//! added, retyped, ids swapped for ids of the wrong kind or of deleted
//! things); random tool and action names; whole requests as raw text,
//! broken or truncated; contexts with odd identities; clock steps.

use super::values::{key, nasty_string, nasty_value, raw_text};
use super::world::{A, B, OWNER, Seed};
use proptest::prelude::*;
use proptest::sample::{Index, select, subsequence};
use tasklists_tests::*;

/// Who calls: an identity from the host (or none, or a pinned one).
#[derive(Clone, Debug)]
pub struct Caller {
    /// The host default identity.
    pub agent: Option<String>,
    /// Whether it is pinned.
    pub pinned: bool,
    /// The workspace and thread the host passes.
    pub workspace: Option<String>,
    /// The thread the host passes.
    pub thread: Option<String>,
    /// A person at the keyboard: tools must ignore it (only the person's
    /// entry point acts as a person).
    pub person: Option<String>,
}

impl Caller {
    /// The call context the host passes.
    pub fn ctx(&self) -> CallContext {
        CallContext {
            agent_id: self.agent.clone(),
            agent_pinned: self.pinned,
            workspace: self.workspace.clone(),
            thread: self.thread.clone(),
            person: self.person.clone(),
        }
    }
}

/// One step of a case.
#[derive(Clone, Debug)]
pub enum Step {
    /// `Host::reply_to_action`: params as JSON text.
    Action {
        /// Who calls.
        caller: Caller,
        /// The tool name sent.
        tool: String,
        /// The action name sent.
        action: String,
        /// The params text sent.
        params: String,
    },
    /// `Host::reply`: the whole request as text.
    Request {
        /// Who calls.
        caller: Caller,
        /// The tool name sent.
        tool: String,
        /// The arguments text sent.
        arguments: String,
    },
    /// Moves the clock (claims expire).
    Advance(i64),
}

fn caller() -> BoxedStrategy<Caller> {
    let agent = prop_oneof![
        6 => select(&[OWNER, A, B, "builder-3"][..]).prop_map(|a| Some(a.to_string())),
        1 => Just(None),
        1 => nasty_string().prop_map(Some),
    ];
    let place = prop_oneof![
        3 => Just(None),
        1 => select(&["/repo", ""][..]).prop_map(|s| Some(s.to_string())),
        1 => nasty_string().prop_map(Some),
    ];
    let person = prop_oneof![
        3 => Just(None),
        1 => select(&[OWNER, A, "ana"][..]).prop_map(|p| Some(p.to_string())),
        1 => nasty_string().prop_map(Some),
    ];
    (
        agent,
        prop::bool::weighted(0.15),
        place.clone(),
        place,
        person,
    )
        .prop_map(|(agent, pinned, workspace, thread, person)| Caller {
            agent,
            pinned,
            workspace,
            thread,
            person,
        })
        .boxed()
}

type Field = BoxedStrategy<Option<(String, Value)>>;

/// A field that is always present.
fn req(key: &str, v: impl Strategy<Value = Value> + 'static) -> Field {
    let key = key.to_string();
    v.prop_map(move |v| Some((key.clone(), v))).boxed()
}

/// A field present about a third of the time.
fn opt(key: &str, v: impl Strategy<Value = Value> + 'static) -> Field {
    let key = key.to_string();
    prop::option::weighted(0.35, v)
        .prop_map(move |v| v.map(|v| (key.clone(), v)))
        .boxed()
}

fn object(fields: Vec<Field>) -> BoxedStrategy<Value> {
    fields
        .prop_map(|f| Value::Object(f.into_iter().flatten().collect()))
        .boxed()
}

fn text() -> BoxedStrategy<Value> {
    // Mostly plain: hostile values come from the mutations, and a call
    // with several fields must often be valid to reach past validation.
    prop_oneof![12 => "[a-z][a-z ]{0,15}", 1 => nasty_string()]
        .prop_map(Value::String)
        .boxed()
}

fn pick(ids: &[String]) -> BoxedStrategy<Value> {
    select(ids.to_vec()).prop_map(Value::String).boxed()
}

fn some_of(ids: &[String], max: usize) -> BoxedStrategy<Value> {
    subsequence(ids.to_vec(), 0..=max.min(ids.len()))
        .prop_shuffle()
        .prop_map(|v| json!(v))
        .boxed()
}

fn agent() -> BoxedStrategy<Value> {
    select(&[OWNER, A, B, "builder-3"][..])
        .prop_map(|a| json!(a))
        .boxed()
}

fn statuses() -> BoxedStrategy<Value> {
    select(&["todo", "in_progress", "blocked", "done", "canceled"][..])
        .prop_map(|s| json!(s))
        .boxed()
}

fn int(lo: i64, hi: i64) -> BoxedStrategy<Value> {
    (lo..=hi).prop_map(|n| json!(n)).boxed()
}

fn boolean() -> BoxedStrategy<Value> {
    any::<bool>().prop_map(Value::Bool).boxed()
}

/// Valid (or nearly) params of `tool action` on the seed.
fn valid(seed: &Seed, tool: &str, action: &str) -> BoxedStrategy<Value> {
    // main, other and the two plans that require approval.
    let picked: Vec<String> = [0, 1, 4, 5].map(|i| seed.lists[i].clone()).into();
    let lists = &picked[..];
    let all_lists = &seed.lists;
    let tasks = &seed.tasks;
    let scope =
        || select(&["workspace", "thread", "agent", "global", "custom"][..]).prop_map(|s| json!(s));
    let vis = || select(&["private", "shared"][..]).prop_map(|s| json!(s));
    let mut fields: Vec<Field> = match (tool, action) {
        ("task_lists", "create") => vec![
            req("name", text()),
            opt("scope_type", scope()),
            opt("scope_key", text()),
            opt("visibility", vis()),
            opt("owner_agent_id", agent()),
            opt("get_or_create", boolean()),
            opt("requires_approval", boolean()),
            opt("requires_review", boolean()),
        ],
        ("task_lists", "find") => vec![
            opt("scope_type", scope()),
            opt("scope_key", text()),
            opt("name", text()),
            opt("visibility", vis()),
            opt("include_deleted", boolean()),
            opt("limit", int(1, 3)),
            opt("cursor", text()),
        ],
        ("task_lists", "get") => vec![
            req("list_id", pick(all_lists)),
            opt("include_tasks", boolean()),
            opt(
                "status",
                prop_oneof![
                    statuses(),
                    prop::collection::vec(statuses(), 0..3).prop_map(|v| json!(v))
                ],
            ),
            opt("include_deleted", boolean()),
            opt("include_times", boolean()),
            opt("limit", int(1, 3)),
            opt("cursor", text()),
        ],
        ("task_lists", "delete") => vec![req("list_id", pick(all_lists))],
        ("task_items", "create") => vec![
            req("list_id", pick(lists)),
            req("title", text()),
            opt("description", text()),
            opt("notes", text()),
            opt("assigned_to_agent_id", agent()),
            opt("depends_on", some_of(tasks, 2)),
            opt("position", int(1, 9)),
            opt("requires_review", boolean()),
        ],
        ("task_items", "add_many") => {
            let item = object(vec![
                req("title", text()),
                opt(
                    "ref",
                    select(&["r1", "r2", "r3"][..]).prop_map(|s| json!(s)),
                ),
                opt(
                    "depends_on",
                    some_of(
                        &["r1".into(), "r2".into(), "r3".into(), tasks[3].clone()],
                        2,
                    ),
                ),
                opt("notes", text()),
                opt("assigned_to_agent_id", agent()),
            ]);
            vec![
                req("list_id", pick(lists)),
                req(
                    "tasks",
                    prop::collection::vec(item, 1..4).prop_map(|v| json!(v)),
                ),
                opt("position", int(1, 9)),
            ]
        }
        ("task_items", "update") => vec![
            req("task_id", pick(tasks)),
            opt("title", text()),
            opt("description", text()),
            opt("notes", text()),
            opt("status", statuses()),
            opt("outcome", text()),
            opt("question", text()),
            opt(
                "assigned_to_agent_id",
                prop_oneof![agent(), Just(Value::Null)],
            ),
            opt("depends_on", some_of(tasks, 2)),
            opt(
                "claim_token",
                select(vec![
                    seed.token.clone(),
                    "claim_01JDQ4ZK8M3N5P7R9T1V3X5Z7B".into(),
                ])
                .prop_map(Value::String),
            ),
        ],
        ("task_items", "reorder") => vec![
            req("list_id", pick(lists)),
            req("task_ids", some_of(&tasks[..6], 6)),
            opt("position", int(1, 8)),
            opt("before_task_id", pick(tasks)),
            opt("after_task_id", pick(tasks)),
        ],
        ("task_items", "delete") => vec![
            opt("task_id", pick(tasks)),
            opt("task_ids", some_of(tasks, 3)),
        ],
        ("task_claims", "claim_next") => vec![
            req("list_id", pick(lists)),
            opt("lease_seconds", int(30, 86_400)),
        ],
        ("task_claims", "refresh") => vec![
            req("task_id", pick(tasks)),
            opt("lease_seconds", int(30, 86_400)),
            opt("claim_token", Just(json!(seed.token))),
        ],
        ("task_claims", "release_expired") => vec![opt("list_id", pick(lists))],
        ("task_audit", "get") => vec![
            opt("list_id", pick(all_lists)),
            opt("task_id", pick(tasks)),
            opt(
                "kinds",
                prop::collection::vec(
                    select(
                        &[
                            "created",
                            "claimed",
                            "status_changed",
                            "private_bypass",
                            "nope",
                        ][..],
                    ),
                    0..3,
                )
                .prop_map(|v| json!(v)),
            ),
            opt("since", Just(json!(fmt_ms(T0)))),
            opt("limit", int(1, 3)),
            opt("cursor", text()),
        ],
        _ => vec![],
    };
    fields.push(opt("agent_id", agent()));
    // The bypass pair is refused by most actions: rarely, and together.
    let reason = text();
    fields.push(
        prop::option::weighted(0.08, (boolean(), reason))
            .prop_map(|p| {
                p.map(|(on, why)| ("bypass_private".to_string(), json!({"__pair__": [on, why]})))
            })
            .boxed(),
    );
    object(fields).prop_map(unpair).boxed()
}

/// Spreads the `__pair__` placeholder into the bypass_private and
/// bypass_reason fields.
fn unpair(mut v: Value) -> Value {
    if let Some(pair) = v
        .get("bypass_private")
        .and_then(|p| p.get("__pair__"))
        .cloned()
    {
        v["bypass_private"] = pair[0].clone();
        v["bypass_reason"] = pair[1].clone();
    }
    v
}

/// One change to a params value.
#[derive(Clone, Debug)]
enum Mutation {
    /// Removes the n-th field.
    Drop(Index),
    /// Adds (or overwrites) a field.
    Add(String, Value),
    /// Gives the n-th field another value (another type, an id of the
    /// wrong kind, a value past its limit).
    Replace(Index, Value),
    /// Changes the n-th element (or field) inside the n-th field's array
    /// or object value (an add_many item, a depends_on entry).
    Inner(Index, Index, Value),
    /// Replaces the whole params with this value (not an object).
    Whole(Value),
}

fn mutation(ids: Vec<String>) -> BoxedStrategy<Mutation> {
    let v = nasty_value(ids);
    prop_oneof![
        2 => any::<Index>().prop_map(Mutation::Drop),
        2 => (key(), v.clone()).prop_map(|(k, v)| Mutation::Add(k, v)),
        4 => (any::<Index>(), v.clone()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        2 => (any::<Index>(), any::<Index>(), v.clone()).prop_map(|(i, j, v)| Mutation::Inner(i, j, v)),
        1 => v.prop_map(Mutation::Whole),
    ]
    .boxed()
}

fn apply(params: &mut Value, m: &Mutation) {
    let Some(map) = params.as_object_mut() else {
        return;
    };
    match m {
        Mutation::Drop(i) if !map.is_empty() => {
            let k = map.keys().nth(i.index(map.len())).cloned();
            if let Some(k) = k {
                map.remove(&k);
            }
        }
        Mutation::Add(k, v) => {
            map.insert(k.clone(), v.clone());
        }
        Mutation::Replace(i, v) if !map.is_empty() => {
            let n = i.index(map.len());
            if let Some((_, slot)) = map.iter_mut().nth(n) {
                *slot = v.clone();
            }
        }
        Mutation::Inner(i, j, v) if !map.is_empty() => {
            let n = i.index(map.len());
            match map.iter_mut().nth(n).map(|(_, s)| s) {
                Some(Value::Array(items)) if !items.is_empty() => {
                    let len = items.len();
                    let item = &mut items[j.index(len)];
                    // An add_many item: change one of its fields.
                    if let Some(obj) = item.as_object_mut().filter(|o| !o.is_empty()) {
                        let len = obj.len();
                        if let Some((_, slot)) = obj.iter_mut().nth(j.index(len)) {
                            *slot = v.clone();
                        }
                    } else {
                        *item = v.clone();
                    }
                }
                Some(Value::Object(obj)) if !obj.is_empty() => {
                    let len = obj.len();
                    if let Some((_, slot)) = obj.iter_mut().nth(j.index(len)) {
                        *slot = v.clone();
                    }
                }
                _ => {}
            }
        }
        Mutation::Whole(v) => *params = v.clone(),
        _ => {}
    }
}

/// A tool and action: mostly a published pair, sometimes a wrong pairing
/// or a random name.
fn names() -> BoxedStrategy<(String, String)> {
    let pairs: Vec<(String, String)> = tool_actions()
        .iter()
        .flat_map(|(t, acts)| acts.iter().map(|a| (t.to_string(), a.to_string())))
        .collect();
    let tools: Vec<String> = tool_actions().iter().map(|(t, _)| t.to_string()).collect();
    let actions: Vec<String> = pairs.iter().map(|(_, a)| a.clone()).collect();
    let odd = || {
        prop_oneof![
            select(
                &[
                    "",
                    "TASK_LISTS",
                    "task_list",
                    "task_items ",
                    "list",
                    "Create",
                    "claim",
                    "help",
                    "task_help.all"
                ][..]
            )
            .prop_map(String::from),
            nasty_string(),
        ]
    };
    prop_oneof![
        16 => select(pairs),
        2 => (select(tools.clone()), select(actions)),
        1 => (select(tools), odd()),
        1 => (odd(), odd()),
    ]
    .boxed()
}

/// Params for `tool action`: valid ones, mutated 0–3 times, as JSON text
/// (markers turned into raw text); sometimes none at all, or raw junk.
fn params_text(seed: &Seed, tool: &str, action: &str) -> BoxedStrategy<String> {
    let template = valid(seed, tool, action);
    // Half of the calls unmutated (valid but for odd optional fields),
    // so that successes and their invariants are fuzzed too.
    let muts = prop_oneof![
        1 => Just(Vec::new()),
        1 => prop::collection::vec(mutation(seed.ids.clone()), 1..4),
    ];
    let mutated = (template, muts).prop_map(|(mut p, ms)| {
        for m in &ms {
            apply(&mut p, m);
        }
        raw_text(&p)
    });
    prop_oneof![
        12 => mutated,
        1 => Just(String::new()),
        1 => junk(),
    ]
    .boxed()
}

/// Raw text that is rarely JSON: random characters, JSON fragments.
fn junk() -> BoxedStrategy<String> {
    prop_oneof![
        any::<String>(),
        select(
            &[
                "{",
                "}",
                "[]",
                "null",
                "\"x\"",
                "{\"a\":",
                "{\"list_id\":\"list_",
                "{,}",
                "{\"a\":1,}",
                "\u{feff}{}",
                "{} {}",
                "{\"a\":\"\\u12\"}",
                "{\"a\":1}\u{0}"
            ][..]
        )
        .prop_map(String::from),
    ]
    .boxed()
}

/// Cuts `text` at the n-th character (a truncated request).
fn truncate(text: &str, at: Index) -> String {
    let n = text.chars().count();
    text.chars().take(at.index(n + 1)).collect()
}

/// One step on the seed.
pub fn step(seed: &Seed) -> BoxedStrategy<Step> {
    let seed_params = {
        // Valid-param strategies are built per pair once, then chosen.
        let table: Vec<((String, String), BoxedStrategy<String>)> = tool_actions()
            .iter()
            .flat_map(|(t, acts)| acts.iter().map(move |a| (t.to_string(), a.to_string())))
            .map(|(t, a)| {
                let s = params_text(seed, &t, &a);
                ((t, a), s)
            })
            .collect();
        std::rc::Rc::new(table)
    };
    let action = {
        let table = seed_params.clone();
        (caller(), names(), any::<Index>())
            .prop_flat_map(move |(caller, (tool, action), i)| {
                // The params of this pair if it is published, else of any pair.
                let found = table
                    .iter()
                    .position(|((t, a), _)| *t == tool && *a == action);
                let n = found.unwrap_or_else(|| i.index(table.len()));
                let params = table[n].1.clone();
                params.prop_map(move |params| Step::Action {
                    caller: caller.clone(),
                    tool: tool.clone(),
                    action: action.clone(),
                    params,
                })
            })
            .boxed()
    };
    let request = {
        let table = seed_params;
        (caller(), any::<Index>(), any::<Index>(), 0u8..8)
            .prop_flat_map(move |(caller, i, cut, shape)| {
                let ((tool, action), params) = table[i.index(table.len())].clone();
                params.prop_map(move |params| {
                    let action_json = Value::String(action.clone()).to_string();
                    let params = if params.is_empty() {
                        "{}".to_string()
                    } else {
                        params
                    };
                    let arguments = match shape {
                        // Most requests are well formed.
                        0..=3 => format!("{{\"action\":{action_json},\"params\":{params}}}"),
                        4 => format!("{{\"action\":{action_json}}}"),
                        5 => truncate(
                            &format!("{{\"action\":{action_json},\"params\":{params}}}"),
                            cut,
                        ),
                        6 => {
                            format!("{{\"params\":{params},\"action\":{action_json},\"extra\":1}}")
                        }
                        _ => format!("{{\"action\":{params},\"params\":{action_json}}}"),
                    };
                    Step::Request {
                        caller: caller.clone(),
                        tool: tool.clone(),
                        arguments,
                    }
                })
            })
            .boxed()
    };
    let raw_request =
        (caller(), names(), junk()).prop_map(|(caller, (tool, _), arguments)| Step::Request {
            caller,
            tool,
            arguments,
        });
    prop_oneof![
        10 => action,
        3 => request,
        1 => raw_request,
        1 => select(&[1i64, 31, 601, 100_000][..]).prop_map(Step::Advance),
    ]
    .boxed()
}
