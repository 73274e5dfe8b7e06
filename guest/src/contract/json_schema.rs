//! JSON Schemas generated from the parameter tables, for `task_help schemas`
//! and the catalogue's tool input schemas.

use serde_json::{Map, Value, json};

use super::defs::BATCH_ITEM;
use super::{ActionSpec, Param, ToolSpec, Ty};
use crate::ids::MAX_AGENT_ID;

/// The JSON Schema of one action's `params` object: for a tool that takes
/// no params, the empty object.
pub fn action_schema(tool: &ToolSpec, action: &ActionSpec) -> Value {
    if tool.takes_params {
        object_schema(action.params())
    } else {
        object_schema(std::iter::empty())
    }
}

fn object_schema<'a>(params: impl Iterator<Item = &'a Param>) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for p in params {
        let mut schema = type_schema(p.ty);
        if let Value::Object(m) = &mut schema {
            m.insert("description".into(), p.doc.into());
        }
        props.insert(p.name.into(), schema);
        if p.required {
            required.push(Value::from(p.name));
        }
    }
    let mut out = json!({"type": "object", "properties": props, "additionalProperties": false});
    if !required.is_empty() {
        out["required"] = Value::Array(required);
    }
    out
}

fn type_schema(ty: Ty) -> Value {
    match ty {
        Ty::Str { min, max } => json!({"type": "string", "minLength": min, "maxLength": max}),
        Ty::Agent { nullable: false } => {
            json!({"type": "string", "minLength": 1, "maxLength": MAX_AGENT_ID})
        }
        Ty::Agent { nullable: true } => {
            json!({"type": ["string", "null"], "minLength": 1, "maxLength": MAX_AGENT_ID})
        }
        Ty::Bool => json!({"type": "boolean"}),
        Ty::Int { min, max } => json!({"type": "integer", "minimum": min, "maximum": max}),
        Ty::Enum(options) => json!({"enum": options}),
        Ty::EnumOrList(options) => json!({"anyOf": [
            {"enum": options},
            {"type": "array", "items": {"enum": options}, "minItems": 1}
        ]}),
        Ty::Id(kind) => json!({"type": "string", "pattern": id_pattern(kind)}),
        Ty::Ids(kind, max) => json!({"type": "array", "minItems": 1, "maxItems": max,
            "items": {"type": "string", "pattern": id_pattern(kind)}}),
        Ty::Deps { .. } => {
            json!({"type": "array", "maxItems": super::defs::MAX_DEPS, "items": {"type": "string"}})
        }
        Ty::Refs => json!({"type": "array", "maxItems": super::refs::MAX_REFS,
            "items": {"type": "string", "minLength": 1, "maxLength": super::refs::MAX_REF_CHARS}}),
        Ty::Labels { min } => json!({"type": "array", "minItems": min,
            "maxItems": super::labels::MAX_LABELS, "items": label_schema()}),
        Ty::Label => label_schema(),
        Ty::Time => json!({"type": "string", "format": "date-time"}),
        Ty::Cursor => json!({"type": "string"}),
        Ty::Items { max } => {
            json!({"type": "array", "minItems": 1, "maxItems": max, "items": object_schema(BATCH_ITEM.iter())})
        }
    }
}

/// One label: [`super::labels`]'s rule as a pattern.
fn label_schema() -> Value {
    json!({"type": "string", "pattern": super::labels::LABEL_PATTERN})
}

/// The pattern of a canonical id of `kind`: prefix + 26 Crockford base32.
fn id_pattern(kind: crate::ids::IdKind) -> String {
    format!("^{}[0-9A-HJKMNP-TV-Z]{{26}}$", kind.prefix())
}

/// The compact input schema of a tool, as sent in every agent prompt:
/// `action` (enum) and an open `params` object. Per-action schemas stay in
/// `task_help schemas` so that the prompt stays small.
pub fn tool_input_schema(tool: &ToolSpec, actions: &[&ActionSpec]) -> Value {
    let names: Vec<&str> = actions.iter().map(|a| a.name).collect();
    let mut props = Map::new();
    props.insert("action".into(), json!({"type": "string", "enum": names}));
    if tool.takes_params {
        props.insert(
            "params".into(),
            json!({"type": "object", "description": "see task_help schemas"}),
        );
    }
    json!({"type": "object", "properties": props, "required": ["action"], "additionalProperties": false})
}
