//! The board's columns, one definition for the board that draws them
//! (board.rs) and the drop rules that name them (drop.rs).

use crate::model::Status;

/// The columns: their `data-column`, heading, and the statuses they hold.
pub(crate) const COLUMNS: [(&str, &str, &[Status]); 4] = [
    ("todo", "todo", &[Status::Todo]),
    ("running", "running", &[Status::InProgress]),
    ("paused", "paused", &[Status::Blocked]),
    ("closed", "closed", &[Status::Done, Status::Canceled]),
];
