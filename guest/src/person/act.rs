//! The one dispatcher of a person's actions: each verb of `verbs.rs` has
//! its handler here (one row of [`HANDLERS`]), which runs the tools' own
//! action (or the approval step) in one transaction, as the person, on
//! the target resolved among what the context sees.

use serde_json::{Value as Json, json};

use super::fields::{self, Fields};
use super::identity;
use super::resolve::{self, Target};
use super::verbs::{self, Aim, Verb};
use super::words;
use crate::actions::claims::{ClaimNext, ClaimNextTask};
use crate::actions::items::{CreateTask, DeleteTasks};
use crate::actions::items_update::UpdateTask;
use crate::actions::lists::DeleteList;
use crate::actions::reorder::ReorderTasks;
use crate::actions::{Action, Done, Request, invoke, invoke_fn};
use crate::actions::{approval, release, settle};
use crate::bindings::{CallContext, Confirmation, PersonRequest, PersonSurface};
use crate::clock::Clock;
use crate::context::effective_agent;
use crate::contract::{Access, ActionSpec, TASK_LISTS};
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::model::{Approval, ListRow, Priority, Status, TaskRow};
use crate::render::{Line, Render, Style, fmt, line, render_as};
use crate::results::to_json;
use crate::store::Store;
use crate::text::quote;

/// A step of a person's that is no tool action, as a spec: it names the
/// step in errors and decides the transaction (these specs are in no
/// registry, so no tool call reaches them).
const fn step(name: &'static str, writes: bool) -> ActionSpec {
    ActionSpec {
        tool: &TASK_LISTS,
        name,
        summary: "a person's step",
        own_params: &[],
        access: Access::List,
        writes,
        example: "{}",
    }
}

/// Reading what the person sees (resolving a target, the dashboard).
pub(crate) static READ: ActionSpec = step("view", false);
/// A person's approval.
static APPROVE: ActionSpec = step("approve", true);
/// A person's rejection.
static REJECT: ActionSpec = step("reject", true);
/// A person answering a question.
static ANSWER: ActionSpec = step("answer", true);
/// A person accepting work in review.
static ACCEPT: ActionSpec = step("accept", true);
/// A person returning work in review.
static RETURN: ActionSpec = step("return", true);
/// A person taking a claim back.
static RELEASE: ActionSpec = step("release", true);

/// The identity `next` asks for when the context has no agent: one that
/// holds nothing and is assigned nothing, so the answer is "anyone's".
const ANYONE: &str = "anyone";

/// What a person's action came to.
#[derive(Debug, Clone)]
pub(crate) enum Outcome {
    /// Carried out.
    Done(Carried),
    /// Asks first (`delete`).
    Confirm(Confirmation),
}

/// An action carried out.
#[derive(Debug, Clone)]
pub(crate) struct Carried {
    /// One short line in the person's words (the dashboard's result line).
    pub said: String,
    /// The component's rendering of the result.
    pub lines: Vec<Line>,
    /// The result's data.
    pub data: Json,
}

/// What a person's action runs with.
pub(crate) struct Env<'a> {
    /// The host's context.
    pub ctx: &'a CallContext,
    /// The store.
    pub store: &'a dyn Store,
    /// The clock.
    pub clock: &'a dyn Clock,
    /// Where the person acts (how refusals name things).
    pub surface: PersonSurface,
}

impl<'a> Env<'a> {
    /// A request as the person (None: as the context's agent).
    fn request(&self, params: &'a str, person: Option<&'a str>) -> Request<'a> {
        Request {
            person,
            ..Request::new(params, self.ctx, self.store, self.clock)
        }
    }

    /// The target `text` names, resolved in its own read.
    pub(crate) fn resolve(&self, text: &str, aim: Aim) -> ToolResult<Target> {
        invoke_fn(self.request("", None), &READ, |call| {
            Ok(Done {
                summary: String::new(),
                result: resolve::target(call, text, aim, self.surface)?,
            })
        })
        .map(|d| d.result)
    }
}

