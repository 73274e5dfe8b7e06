//! The dashboard's state between two inputs, kept by the host as opaque
//! JSON text: what is opened and selected (by id, so a change in the store
//! keeps the selection on the same list or task), whether finished tasks
//! are hidden, the prompt being typed, and the last action's result.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

/// Most characters a prompt holds: a title or an outcome, not a file.
pub(crate) const PROMPT_MAX: usize = 4000;

/// The dashboard's state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {
    /// The list opened (its tasks shown); none: the lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
    /// The task whose details are shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The selected row's id (a list, or a task of the opened list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<String>,
    /// The selected row's place, kept for when it is gone (deleted,
    /// hidden): the selection stays where it was.
    pub row: usize,
    /// Done and canceled tasks are hidden.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hide_finished: bool,
    /// The prompt being answered, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Prompt>,
    /// The last action's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
    /// It was drawn before (the first draw opens a lone list).
    pub drawn: bool,
}

impl State {
    /// The state a host passed back; a fresh one for `""` or anything
    /// that is not a state this component wrote.
    pub(crate) fn read(text: &str) -> State {
        serde_json::from_str(text).unwrap_or_default()
    }

    /// The state as the host keeps it.
    pub(crate) fn write(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A question the dashboard asks before an action runs: a line of text
/// (one field after another) or a yes/no.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Prompt {
    /// The person's action it leads to.
    pub action: String,
    /// Its target's id.
    pub target: String,
    /// What the prompt line says before the text (or the question).
    pub label: String,
    /// A yes/no question (else a line of text).
    pub yes_no: bool,
    /// The field the text goes to.
    pub field: String,
    /// The text typed so far.
    pub buffer: String,
    /// The fields answered before this one.
    pub fields: Map<String, Json>,
    /// The fields still to ask, in order: (field, label).
    pub then: Vec<(String, String)>,
    /// On yes, the action is sent confirmed (a delete's question).
    pub confirms: bool,
}

/// The last action's result, shown until the next action.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Message {
    /// What happened, or the error.
    pub text: String,
    /// The error's hint.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub hint: String,
    /// It was refused.
    pub failed: bool,
}
