//! Writing a fitted [`Plan`] into a list, inside the import's one
//! transaction: the tasks at the end of the list in the plan's order,
//! with their source's times (else the import's), then their
//! dependencies (once every task exists: an item may depend on one after
//! it). The import is one audit event of the list (written by the
//! caller), not an event a task.

use std::collections::HashMap;

use super::plan::Plan;
use crate::actions::Call;
use crate::actions::deps;
use crate::error::ToolResult;
use crate::ids::IdKind;
use crate::model::{Approval, ListRow, refs_column};

/// One task as created: its new id, where it came from, its title,
/// position and status.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Created {
    /// The new task id.
    pub id: String,
    /// Its id (or line) in the file.
    pub source: String,
    /// Its title.
    pub title: String,
    /// Its position in the list.
    pub position: i64,
    /// Its status.
    pub status: crate::model::Status,
}

/// Inserts the plan's tasks after the list's last task; returns them.
/// A task added to an approved plan waits for a person's approval, as
/// `task_items create` would make it. The plan was fitted: its keys are
/// unique, its dependencies name its own items and make no cycle.
pub fn write(call: &Call, list: &ListRow, plan: &Plan) -> ToolResult<Vec<Created>> {
    let first = list.counts.total() + 1;
    let awaits = list.approval == Some(Approval::Approved);
    let ids: HashMap<&str, String> = plan
        .items
        .iter()
        .map(|i| (i.key.as_str(), call.new_id(IdKind::Task)))
        .collect();
    let now = call.now();
    let mut out = Vec::with_capacity(plan.items.len());
    for (n, item) in plan.items.iter().enumerate() {
        let id = ids[item.key.as_str()].clone();
        let position = first + n as i64;
        let t = item.times;
        let created = t.created.unwrap_or(now);
        let updated = t.updated.unwrap_or(created).max(created);
        let completed = item
            .status
            .is_closed()
            .then(|| t.completed.unwrap_or(updated));
        call.exec(
            "INSERT INTO tasks (id, list_id, position, title, description, notes, status, assigned_to_agent_id, \
             outcome, created_at, updated_at, started_at, completed_at, priority, verification, verification_result, \
             awaits_approval, refs, labels, requires_review) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            crate::params![
                id.as_str(),
                list.id.as_str(),
                position,
                item.title.as_str(),
                item.description.clone(),
                item.notes.clone(),
                item.status.as_str(),
                item.assigned.clone(),
                item.outcome.clone(),
                created,
                updated,
                t.started,
                completed,
                item.priority.rank(),
                item.verification.clone(),
                item.verification_result.clone(),
                i64::from(awaits),
                refs_column(&item.refs),
                crate::model::labels_column(&item.labels),
                i64::from(item.requires_review || list.requires_review)
            ],
        )?;
        out.push(Created {
            id,
            source: item.key.clone(),
            title: item.title.clone(),
            position,
            status: item.status,
        });
    }
    for item in &plan.items {
        let on: Vec<String> = item
            .depends_on
            .iter()
            .map(|d| ids[d.as_str()].clone())
            .collect();
        deps::write(call, &ids[item.key.as_str()], &on, false)?;
    }
    Ok(out)
}
