//! `tasklists demo`: runs [`SCRIPT`] through the real component, with
//! several simulated agents sharing one list in one database, and prints
//! each step as `agent › tool action` followed by the component's own
//! rendering. It needs no setup: by default it uses a fresh temporary
//! database, so it never touches the user's real one.

use super::demo_script::{AGENTS, Expect, SCRIPT, Step};
use super::output::{Stream, print_lines, print_text};
use super::{Failure, Globals};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use tasklists_host::{CallContext, Host, HostConfig, Line, Location, Span, Style};

/// Runs the scripted session.
pub(crate) fn run(globals: &Globals) -> Result<(), Failure> {
    let db = match &globals.db {
        Some(_) => globals.location()?,
        // TASKLISTS_DB from the environment is the user's real database:
        // only an explicit --db sends the demo there.
        None => Location::from(fresh_temp_db()?),
    };
    let mut host = Host::open(HostConfig::new(db.clone()))?;
    let intro = vec![
        vec![
            Span::new("tasklists demo", Style::Strong),
            Span::new(
                format!(": {} agents share one list in ", AGENTS.len()),
                Style::Text,
            ),
            Span::new(db.to_string(), Style::Accent),
        ],
        vec![Span::new(
            format!(
                "agents: {} (each one pinned to its identity)",
                AGENTS.join(", ")
            ),
            Style::Muted,
        )],
    ];
    print_lines(&intro, globals.color, Stream::Stdout);

    let mut vars = Vars::default();
    for (index, step) in SCRIPT.iter().enumerate() {
        print_text("");
        print_lines(&[header(step)], globals.color, Stream::Stdout);
        let params = vars
            .fill(step.agent, step.params)
            .map_err(|e| broken(index, &e))?;
        let ctx = CallContext {
            agent_id: Some(step.agent.to_string()),
            agent_pinned: true,
            workspace: globals.ctx.workspace.clone(),
            thread: None,
            person: None,
        };
        match (
            host.call(step.tool, step.action, &params, &ctx),
            step.expect,
        ) {
            (Ok(output), Expect::Ok) => {
                vars.capture(step, &params, &output.data);
                let lines = host.render_result(step.tool, step.action, output.data.json())?;
                print_lines(&lines, globals.color, Stream::Stdout);
            }
            (Err(error), Expect::Error(code)) if error.code == code => {
                let lines = host.render_error(&error)?;
                print_lines(&lines, globals.color, Stream::Stdout);
            }
            (Ok(_), Expect::Error(code)) => {
                return Err(broken(
                    index,
                    &format!("expected the error {code:?}, the call succeeded"),
                ));
            }
            (Err(error), _) => {
                let lines = host.render_error(&error)?;
                print_lines(&lines, globals.color, Stream::Stdout);
                return Err(broken(index, &format!("unexpected error: {error}")));
            }
        }
    }

    print_text("");
    let outro = vec![vec![
        Span::new("explore it: ", Style::Muted),
        Span::new(
            format!(
                "tasklists --db {} --agent-id you call task_lists '{{\"action\":\"find\"}}'",
                db
            ),
            Style::Text,
        ),
    ]];
    print_lines(&outro, globals.color, Stream::Stdout);
    Ok(())
}

/// `agent › tool action  note`.
fn header(step: &Step) -> Line {
    vec![
        Span::new(step.agent, Style::Accent),
        Span::new(" › ", Style::Muted),
        Span::new(format!("{} {}", step.tool, step.action), Style::Strong),
        Span::new(format!("  {}", step.note), Style::Muted),
    ]
}

/// A database in a new directory under the system temp dir, made as
/// `mkdtemp` makes one (`tempfile`): an unpredictable name, created here
/// (never a directory that was already there, which someone else could
/// own or have linked elsewhere) and 0700, so no other account reads the
/// demo. It is kept after the demo, for `explore it: tasklists --db …`.
fn fresh_temp_db() -> Result<PathBuf, Failure> {
    let mut builder = tempfile::Builder::new();
    builder.prefix("tasklists-demo-");
    // tempfile makes directories 0777 less the umask unless told.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
    let dir = builder.tempdir().map_err(|e| {
        Failure::Usage(format!(
            "cannot create a temporary directory in {}: {e}",
            std::env::temp_dir().display()
        ))
    })?;
    Ok(dir.keep().join("tasks.db"))
}

fn broken(index: usize, why: &str) -> Failure {
    Failure::Usage(format!(
        "demo step {} did not go as scripted: {why}",
        index + 1
    ))
}

/// Ids learned from earlier results.
#[derive(Default)]
struct Vars {
    list: Option<String>,
    tasks: HashMap<String, String>,
    held: HashMap<String, String>,
}

impl Vars {
    /// Replaces the placeholders of `template` (see `demo_script.rs`).
    fn fill(&self, agent: &str, template: &str) -> Result<String, String> {
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            rest = &rest[at + 1..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ':'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            let value = match name.split_once(':') {
                Some(("task", key)) => self.tasks.get(key),
                None if name == "list" => self.list.as_ref(),
                None if name == "held" => self.held.get(agent),
                _ => None,
            };
            out.push_str(value.ok_or_else(|| format!("nothing known for ${name}"))?);
            rest = &rest[end..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// Learns ids from a result: the new list, the batch's tasks by ref,
    /// and which task an agent holds after `claim_next`.
    fn capture(&mut self, step: &Step, params: &str, data: &Value) {
        if let Some(id) = data.pointer("/list/id").and_then(Value::as_str) {
            self.list.get_or_insert_with(|| id.to_string());
        }
        if step.action == "add_many" {
            let sent: Value = serde_json::from_str(params).unwrap_or(Value::Null);
            let refs = sent["tasks"].as_array().cloned().unwrap_or_default();
            let made = data["tasks"].as_array().cloned().unwrap_or_default();
            for (asked, task) in refs.iter().zip(&made) {
                if let (Some(r), Some(id)) = (asked["ref"].as_str(), task["id"].as_str()) {
                    self.tasks.insert(r.to_string(), id.to_string());
                }
            }
        }
        if step.action == "claim_next" {
            match data.pointer("/task/id").and_then(Value::as_str) {
                Some(id) => self.held.insert(step.agent.to_string(), id.to_string()),
                None => self.held.remove(step.agent),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_placeholders() {
        let vars = Vars {
            list: Some("list_1".into()),
            tasks: HashMap::from([("api".into(), "task_9".into())]),
            held: HashMap::from([("b1".into(), "task_3".into())]),
        };
        assert_eq!(
            vars.fill(
                "b1",
                r#"{"list_id":"$list","task_id":"$held","d":["$task:api"]}"#
            )
            .unwrap(),
            r#"{"list_id":"list_1","task_id":"task_3","d":["task_9"]}"#
        );
        assert!(vars.fill("b2", r#"{"task_id":"$held"}"#).is_err());
    }
}
