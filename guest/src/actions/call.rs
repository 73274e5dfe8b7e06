//! One running tool call: its transaction, validated params, identity and
//! clock reading, plus the helpers every action shares (queries, events).

use serde_json::Value as Json;

use std::cell::OnceCell;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::clock::Clock;
use crate::context::{CallContext, require_agent};
use crate::contract::{ActionSpec, Params, ToolSpec};
use crate::error::{ToolError, ToolResult};
use crate::ids::{IdKind, new_id};
use crate::store::{PackedRows, Tx, Value};

/// Most values in one `IN (…)` list: well under every engine's limit on
/// parameters per statement.
pub const IN_LIST_MAX: usize = 500;

/// Writes one audit event (id, at, agent_id, kind, list_id, task_id, data).
pub const INSERT_EVENT: &str = "INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) VALUES (?, ?, ?, ?, ?, ?, ?)";

/// What a successful action returns: a one-line summary and the data object.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// One line for humans and models; full ids included.
    pub summary: String,
    /// The contract's result object as compact JSON text, safe to print
    /// ([`crate::text::json_text`]): what the agent receives, written
    /// once from the result's type.
    pub data: String,
}

impl Output {
    /// The result object as JSON, for the views that read it back.
    pub fn json(&self) -> Json {
        serde_json::from_str(&self.data).unwrap_or(Json::Null)
    }
}

/// One bypass of a call: the event as it was written in the call
/// (`super::bypass` writes it, and again if the call fails).
#[derive(Debug, Clone)]
pub struct Bypass {
    /// The event id (the same when it is written again).
    pub(super) id: String,
    /// The list bypassed.
    pub list_id: String,
    /// The event's data: tool, action, reason, owner.
    pub(super) data: Json,
}

/// A tool call in progress.
pub struct Call<'a> {
    /// The call's one transaction.
    pub tx: &'a dyn Tx,
    /// The tool being called.
    pub tool: &'static ToolSpec,
    /// The action being run.
    pub action: &'static ActionSpec,
    /// Validated params.
    pub params: Params,
    /// The effective identity, if any.
    pub agent: Option<String>,
    /// The host's context (workspace, thread).
    pub ctx: &'a CallContext,
    /// The host clock, read when the call first needs the time
    /// ([`Call::now`]).
    pub clock: &'a dyn Clock,
    /// The call's time, once read (or dated by the store: [`Call::date`]).
    pub dated: OnceCell<i64>,
    /// The bypasses of this call, one per list, already audited.
    pub bypasses: Vec<Bypass>,
    /// The person this call acts for (a person's action, never a tool
    /// call): its events name the person, marked `"by": "person"`, instead
    /// of the agent.
    pub person: Option<String>,
    /// Whose access rules apply to the lists (the agent; for a person's
    /// action, the context's agent, whose view the person acts on).
    pub viewer: Option<String>,
    /// Whether and how the call may end in the round trip of its last
    /// statement ([`Call::rows_then_commit`]).
    pub ending: Ending,
}

/// How a call may end before its handler returns: committed with its last
/// statement, or halted to run again the usual way.
#[derive(Debug, Default)]
pub struct Ending {
    /// The call may commit with its last statement: its lock rode with its
    /// first statement (the schema known current), and it is no rehearsal.
    pub one_trip: bool,
    /// It did ([`Call::rows_then_commit`]): the transaction is finished.
    committed: std::cell::Cell<bool>,
    /// It asked to run again ([`Call::run_again`]).
    again: bool,
}

impl Ending {
    /// A call not ended yet; `one_trip` as [`Ending::one_trip`].
    pub fn new(one_trip: bool) -> Self {
        Ending {
            one_trip,
            ..Ending::default()
        }
    }

    /// Whether the call committed with its last statement.
    pub fn committed(&self) -> bool {
        self.committed.get()
    }

    /// Whether the call asked to run again.
    pub fn again(&self) -> bool {
        self.again
    }
}

/// The latest time a call of this instance had: the time part of the ids
/// a call makes before it is dated ([`Call::new_id_undated`]).
static LAST_DATED: AtomicI64 = AtomicI64::new(0);

