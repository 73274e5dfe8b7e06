//! What a task waits on a person for, and the exchanges that put it
//! there: a question its agent asked ([`Ask`]) and the review of its
//! finish ([`Review`]). Each is stored whole as one JSON column of the
//! task (migration 0010) in the contract's own shape, so the task object
//! carries it as stored: one definition for the store and the agents.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Longest question, answer or reason, in characters: each reaches the
/// agent (or the person) whole, in every view of the task.
pub const MAX_SAID: usize = 2_000;

/// What a blocked task waits on a person for (the `waits_on` column and
/// field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaitsOn {
    /// Its agent asked a question: a person answers it.
    Answer,
    /// Its agent finished it: a person accepts it or returns it.
    Review,
}

impl WaitsOn {
    /// Both, in the inbox's order.
    pub const ALL: [WaitsOn; 2] = [WaitsOn::Answer, WaitsOn::Review];

    /// The name in SQL and JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            WaitsOn::Answer => "answer",
            WaitsOn::Review => "review",
        }
    }

    /// The state named `s`, if it is one.
    pub fn parse(s: &str) -> Option<WaitsOn> {
        WaitsOn::ALL.into_iter().find(|w| w.as_str() == s)
    }

    /// What every view calls a task waiting so, in a few words.
    pub const fn phrase(self) -> &'static str {
        match self {
            WaitsOn::Answer => "waits for a person's answer",
            WaitsOn::Review => "waits for a person's review",
        }
    }
}

impl fmt::Display for WaitsOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The last question asked on a task, and its answer once given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Ask {
    /// The question, as the agent wrote it.
    pub question: String,
    /// The agent that asked.
    pub by: String,
    /// When (RFC 3339).
    pub at: String,
    /// The person's answer (none yet: the task waits for it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// The person who answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<String>,
    /// When (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answered_at: Option<String>,
}

/// Where the review of a task's finish stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewState {
    /// Its agent closed it as done: a person accepts or returns it.
    #[default]
    Pending,
    /// A person accepted it: it is done.
    Accepted,
    /// A person returned it, with a reason: back to its agent as todo.
    Returned,
}

impl ReviewState {
    /// The name in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            ReviewState::Pending => "pending",
            ReviewState::Accepted => "accepted",
            ReviewState::Returned => "returned",
        }
    }
}

/// The last review of a task's finish.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Review {
    /// Where it stands.
    pub state: ReviewState,
    /// The agent that sent it to review.
    pub submitted_by: String,
    /// When (RFC 3339).
    pub submitted_at: String,
    /// The person who accepted or returned it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// When (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Why it was returned (what the agent should change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A JSON column as stored (NULL or text that is not ours: none).
pub fn read_column<T: serde::de::DeserializeOwned>(v: Option<&crate::store::Value>) -> Option<T> {
    v.and_then(crate::store::Value::as_str)
        .and_then(|s| serde_json::from_str(s).ok())
}

/// The column text of `value` (None: NULL).
pub fn column<T: Serialize>(value: Option<&T>) -> Option<String> {
    value.and_then(|v| serde_json::to_string(v).ok())
}
