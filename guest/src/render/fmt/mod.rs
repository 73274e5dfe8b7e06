//! Shared formatting helpers of the renderers, one concern a file: text
//! cleaning and widths, short ids, status badges, priority marks, labels, dates and durations, list
//! counters and scopes, and tolerant JSON access. Everything here is total:
//! odd input gives a sensible string, never a panic.

mod ids;
mod json;
mod labels;
mod list_info;
mod priority;
mod status;
#[cfg(test)]
mod tests;
mod text;
mod time;

pub(crate) use ids::short_id;
pub(crate) use json::{arr, as_int, compact_json, compact_value, int, nonblank, opt, str_of};
pub(crate) use labels::labels;
pub(crate) use list_info::{count_tasks, counters, scope, scope_of, visibility};
pub(crate) use priority::{priority, priority_of};
pub(crate) use status::{status, task_badge};
pub(crate) use text::{one_line, take_width, truncate, truncate_left, width};
pub(crate) use time::{compact_date, date, duration, seconds_between};

/// `1 task`, `3 tasks`: the same wording as the summaries.
pub(crate) use crate::text::plural;
