//! A person's request's fields read: a JSON object whose keys the verb's
//! row lists (`verbs.rs`); anything else is refused naming what the verb
//! takes.

use serde_json::{Map, Value};

use super::verbs::Verb;
use crate::bindings::PersonSurface;
use crate::error::{ToolError, ToolResult};

/// The fields of a request, checked against its action.
#[derive(Debug, Clone, Default)]
pub(crate) struct Fields(Map<String, Value>);

impl Fields {
    /// Reads `text` (a JSON object, or `""` for none) for `verb`: unknown
    /// keys and missing required ones are refused, named as `surface`
    /// names them (a shell's flags).
    pub(crate) fn parse(verb: &Verb, text: &str, surface: PersonSurface) -> ToolResult<Fields> {
        let map = match text.trim() {
            "" => Map::new(),
            raw => match serde_json::from_str::<Value>(raw) {
                Ok(Value::Object(m)) => m,
                Ok(Value::Null) => Map::new(),
                Ok(_) => return Err(ToolError::invalid("fields must be a JSON object", "")),
                Err(e) => {
                    return Err(ToolError::invalid(
                        format!("fields is not valid JSON: {e}"),
                        "pass the fields as a JSON object, e.g. {\"title\": \"…\"}",
                    ));
                }
            },
        };
        let takes = verb.fields;
        let names = || {
            if takes.is_empty() {
                "nothing more".to_string()
            } else {
                takes
                    .iter()
                    .map(|f| verb.named(surface, f.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        if let Some(key) = map.keys().find(|k| verb.field(k).is_none()) {
            return Err(ToolError::invalid(
                format!("{} takes no {}", verb.name, verb.named(surface, key)),
                format!("{} takes {}", verb.name, names()),
            ));
        }
        let fields = Fields(map);
        for field in takes {
            let blank = match fields.raw(field.name) {
                None => true,
                Some(Value::String(s)) => s.trim().is_empty(),
                Some(_) => false,
            };
            if field.required && blank {
                return Err(ToolError::invalid(
                    format!("{} needs {}", verb.name, verb.named(surface, field.name)),
                    format!("{} takes {}", verb.name, names()),
                ));
            }
        }
        Ok(fields)
    }

    /// Field `name` as text (a number is taken as its digits), if given.
    pub(crate) fn text(&self, name: &str) -> ToolResult<Option<&str>> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(ToolError::invalid(format!("field {name} must be text"), "")),
        }
    }

    /// Field `name` as it was given (text or a number).
    pub(crate) fn raw(&self, name: &str) -> Option<&Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    /// Whether no field was given.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.values().all(Value::is_null)
    }
}

/// The items of a list typed as text (labels, the tasks a task waits
/// for): separated by commas, spaces or line breaks, none empty. Neither
/// a label nor a task's id holds any of these.
pub(crate) fn items(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}
