//! An action of the contract as one type: its spec (the contract's data),
//! the type of its result and the handler that produces it. The renderer
//! of the same result is `crate::render::Render`, implemented for the same
//! type, and the registry joins the two: a renderer that reads another
//! type than its handler returns does not compile.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::call::Call;
use crate::contract::ActionSpec;
use crate::error::ToolResult;

/// One action: spec, result and handler.
pub trait Action: 'static {
    /// What a successful call returns; its JSON is the contract's result
    /// object, and a renderer reads it back as this type.
    type Result: Serialize + DeserializeOwned;
    /// The action's spec: its tool, name, params, example.
    const SPEC: &'static ActionSpec;
    /// Runs the action inside the call's one transaction.
    fn run(call: &mut Call) -> ToolResult<Done<Self::Result>>;
}

/// What a successful action returns: the one-line summary that leads the
/// reply and the typed result.
#[derive(Debug, Clone, PartialEq)]
pub struct Done<R> {
    /// One line for humans and models; full ids included.
    pub summary: String,
    /// The result object.
    pub result: R,
}