impl Call<'_> {
    /// The call's time: the host clock, read the first time the call
    /// needs it and kept (one call has one time). Read late on purpose: a
    /// write's first statement, with its lock pipelined, goes out before
    /// anything waits for the clock (on PostgreSQL the reading then comes
    /// with that statement's BEGIN, dated from when it was sent, so it
    /// runs on through the lock's wait: a write is never dated before a
    /// writer it waited for).
    pub fn now(&self) -> i64 {
        *self.dated.get_or_init(|| {
            let now = self.clock.now_ms();
            LAST_DATED.store(now, Ordering::Relaxed);
            now
        })
    }

    /// The call's time if it was read already.
    pub fn now_if_read(&self) -> Option<i64> {
        self.dated.get().copied()
    }

    /// Dates the call at `ms` (the store's clock as a statement of the
    /// call read it: a PostgreSQL claim takes its time from the server
    /// after its locks) unless its time was read already; the call's
    /// time either way.
    pub fn date(&self, ms: i64) -> i64 {
        *self.dated.get_or_init(|| {
            LAST_DATED.store(ms, Ordering::Relaxed);
            ms
        })
    }

    /// A fresh id of `kind` for a call not dated yet, without reading the
    /// clock: its time part is the latest time of a call of this instance
    /// (the clock is read for the first). An id's time part orders
    /// nothing (events are ordered by their sequence, tasks by position):
    /// a claim's token and event made before its statement dates it.
    pub fn new_id_undated(&self, kind: IdKind) -> String {
        match self.now_if_read() {
            Some(now) => new_id(kind, now),
            None => match LAST_DATED.load(Ordering::Relaxed) {
                0 => self.new_id(kind),
                last => new_id(kind, last),
            },
        }
    }

    /// The identity, or `agent_required`.
    pub fn agent(&self) -> ToolResult<&str> {
        require_agent(&self.agent, self.action)
    }

    /// Whose running lease counts as the caller's own: the agent's for a
    /// tool call; nobody's for a person's action (a person never holds an
    /// agent's claim, not even one of an agent named like the person).
    pub fn claim_holder(&self) -> Option<&str> {
        match self.person {
            Some(_) => None,
            None => self.agent.as_deref(),
        }
    }

    /// Whether this call reached `list_id` through a bypass: then its
    /// errors tell no more than the call would have shown had it worked
    /// ([`super::bypass`]).
    pub fn redacts(&self, list_id: &str) -> bool {
        self.bypasses.iter().any(|b| b.list_id == list_id)
    }

    /// Runs a query and returns its rows.
    pub fn rows(&self, sql: &str, params: &[Value]) -> ToolResult<Vec<Vec<Value>>> {
        Ok(self.tx.query(sql, params)?.rows)
    }

    /// Runs a query and returns its rows to be read in place (no value
    /// per cell: for the rows of a page).
    pub fn packed_rows(&self, sql: &str, params: &[Value]) -> ToolResult<PackedRows> {
        Ok(self.tx.query_packed(sql, params)?)
    }

    /// Runs the call's last statement, a query, and commits with it: on
    /// PostgreSQL one round trip for both (the WIT `query-then-commit`).
    /// Only where [`Ending::one_trip`]: nothing may run after it, and its
    /// rows come back only if it committed. Nothing after it can roll it
    /// back, so the statement itself must change nothing that the call
    /// would refuse.
    pub fn rows_then_commit(&self, sql: &str, params: &[Value]) -> ToolResult<Vec<Vec<Value>>> {
        debug_assert!(self.ending.one_trip, "only a call that may end so");
        self.ending.committed.set(true);
        self.tx
            .query_then_commit(sql, params)
            .map(|rows| rows.rows)
            .map_err(ToolError::commit_failed)
    }

    /// Halts a call that ended with [`Call::rows_then_commit`] without
    /// finishing its work (its statement changed nothing): it runs again
    /// from the start, the usual way. What it returns is what the handler
    /// returns; the caller never sees it.
    pub fn run_again(&mut self) -> ToolError {
        self.ending.again = true;
        ToolError::new(
            crate::error::ErrorCode::Storage,
            "the call runs again",
            "nothing to do",
        )
    }

    /// Runs a statement; returns the rows changed.
    pub fn exec(&self, sql: &str, params: &[Value]) -> ToolResult<u64> {
        Ok(self.tx.execute(sql, params)?)
    }

    /// A fresh id of `kind`.
    pub fn new_id(&self, kind: IdKind) -> String {
        new_id(kind, self.now())
    }

    /// Who an event of this call names: the person it acts for, else the
    /// agent.
    pub(super) fn actor(&self) -> Option<String> {
        self.person.clone().or_else(|| self.agent.clone())
    }

    /// An event's data as stored: a person's events carry `"by": "person"`.
    pub(super) fn event_data(&self, data: &Json) -> String {
        match (&self.person, data) {
            (Some(_), Json::Object(map)) => {
                let mut map = map.clone();
                map.insert("by".into(), Json::from("person"));
                compact(&Json::Object(map))
            }
            (Some(_), Json::Null) => compact(&serde_json::json!({"by": "person"})),
            _ => compact(data),
        }
    }

    /// Records an audit event in the call's transaction; its id.
    pub fn event(
        &self,
        kind: &str,
        list_id: Option<&str>,
        task_id: Option<&str>,
        data: Json,
    ) -> ToolResult<String> {
        let id = self.new_id(IdKind::Event);
        self.exec(
            INSERT_EVENT,
            crate::params![
                id.as_str(),
                self.now(),
                self.actor(),
                kind,
                list_id,
                task_id,
                self.event_data(&data)
            ],
        )?;
        Ok(id)
    }

    /// Runs `update` (an `UPDATE` of one row, no `RETURNING`) and records
    /// its `kind` event if it changed the row, in one statement where the
    /// dialect can ([`crate::store::SqlDialect::with_event`]), else in two;
    /// returns the rows changed.
    pub fn exec_with_event(
        &self,
        update: &str,
        params: &[Value],
        kind: &str,
        list_id: Option<&str>,
        task_id: Option<&str>,
        data: Json,
    ) -> ToolResult<u64> {
        let id = self.new_id(IdKind::Event);
        let event = crate::params![
            id.as_str(),
            self.now(),
            self.actor(),
            kind,
            list_id,
            task_id,
            self.event_data(&data)
        ];
        if let Some(sql) = self.tx.dialect().with_event(update, INSERT_EVENT) {
            return self.exec(&sql, &[params, event].concat());
        }
        let changed = self.exec(update, params)?;
        if changed > 0 {
            self.exec(INSERT_EVENT, event)?;
        }
        Ok(changed)
    }

    /// [`Call::exec_with_event`] for a change whose count the caller does
    /// not need, made last: where the dialect writes both in one statement
    /// it is sent with the commit, in its round trip (the store's
    /// `pipeline`); its failure fails the commit, and the call.
    pub fn exec_with_event_last(
        &self,
        update: &str,
        params: &[Value],
        kind: &str,
        list_id: Option<&str>,
        task_id: Option<&str>,
        data: Json,
    ) -> ToolResult<()> {
        if let Some(sql) = self.tx.dialect().with_event(update, INSERT_EVENT) {
            let event = crate::params![
                self.new_id(IdKind::Event),
                self.now(),
                self.actor(),
                kind,
                list_id,
                task_id,
                self.event_data(&data)
            ];
            self.tx.pipeline(&sql, &[params, event].concat())?;
            return Ok(());
        }
        self.exec_with_event(update, params, kind, list_id, task_id, data)
            .map(drop)
    }

    /// Records one `kind` event per task of `list_id` (task id, data), a
    /// few rows per statement: what a change of many tasks at once writes.
    pub fn task_events(
        &self,
        kind: &str,
        list_id: &str,
        tasks: &[(String, Json)],
    ) -> ToolResult<()> {
        /// Rows per INSERT (seven parameters each).
        const ROWS: usize = 100;
        for chunk in tasks.chunks(ROWS) {
            let values = vec!["(?, ?, ?, ?, ?, ?, ?)"; chunk.len()].join(", ");
            let mut args: Vec<Value> = Vec::with_capacity(chunk.len() * 7);
            for (task_id, data) in chunk {
                args.extend([
                    Value::from(self.new_id(IdKind::Event)),
                    Value::Integer(self.now()),
                    Value::from(self.actor()),
                    Value::from(kind),
                    Value::from(list_id),
                    Value::from(task_id.as_str()),
                    Value::from(self.event_data(data)),
                ]);
            }
            self.exec(
                &format!(
                    "INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) VALUES {values}"
                ),
                &args,
            )?;
        }
        Ok(())
    }

    /// Marks a list as changed now, so `find` sorts it first. Task writes
    /// do this through the schema's triggers (migration 0004); a reorder,
    /// which changes positions but no task's `updated_at`, does it here.
    pub fn touch_list(&self, list_id: &str) -> ToolResult<()> {
        self.exec(
            "UPDATE lists SET updated_at = ? WHERE id = ?",
            crate::params![self.now(), list_id],
        )?;
        Ok(())
    }
}

/// `data` as compact JSON, as `Display` writes it, written straight into
/// bytes instead of through a formatter (a measurable share of a write
/// call's guest time). A JSON value always serializes.
fn compact(data: &Json) -> String {
    serde_json::to_string(data).unwrap_or_else(|_| data.to_string())
}
