//! A person's action as the reply hosts show: done (the rendering and the
//! data), refused (the error and its lines) or a question, laid out for
//! the width.

use super::act::Outcome;
use crate::bindings::{PersonDone, PersonRefused, PersonReply};
use crate::error::ToolResult;
use crate::render::render_error;
use crate::views::layout::{fit_all, wrap_lines};

/// `outcome` laid out for `width` columns.
pub(crate) fn lay_out(outcome: ToolResult<Outcome>, width: usize) -> PersonReply {
    match outcome {
        Ok(Outcome::Done(done)) => PersonReply::Done(PersonDone {
            lines: fit_all(done.lines, width),
            data: done.data.to_string(),
        }),
        Ok(Outcome::Confirm(question)) => PersonReply::Confirm(question),
        Err(error) => {
            let error = crate::actions::printable_error(error);
            PersonReply::Refused(PersonRefused {
                lines: wrap_lines(render_error(&error), width),
                error,
            })
        }
    }
}
