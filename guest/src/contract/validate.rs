//! Checks a call's `params` against the action's definition: unknown keys
//! (with the key probably meant), types, ranges, id kinds, required keys.

use serde_json::{Map, Value};
use std::fmt;

use super::defs::BATCH_ITEM;
use super::suggest::closest;
use super::{ActionSpec, Param, Ty};
use crate::clock::parse_rfc3339;
use crate::error::{ToolError, ToolResult};
use crate::ids::{self, AGENT_ID_RULE, is_agent_id};
use crate::text::{json_text, quote};

/// Validated parameters; accessors assume the types the spec promised.
/// Kept as the pairs given, in order (the keys are the action's own, at
/// most a few dozen, unique): a lookup compares a few short keys instead
/// of hashing one, and a call looks up many.
#[derive(Debug, Clone, Default)]
pub struct Params {
    pairs: Vec<(String, Value)>,
}

impl Params {
    /// The pairs of a checked object, moved out of its map.
    fn from_map(map: Map<String, Value>) -> Self {
        Params {
            pairs: map.into_iter().collect(),
        }
    }
    /// The value given for `key`.
    fn get(&self, key: &str) -> Option<&Value> {
        self.pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// The keys given.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.pairs.iter().map(|(k, _)| k.as_str())
    }
    /// A string parameter.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }
    /// Whether the key was passed at all (even as `null`).
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    /// A nullable string: `None` absent, `Some(None)` explicit null.
    pub fn nullable_str(&self, key: &str) -> Option<Option<&str>> {
        self.get(key).map(Value::as_str)
    }
    /// A boolean parameter.
    pub fn bool(&self, key: &str) -> Option<bool> {
        self.get(key).and_then(Value::as_bool)
    }
    /// An integer parameter.
    pub fn int(&self, key: &str) -> Option<i64> {
        self.get(key).and_then(Value::as_i64)
    }
    /// A string or array of strings, as a list.
    pub fn strs(&self, key: &str) -> Option<Vec<&str>> {
        match self.get(key)? {
            Value::String(s) => Some(vec![s.as_str()]),
            Value::Array(a) => Some(a.iter().filter_map(Value::as_str).collect()),
            _ => None,
        }
    }
    /// The add_many items, each validated.
    pub fn items(&self, key: &str) -> Vec<Params> {
        match self.get(key) {
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|v| v.as_object().map(|m| Params::from_map(m.clone())))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Parses `raw` (a JSON object, or empty) and validates it for `action`.
pub fn validate(action: &ActionSpec, raw: &str) -> ToolResult<Params> {
    let map = parse_object(raw, action)?;
    let params: Vec<&Param> = action.params().collect();
    check_object(&map, &params, action, "")?;
    let out = Params::from_map(map);
    if out.bool("bypass_private") == Some(true)
        && out.str("bypass_reason").is_none_or(|r| r.trim().is_empty())
    {
        return Err(ToolError::invalid(
            "bypass_private needs a non-empty bypass_reason",
            "say why you need another agent's private list; it is recorded in the audit log",
        ));
    }
    Ok(out)
}

fn parse_object(raw: &str, action: &ActionSpec) -> ToolResult<Map<String, Value>> {
    if raw.trim().is_empty() {
        return Ok(Map::new());
    }
    let value: Value = serde_json::from_str(raw).map_err(|e| {
        ToolError::invalid(
            format!("params is not valid JSON: {e}"),
            "pass params as a JSON object",
        )
    })?;
    match value {
        Value::Object(m) => Ok(m),
        Value::Null => Ok(Map::new()),
        other => Err(ToolError::invalid(
            format!("params must be a JSON object, got {}", kind_of(&other)),
            format!("see task_help schemas for {action}"),
        )),
    }
}

/// A parameter's path as errors name it (`tasks[2].title`): its object's
/// path and its key, joined only when an error needs it.
#[derive(Clone, Copy)]
struct At<'a>(&'a str, &'a str);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

fn check_object(
    map: &Map<String, Value>,
    params: &[&Param],
    context: &ActionSpec,
    path: &str,
) -> ToolResult<()> {
    let allowed = || params.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
    for (key, value) in map {
        let Some(param) = params.iter().find(|p| p.name == key) else {
            let mut msg = format!("unknown parameter {path}{} for {context}", quote(key));
            if let Some(near) = closest(key, params.iter().map(|p| p.name)) {
                msg.push_str(&format!("; did you mean {}?", quote(near)));
            }
            return Err(ToolError::invalid(msg, format!("allowed: {}", allowed())));
        };
        check_value(param, value, context, At(path, key))?;
    }
    if let Some(missing) = params
        .iter()
        .find(|p| p.required && !map.contains_key(p.name))
    {
        return Err(ToolError::invalid(
            format!(
                "missing required parameter {path}{} for {context}",
                quote(missing.name)
            ),
            format!("{}: {}", missing.name, missing.doc),
        ));
    }
    Ok(())
}

fn check_value(param: &Param, value: &Value, context: &ActionSpec, path: At) -> ToolResult<()> {
    let bad = |want: String| {
        Err(ToolError::invalid(
            format!("{path} must be {want}, got {}", shown(value)),
            format!("see task_help schemas for {context}"),
        ))
    };
    match param.ty {
        Ty::Str { min, max } => match value.as_str() {
            // A required text (name, title, reason, ref) must say something:
            // whitespace alone is refused like an empty string.
            Some(s) if min > 0 && s.trim().is_empty() => bad("a non-blank string".into()),
            // U+0000 is the one character a store cannot keep on every
            // engine (PostgreSQL's text refuses it): refused on both, so
            // the contract is the same whatever the store.
            Some(s) if s.contains('\0') => Err(ToolError::invalid(
                format!("{path} must not contain the NUL character (U+0000)"),
                "remove it; every other Unicode character is kept as sent",
            )),
            Some(s) if (min..=max).contains(&s.chars().count()) => Ok(()),
            _ => bad(format!("a string of {min} to {max} characters")),
        },
        Ty::Agent { nullable } => match value {
            Value::Null if nullable => Ok(()),
            Value::String(s) if is_agent_id(s) => Ok(()),
            _ => bad(format!(
                "an agent id ({AGENT_ID_RULE}){}",
                if nullable { " or null" } else { "" }
            )),
        },
        Ty::Bool => match value {
            Value::Bool(_) => Ok(()),
            _ => bad("true or false".into()),
        },
        Ty::Int { min, max } => match value.as_i64() {
            Some(i) if (min..=max).contains(&i) => Ok(()),
            _ => bad(format!("an integer from {min} to {max}")),
        },
        Ty::Enum(options) => match value.as_str() {
            Some(s) if options.contains(&s) => Ok(()),
            _ => bad(one_of(options, value)),
        },
        Ty::EnumOrList(options) => {
            let ok = match value {
                Value::String(s) => options.contains(&s.as_str()),
                Value::Array(a) => {
                    !a.is_empty()
                        && a.iter()
                            .all(|v| v.as_str().is_some_and(|s| options.contains(&s)))
                }
                _ => false,
            };
            if ok {
                Ok(())
            } else {
                bad(format!(
                    "{} (or a non-empty array of them)",
                    one_of(options, value)
                ))
            }
        }
        Ty::Id(kind) => match value.as_str() {
            Some(s) => check_id(kind, path, s),
            None => bad(format!("a {} string", kind.noun())),
        },
        Ty::Ids(kind, max) => {
            let Some(items) = value.as_array().filter(|a| !a.is_empty() && a.len() <= max) else {
                return bad(format!("an array of 1 to {max} {}s", kind.noun()));
            };
            for (i, v) in items.iter().enumerate() {
                let s = v.as_str().ok_or_else(|| {
                    ToolError::invalid(
                        format!("{path}[{i}] must be a {} string", kind.noun()),
                        id_hint(kind),
                    )
                })?;
                ids::check(kind, s)
                    .map_err(|m| ToolError::invalid(format!("{path}[{i}]: {m}"), id_hint(kind)))?;
            }
            Ok(())
        }
        Ty::Deps { refs } => check_deps(value, refs, path, context),
        Ty::Refs => check_refs(value, path),
        Ty::Labels { min } => check_labels(value, min, path),
        Ty::Label => match value.as_str() {
            Some(s) => check_one_label(s, path),
            None => Err(ToolError::invalid(
                format!("{path} must be a label string, got {}", shown(value)),
                labels_hint(),
            )),
        },
        Ty::Time => match value.as_str().and_then(parse_rfc3339) {
            Some(_) => Ok(()),
            None => bad("an RFC 3339 time such as 2026-11-30T12:00:00.000Z".into()),
        },
        Ty::Cursor => match value.as_str() {
            Some(s) if !s.is_empty() && s.len() <= 200 => Ok(()),
            _ => bad("the next_cursor string of a previous page".into()),
        },
        Ty::Items { max } => {
            let Some(items) = value.as_array().filter(|a| !a.is_empty() && a.len() <= max) else {
                return bad(format!("an array of 1 to {max} task objects"));
            };
            let item_params: Vec<&Param> = BATCH_ITEM.iter().collect();
            for (i, item) in items.iter().enumerate() {
                let Some(obj) = item.as_object() else {
                    return Err(ToolError::invalid(
                        format!(
                            "{path}[{i}] must be an object like {{\"title\": \"…\"}}, got {}",
                            shown(item)
                        ),
                        format!("see task_help schemas for {context}"),
                    ));
                };
                check_object(obj, &item_params, context, &format!("{path}[{i}]."))?;
            }
            Ok(())
        }
    }
}

fn check_deps(value: &Value, refs: bool, path: At, context: &ActionSpec) -> ToolResult<()> {
    let want = if refs {
        "task ids or batch refs"
    } else {
        "task ids"
    };
    let Some(items) = value
        .as_array()
        .filter(|a| a.len() <= super::defs::MAX_DEPS)
    else {
        return Err(ToolError::invalid(
            format!(
                "{path} must be an array of at most {} {want}, got {}",
                super::defs::MAX_DEPS,
                shown(value)
            ),
            format!("see task_help schemas for {context}"),
        ));
    };
    for (i, v) in items.iter().enumerate() {
        let Some(s) = v.as_str() else {
            return Err(ToolError::invalid(
                format!("{path}[{i}] must be a string"),
                format!("{path} holds {want}"),
            ));
        };
        // Inside a batch an entry may be a ref of another item (refs may
        // look like ids, e.g. `task_1`): add_many resolves refs first and
        // checks the rest as task ids.
        if !refs {
            ids::check(ids::IdKind::Task, s).map_err(|m| {
                ToolError::invalid(
                    format!("{path}[{i}]: {m}"),
                    "depends_on holds task ids of the same list",
                )
            })?;
        }
    }
    Ok(())
}

/// Refuses a `refs` value unless it is an array of at most
/// [`MAX_REFS`](super::refs::MAX_REFS) valid refs ([`super::refs`]).
pub fn check_refs(value: &Value, path: impl fmt::Display + Copy) -> ToolResult<()> {
    let hint = format!("refs: {}", super::refs::REFS_RULE);
    let Some(items) = value
        .as_array()
        .filter(|a| a.len() <= super::refs::MAX_REFS)
    else {
        return Err(ToolError::invalid(
            format!(
                "{path} must be an array of at most {} URIs, got {}",
                super::refs::MAX_REFS,
                shown(value)
            ),
            hint,
        ));
    };
    for (i, v) in items.iter().enumerate() {
        let Some(s) = v.as_str() else {
            return Err(ToolError::invalid(
                format!("{path}[{i}] must be a string, got {}", shown(v)),
                hint,
            ));
        };
        super::refs::check_ref(s)
            .map_err(|why| ToolError::invalid(format!("{path}[{i}]: {why}"), hint.clone()))?;
    }
    Ok(())
}

/// What every refused label is answered with: the rule.
fn labels_hint() -> String {
    format!("labels: {}", super::labels::LABELS_RULE)
}

/// Refuses one label given at `path` unless it follows
/// [`super::labels`]'s rule, naming it and the rule.
fn check_one_label(label: &str, path: impl fmt::Display) -> ToolResult<()> {
    super::labels::check_label(label)
        .map_err(|why| ToolError::invalid(format!("{path}: {why}"), labels_hint()))
}

/// Refuses a `labels` value unless it is an array of `min` to
/// [`MAX_LABELS`](super::labels::MAX_LABELS) valid labels (a repeat is
/// allowed: the task keeps each label once).
pub fn check_labels(value: &Value, min: usize, path: impl fmt::Display + Copy) -> ToolResult<()> {
    let max = super::labels::MAX_LABELS;
    let Some(items) = value.as_array().filter(|a| (min..=max).contains(&a.len())) else {
        return Err(ToolError::invalid(
            format!(
                "{path} must be an array of {min} to {max} labels, got {}",
                shown(value)
            ),
            labels_hint(),
        ));
    };
    for (i, v) in items.iter().enumerate() {
        let Some(s) = v.as_str() else {
            return Err(ToolError::invalid(
                format!("{path}[{i}] must be a string, got {}", shown(v)),
                labels_hint(),
            ));
        };
        check_one_label(s, format!("{path}[{i}]"))?;
    }
    Ok(())
}

/// Refuses `id`, given as the param at `path`, unless it is an id of
/// `kind`, in the words of every tool (the views check an id so too).
pub fn check_id(kind: ids::IdKind, path: impl fmt::Display, id: &str) -> ToolResult<()> {
    ids::check(kind, id).map_err(|m| ToolError::invalid(format!("{path}: {m}"), id_hint(kind)))
}

fn id_hint(kind: ids::IdKind) -> String {
    match kind {
        ids::IdKind::List => "list ids start with list_; task_lists find shows them".into(),
        ids::IdKind::Task => {
            "task ids start with task_; task_lists get shows a list's tasks".into()
        }
        ids::IdKind::Claim => "pass the claim.token returned by task_claims claim_next".into(),
        ids::IdKind::Event => "event ids start with evt_".into(),
    }
}

fn one_of(options: &[&str], value: &Value) -> String {
    let mut s = format!("one of {}", options.join(", "));
    if let Some(near) = value
        .as_str()
        .and_then(|v| closest(v, options.iter().copied()))
    {
        s.push_str(&format!(" (did you mean {}?)", quote(near)));
    }
    s
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The offending value, shortened so a huge payload does not flood the
/// error: strings as [`quote`] gives them, anything else as compact JSON
/// cut to 60 characters.
fn shown(v: &Value) -> String {
    if let Value::String(s) = v {
        return quote(s);
    }
    let s = json_text(v);
    if s.chars().count() <= 60 {
        s
    } else {
        format!(
            "{}… ({})",
            s.chars().take(57).collect::<String>(),
            kind_of(v)
        )
    }
}