/// What carries out a verb on its resolved target.
type Handler = fn(&Act<'_>, &Target) -> ToolResult<Outcome>;

/// Each verb's handler: one row per row of `verbs::VERBS` (a test checks
/// none is missing).
static HANDLERS: &[(&Verb, Handler)] = &[
    (&verbs::APPROVE, |a, t| a.approve(t)),
    (&verbs::REJECT, |a, t| a.reject(t)),
    (&verbs::ANSWER, |a, t| a.answer(a.task(t)?)),
    (&verbs::ACCEPT, |a, t| a.accept(a.task(t)?)),
    (&verbs::RETURN, |a, t| a.return_task(a.task(t)?)),
    (&verbs::ADD, |a, t| a.add(t)),
    (&verbs::EDIT, |a, t| a.edit(a.task(t)?, t.list())),
    (&verbs::PRIORITY, |a, t| a.priority(a.task(t)?)),
    (&verbs::BLOCK, |a, t| a.block(a.task(t)?)),
    (&verbs::UNBLOCK, |a, t| a.unblock(a.task(t)?)),
    (&verbs::CANCEL, |a, t| a.cancel(a.task(t)?)),
    (&verbs::RESTORE, |a, t| a.restore(a.task(t)?)),
    (&verbs::ASSIGN, |a, t| a.assign(a.task(t)?)),
    (&verbs::UNASSIGN, |a, t| a.unassign(a.task(t)?)),
    (&verbs::MOVE, |a, t| a.move_task(a.task(t)?)),
    (&verbs::DONE, |a, t| a.done(a.task(t)?)),
    (&verbs::RELEASE, |a, t| a.release(a.task(t)?)),
    (&verbs::DELETE, |a, t| match t {
        Target::Task(task, _) => a.delete_task(task),
        Target::List(_) => a.delete_list(t),
    }),
    (&verbs::NEXT, |a, t| a.next(t)),
];

/// The handler of `verb`.
fn handler(verb: &Verb) -> Option<Handler> {
    HANDLERS.iter().find(|(v, _)| *v == verb).map(|(_, h)| *h)
}

/// Whether `verb` has a handler (a row without one is a bug a test finds).
#[cfg(test)]
pub(super) fn has_handler(verb: &Verb) -> bool {
    handler(verb).is_some()
}

/// Carries out `request` as the context's person.
pub(crate) fn run(
    request: &PersonRequest,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Outcome> {
    let verb = verbs::find(&request.action)?;
    // Who acts comes first: a read-only surface says so whatever was typed.
    let person = if verb.writes {
        Some(identity::person(ctx, verb.name).map_err(|e| words::no_person(e, request.surface))?)
    } else {
        None
    };
    let fields = Fields::parse(verb, &request.fields, request.surface)?;
    let env = Env {
        ctx,
        store,
        clock,
        surface: request.surface,
    };
    let target = env.resolve(&request.target, verb.aim)?;
    let act = Act {
        env,
        verb,
        person,
        fields,
        confirmed: request.confirmed,
    };
    let run = handler(verb)
        .ok_or_else(|| ToolError::invalid(format!("{} has no handler", verb.name), ""))?;
    run(&act, &target)
}

/// One action under way.
struct Act<'a> {
    env: Env<'a>,
    verb: &'static Verb,
    person: Option<&'a str>,
    fields: Fields,
    confirmed: bool,
}

impl Act<'_> {
    /// The task aimed at (the resolver admits only tasks for a verb
    /// aimed at tasks).
    fn task<'t>(&self, target: &'t Target) -> ToolResult<&'t TaskRow> {
        match target {
            Target::Task(t, _) => Ok(t),
            Target::List(_) => Err(ToolError::invalid(
                format!("{} acts on a task, not a list", self.verb.name),
                "",
            )),
        }
    }

    /// Field `name` as text.
    fn text(&self, name: &str) -> ToolResult<Option<&str>> {
        self.declared(name);
        self.fields.text(name)
    }

    /// Field `name` as it was given (text or a number).
    fn raw(&self, name: &str) -> Option<&Json> {
        self.declared(name);
        self.fields.raw(name)
    }

    /// In tests, a handler that reads a field its row does not declare
    /// fails (the request could never carry it: `Fields::parse` refuses
    /// undeclared fields).
    fn declared(&self, name: &str) {
        if cfg!(test) {
            assert!(
                self.verb.field(name).is_some(),
                "{} reads the field {name}, which its row in verbs.rs does not declare",
                self.verb.name
            );
        }
    }

    /// Runs the tool action `A` with `params` as the person.
    fn tool<A: Render>(&self, params: Json, said: String) -> ToolResult<Outcome> {
        let text = params.to_string();
        let done = invoke::<A>(self.env.request(&text, self.person))?;
        Ok(shown::<A>(done, said))
    }

    fn approve(&self, target: &Target) -> ToolResult<Outcome> {
        let note = self.text("note")?.filter(|n| !n.trim().is_empty());
        let list = target.list();
        let task = match target {
            Target::Task(t, _) => Some(t.id.as_str()),
            Target::List(_) => None,
        };
        let done = invoke_fn(self.env.request("", self.person), &APPROVE, |call| {
            approval::approve(call, &list.id, task, note)
        })?;
        let said = match target {
            Target::Task(t, _) => format!("approved task {}", quote(&t.title)),
            Target::List(l) => format!("approved list {}", quote(&l.name)),
        };
        Ok(decided(said, done))
    }

    fn reject(&self, target: &Target) -> ToolResult<Outcome> {
        let reason = self.text("reason")?.unwrap_or_default();
        let list = target.list();
        let done = invoke_fn(self.env.request("", self.person), &REJECT, |call| {
            approval::reject(call, &list.id, reason)
        })?;
        Ok(decided(
            format!("rejected list {}", quote(&list.name)),
            done,
        ))
    }

    fn answer(&self, task: &TaskRow) -> ToolResult<Outcome> {
        let text = self.text("answer")?;
        let done = invoke_fn(self.env.request("", self.person), &ANSWER, |call| {
            settle::answer(call, &task.id, text)
        })?;
        Ok(shown::<UpdateTask>(
            done,
            format!("answered {}", quote(&task.title)),
        ))
    }

    fn accept(&self, task: &TaskRow) -> ToolResult<Outcome> {
        let done = invoke_fn(self.env.request("", self.person), &ACCEPT, |call| {
            settle::accept(call, &task.id)
        })?;
        Ok(shown::<UpdateTask>(
            done,
            format!("accepted {}", quote(&task.title)),
        ))
    }

    fn return_task(&self, task: &TaskRow) -> ToolResult<Outcome> {
        let reason = self.text("reason")?;
        let done = invoke_fn(self.env.request("", self.person), &RETURN, |call| {
            settle::return_task(call, &task.id, reason)
        })?;
        Ok(shown::<UpdateTask>(
            done,
            format!("returned {}", quote(&task.title)),
        ))
    }

    fn add(&self, target: &Target) -> ToolResult<Outcome> {
        let title = self.text("title")?.unwrap_or_default();
        let list = target.list();
        // After the task aimed at, or after the one `after` names.
        let after = match (self.text("after")?, target) {
            (Some(after), _) => match self.env.resolve(after, Aim::Task)? {
                Target::Task(t, _) if t.list_id == list.id => Some(*t),
                _ => {
                    return Err(ToolError::invalid(
                        format!("after: {} is not a task of list {}", quote(after), list.id),
                        "name a task of the same list",
                    ));
                }
            },
            (None, Target::Task(t, _)) => Some((**t).clone()),
            (None, Target::List(_)) => None,
        };
        let mut params = json!({"list_id": list.id, "title": title});
        if let Some(t) = &after {
            params["position"] = json!(t.position + 1);
        }
        for key in ["priority", "description", "verification"] {
            if let Some(v) = self.text(key)?.filter(|v| !v.trim().is_empty()) {
                params[key] = json!(as_written(v));
            }
        }
        self.lists_and_assignee(&mut params, list, None)?;
        let said = format!("added {}", quote(title));
        if list.approval != Some(Approval::Approved) {
            return self.tool::<CreateTask>(params, said);
        }
        // A step the person adds to an approved plan is approved by adding
        // it (in the same transaction, audited as both).
        let text = params.to_string();
        let done = invoke_fn(
            self.env.request(&text, self.person),
            CreateTask::SPEC,
            |call| {
                let mut done = CreateTask::run(call)?;
                if done.result.task.awaits_approval {
                    approval::approve(call, &list.id, Some(&done.result.task.id), None)?;
                    done.result.task.awaits_approval = false;
                }
                Ok(done)
            },
        )?;
        Ok(shown::<CreateTask>(done, said))
    }

    fn delete_task(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.not_running(task)?;
        if !self.confirmed {
            return Ok(Outcome::Confirm(Confirmation {
                title: format!("Delete task {}?", quote(&fmt::truncate(&task.title, 60))),
                message: format!(
                    "This soft-deletes {} from its list; its history stays in the audit log.",
                    task.id
                ),
            }));
        }
        self.tool::<DeleteTasks>(
            json!({"task_id": task.id}),
            format!("deleted task {}", quote(&task.title)),
        )
    }

    fn delete_list(&self, target: &Target) -> ToolResult<Outcome> {
        let list = target.list();
        if !self.confirmed {
            let c = list.counts;
            return Ok(Outcome::Confirm(Confirmation {
                title: format!("Delete list {}?", quote(&fmt::truncate(&list.name, 60))),
                message: format!(
                    "This soft-deletes {} and its {}; done and canceled tasks keep their history, and nothing is erased.",
                    list.id,
                    fmt::plural(c.todo + c.in_progress + c.blocked, "active task")
                ),
            }));
        }
        self.tool::<DeleteList>(
            json!({"list_id": list.id}),
            format!("deleted list {}", quote(&list.name)),
        )
    }

    /// Refuses, in the surface's words, a change the tools would refuse
    /// for the task as it was resolved: one an agent is running (the
    /// person may take it back first). The tools check the same again in
    /// the action's own transaction.
    fn not_running(&self, task: &TaskRow) -> ToolResult<()> {
        let now = self.env.clock.now_ms();
        if task.status == Status::InProgress
            && let (Some(holder), Some(until)) =
                (task.claimed_by_agent_id.as_deref(), task.claim_expires_at)
            && until > now
        {
            return Err(ToolError::conflict(
                format!(
                    "task {} is claimed by {holder} until {}: an agent is working on it",
                    task.id,
                    words::when(until, now)
                ),
                format!(
                    "{} takes it back now; or wait until the agent closes it or its lease ends",
                    words::how(self.env.surface, &verbs::RELEASE, &task.id)
                ),
            ));
        }
        Ok(())
    }

    /// As [`Act::not_running`], and refuses a closed task, which only
    /// reopening changes.
    fn open(&self, task: &TaskRow) -> ToolResult<()> {
        self.not_running(task)?;
        if task.is_closed() {
            return Err(ToolError::conflict(
                format!("task {} is {}: it is closed", task.id, task.status),
                format!(
                    "{} reopens it first",
                    words::how(self.env.surface, &verbs::RESTORE, &task.id)
                ),
            ));
        }
        Ok(())
    }

    /// `release`: the person takes back a task an agent is running, after
    /// a confirmation (the agent's work on it stops counting).
    fn release(&self, task: &TaskRow) -> ToolResult<Outcome> {
        let to = self.text("agent")?.map(str::trim).filter(|a| !a.is_empty());
        if !self.confirmed {
            let holder = task.claimed_by_agent_id.as_deref().unwrap_or("an agent");
            let then = match to {
                Some(agent) => format!("reserved for {agent}"),
                None => "todo, for any agent to take".to_string(),
            };
            return Ok(Outcome::Confirm(Confirmation {
                title: format!("Take task {} back?", quote(&fmt::truncate(&task.title, 60))),
                message: format!(
                    "{holder}'s claim ends now and the task is {then}; {holder} is told on its next call on it."
                ),
            }));
        }
        let done = invoke_fn(self.env.request("", self.person), &RELEASE, |call| {
            release::release(call, &task.id, to)
        })?;
        let said = format!("released {}", quote(&task.title));
        Ok(shown::<UpdateTask>(done, said))
    }

    /// `task_items update` of `task` with `params` (its id added).
    fn update(&self, task: &TaskRow, mut params: Json, said: String) -> ToolResult<Outcome> {
        params["task_id"] = json!(task.id);
        self.tool::<UpdateTask>(params, said)
    }

    /// `edit`: any of the task's fields in one update (one audit event
    /// naming what changed); an empty text, label set, dependency list or
    /// assignee clears it.
    fn edit(&self, task: &TaskRow, list: &ListRow) -> ToolResult<Outcome> {
        self.not_running(task)?;
        if self.fields.is_empty() {
            let takes: Vec<String> = self
                .verb
                .fields
                .iter()
                .map(|f| self.verb.named(self.env.surface, f.name))
                .collect();
            return Err(ToolError::invalid(
                "edit needs something to change",
                format!("edit takes {}", takes.join(", ")),
            ));
        }
        let mut params = json!({});
        for key in ["title", "description", "verification", "notes"] {
            if let Some(v) = self.text(key)? {
                params[key] = json!(as_written(v));
            }
        }
        if let Some(p) = self.text("priority")?.filter(|p| !p.trim().is_empty()) {
            params["priority"] = json!(priority_of(p)?.as_str());
        }
        self.lists_and_assignee(&mut params, list, Some(task))?;
        self.update(task, params, format!("edited {}", quote(&task.title)))
    }

    /// `labels`, `depends_on` and `assignee` as the tools take them:
    /// the label and dependency sets whole (each task named resolved
    /// among `list`'s, as every target is), the assignee or `null`. On an
    /// `edit` (`task`) an empty one clears; on an `add` it is left out.
    fn lists_and_assignee(
        &self,
        params: &mut Json,
        list: &ListRow,
        task: Option<&TaskRow>,
    ) -> ToolResult<()> {
        let clears = task.is_some();
        if let Some(v) = self.text("labels")? {
            let labels = fields::items(v);
            if clears || !labels.is_empty() {
                params["labels"] = json!(labels);
            }
        }
        if let Some(v) = self.text("depends_on")? {
            let mut ids: Vec<String> = Vec::new();
            for named in fields::items(v) {
                let id = self.dependency(&named, list)?;
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            if clears || !ids.is_empty() {
                params["depends_on"] = json!(ids);
            }
        }
        if let Some(v) = self.text("assignee")? {
            match v.trim() {
                "" if clears => params["assigned_to_agent_id"] = Json::Null,
                "" => {}
                agent => params["assigned_to_agent_id"] = json!(agent),
            }
        }
        Ok(())
    }

    /// The id of the task `named` (an id, or its first or last
    /// characters), refused unless it is one of `list`'s.
    fn dependency(&self, named: &str, list: &ListRow) -> ToolResult<String> {
        match self.env.resolve(named, Aim::Task)? {
            Target::Task(t, _) if t.list_id == list.id => Ok(t.id),
            _ => Err(ToolError::invalid(
                format!(
                    "depends on: {} is not a task of list {}",
                    quote(named),
                    list.id
                ),
                "a task waits only for tasks of its own list",
            )),
        }
    }

    fn priority(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.not_running(task)?;
        let wanted = self.text("priority")?.unwrap_or_default().trim();
        let priority = match wanted {
            "cycle" => cycle(task.priority),
            other => priority_of(other)?,
        };
        let said = format!("{}: priority {priority}", quote(&task.title));
        self.update(task, json!({"priority": priority.as_str()}), said)
    }

    fn block(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.open(task)?;
        // Paused by a person, it stays with whom it is reserved for (the
        // update keeps the assignee it reads).
        let said = format!("blocked {}", quote(&task.title));
        self.update(task, json!({"status": "blocked"}), said)
    }

    fn unblock(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.open(task)?;
        if task.status != Status::Blocked {
            return Err(not_in(task, "blocked", "unblock resumes a paused task"));
        }
        let said = format!("unblocked {}", quote(&task.title));
        self.update(task, json!({"status": "todo"}), said)
    }

    fn cancel(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.open(task)?;
        let params = json!({"status": "canceled", "outcome": self.text("outcome")?});
        self.update(task, params, format!("canceled {}", quote(&task.title)))
    }

    fn restore(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.not_running(task)?;
        if !task.is_closed() {
            return Err(not_in(
                task,
                "done or canceled",
                "restore reopens a closed task as todo",
            ));
        }
        if !self.confirmed {
            return Ok(Outcome::Confirm(Confirmation {
                title: format!("Reopen task {}?", quote(&fmt::truncate(&task.title, 60))),
                message: format!(
                    "It goes back to todo for an agent to take again; its {} outcome moves to its notes and history.",
                    task.status
                ),
            }));
        }
        let said = format!("restored {}", quote(&task.title));
        self.update(task, json!({"status": "todo"}), said)
    }

    fn assign(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.not_running(task)?;
        let agent = self.text("agent")?.map(str::trim);
        let said = format!(
            "assigned {} to @{}",
            quote(&task.title),
            agent.unwrap_or_default()
        );
        self.update(task, json!({"assigned_to_agent_id": agent}), said)
    }

    fn unassign(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.not_running(task)?;
        let said = format!("unassigned {}", quote(&task.title));
        self.update(task, json!({"assigned_to_agent_id": Json::Null}), said)
    }

    /// `done`, with what the check showed when the task has a
    /// verification.
    fn done(&self, task: &TaskRow) -> ToolResult<Outcome> {
        self.open(task)?;
        let result = self.text("verification_result")?;
        if task.verification.is_some() && result.is_none_or(|r| r.trim().is_empty()) {
            return Err(ToolError::new(
                ErrorCode::VerificationRequired,
                format!(
                    "task {} has a verification ({}): done needs what the check showed",
                    task.id,
                    quote(task.verification.as_deref().unwrap_or_default())
                ),
                format!(
                    "run the check, then give {}",
                    self.verb.named(self.env.surface, "verification_result")
                ),
            ));
        }
        let mut params = json!({"status": "done", "outcome": self.text("outcome")?});
        if let Some(v) = result {
            params["verification_result"] = json!(v);
        }
        self.update(task, params, format!("done: {}", quote(&task.title)))
    }

    /// `move` to `up`, `down`, `first`, `last` or a position.
    ///
    /// Allowed on a task under an agent's running lease, unlike the verbs
    /// that change the task: a move changes only where the task stands in
    /// the list, none of what the agent works on (title, texts, status,
    /// priority, assignee, claim), as `task_items reorder` does for tools.
    fn move_task(&self, task: &TaskRow) -> ToolResult<Outcome> {
        let list = self.env.resolve(&task.list_id, Aim::List)?;
        let last = list.list().counts.total().max(1);
        let to = match self.raw("to") {
            Some(Json::Number(n)) => n.as_i64().map(|n| n.to_string()).unwrap_or_default(),
            Some(Json::String(s)) => s.trim().to_string(),
            _ => String::new(),
        };
        let position = match to.as_str() {
            "up" => (task.position - 1).max(1),
            "down" => (task.position + 1).min(last),
            "first" => 1,
            "last" => last,
            n => n.parse::<i64>().ok().filter(|p| *p >= 1).ok_or_else(|| {
                ToolError::invalid(
                    format!("to {} is not up, down, first, last or a position", quote(n)),
                    format!("positions run from 1 to {last}"),
                )
            })?,
        };
        self.tool::<ReorderTasks>(
            json!({"list_id": task.list_id, "task_ids": [task.id], "position": position}),
            format!("moved {} to #{position}", quote(&task.title)),
        )
    }

    /// What `claim_next` would hand out to the context's agent (or to
    /// anyone), rehearsed and rolled back.
    fn next(&self, target: &Target) -> ToolResult<Outcome> {
        let list = target.list();
        let mut ctx = self.env.ctx.clone();
        let agent = match effective_agent(&ctx, None)? {
            Some(agent) => agent,
            None => {
                ctx.agent_id = Some(ANYONE.into());
                ctx.agent_pinned = false;
                ANYONE.to_string()
            }
        };
        let params = json!({"list_id": list.id}).to_string();
        let req = Request {
            rehearse: true,
            ..Request::new(&params, &ctx, self.env.store, self.env.clock)
        };
        let done = invoke::<ClaimNextTask>(req)?;
        match done.result {
            ClaimNext::Claimed(claimed) => {
                let mut task = claimed.task;
                if !claimed.resumed {
                    // As it stands: the rehearsal's claim was rolled back.
                    task.status = Some(Status::Todo);
                    task.claimed_by_agent_id = None;
                    task.claim_expires_at = None;
                    task.started_at = None;
                }
                let verb = if claimed.resumed {
                    "holds"
                } else {
                    "would get"
                };
                let said = format!(
                    "@{agent} {verb} {} (#{})",
                    quote(&task.title),
                    task.position.unwrap_or_default()
                );
                let lines = vec![line(
                    format!("{said} {}", fmt::short_id(&task.id)),
                    Style::Success,
                )];
                let data = json!({"task": task, "resumed": claimed.resumed, "agent_id": agent});
                Ok(Outcome::Done(Carried { said, lines, data }))
            }
            ClaimNext::Nothing(nothing) => {
                let data = to_json(&nothing);
                Ok(Outcome::Done(Carried {
                    said: done.summary,
                    lines: crate::registry::render_result("task_claims", "claim_next", &data),
                    data,
                }))
            }
        }
    }
}

/// A tool action's result as the person's outcome: the action's own
/// rendering and data.
fn shown<A: Render>(done: Done<A::Result>, said: String) -> Outcome {
    let data = to_json(&done.result);
    Outcome::Done(Carried {
        said,
        lines: render_as::<A>(done.result),
        data,
    })
}

/// The outcome of an approval or a rejection.
fn decided(said: String, done: Done<approval::Decided>) -> Outcome {
    Outcome::Done(Carried {
        lines: vec![line(format!("✓ {}", done.summary), Style::Success)],
        data: to_json(&done.result),
        said,
    })
}

/// The next priority of the dashboard's cycle: medium → high → low → medium.
pub(crate) fn cycle(p: Priority) -> Priority {
    match p {
        Priority::Medium => Priority::High,
        Priority::High => Priority::Low,
        Priority::Low => Priority::Medium,
    }
}

/// A text as written, its line breaks one `\n` each (a browser sends a
/// box's as `\r\n`: kept so, every save would change the text).
fn as_written(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// The priority `text` names, or `invalid_params` naming them.
fn priority_of(text: &str) -> ToolResult<Priority> {
    let text = text.trim();
    Priority::parse(text).ok_or_else(|| {
        ToolError::invalid(
            format!(
                "priority {} is not one of high, medium, low, cycle",
                quote(text)
            ),
            "cycle goes medium → high → low → medium",
        )
    })
}

/// `conflict`: `task` is not in the state the action needs.
fn not_in(task: &TaskRow, wanted: &str, hint: &str) -> ToolError {
    ToolError::new(
        ErrorCode::Conflict,
        format!("task {} is {}, not {wanted}", task.id, task.status),
        hint,
    )
}
