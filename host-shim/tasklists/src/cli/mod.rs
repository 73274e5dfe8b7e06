//! The `tasklists` command line: `call`, `tools`, `mcp`, `db-path`, `demo`,
//! the slash commands' views (`task-lists`, `tasks`, `task-audit`,
//! `task-list-delete`), `watch` (the person's dashboard), `serve` (the web
//! board), `inbox` (what needs the person), `notify` (each new inbox entry
//! sent once), `export` and `import` (a list as text, a file as a list)
//! and the person's verbs (`add`, `done`, `approve`, …).
//! Exit codes: 0 success, 1 the tool refused the call (the contract error
//! is rendered to stderr), 2 usage or host errors; `watch` ended from
//! outside exits 128 + the signal's number, as a shell reports a process
//! the signal killed: 129 its terminal closed (SIGHUP), 130 Ctrl-C
//! (SIGINT), 143 SIGTERM.

mod args;
mod call_tool;
mod catalogue;
mod dashboard;
mod demo;
mod demo_script;
mod export;
mod import;
mod inbox;
mod mcp;
mod notify;
mod output;
mod serve;
mod stop;
mod token;
mod verbs;
mod views;
mod watch;

use crate::error::ServerError;
use args::{Cli, ColorChoice, Command};
use clap::Parser;
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use tasklists_host::{CallContext, Host, HostConfig, HostError, Location};

/// Why a command failed, which decides the exit code.
pub(crate) enum Failure {
    /// The tool refused the call; the error was already printed.
    Tool,
    /// The host could not do its job (database, component, I/O), or a
    /// server mode (MCP, `serve`) could not start or stopped.
    Host(ServerError),
    /// The command line was wrong.
    Usage(String),
    /// The terminal could not be driven (the dashboard's raw mode, keys,
    /// screen).
    Terminal(std::io::Error),
    /// `watch` was ended by this signal (a closed terminal counts as
    /// SIGHUP, Ctrl-C on the dashboard as SIGINT), after giving the
    /// terminal back; nothing to print (the terminal may be gone).
    Signal(i32),
}

impl From<HostError> for Failure {
    fn from(e: HostError) -> Self {
        Failure::Host(ServerError::Host(e))
    }
}

impl From<ServerError> for Failure {
    fn from(e: ServerError) -> Self {
        Failure::Host(e)
    }
}

/// What every command needs from the global options.
pub(crate) struct Globals {
    /// `--db`, if given (`TASKLISTS_DB` is read by `Location::given_or_default`).
    pub(crate) db: Option<OsString>,
    /// The caller's context.
    pub(crate) ctx: CallContext,
    /// `--color`.
    pub(crate) color: ColorChoice,
}

impl Globals {
    /// The store in effect: `--db`, `TASKLISTS_DB`, then the XDG default
    /// (the rule every host follows: an empty `--db` counts as none).
    pub(crate) fn location(&self) -> Result<Location, HostError> {
        Location::given_or_default(self.db.as_deref()).ok_or(HostError::NoDatabasePath)
    }

    /// The host on the database in effect, which opens it when a call
    /// first needs it: `task_help` answers whatever state the file is in,
    /// and a call that needs a broken database gets the contract's
    /// `storage` error saying why.
    pub(crate) fn open_host(&self) -> Result<Host, HostError> {
        Host::open_lazily(HostConfig::new(self.location()?))
    }
}

/// Parses the command line and runs the command.
pub(crate) fn run() -> ExitCode {
    // The verbs' subcommands are the component's: read before parsing.
    verbs::load();
    let cli = Cli::parse();
    // `token add --person NAME` reads the flag as given, never the
    // environment's person.
    let person_flag = cli.person.clone();
    let workspace = cli.workspace.or_else(|| {
        std::env::current_dir()
            .ok()
            .map(|dir| dir.to_string_lossy().into_owned())
    });
    let globals = Globals {
        // The environment is read here rather than by clap, so that an empty
        // variable means "unset" instead of a usage error.
        db: cli.db,
        ctx: CallContext {
            agent_id: cli
                .agent_id
                .or_else(|| std::env::var("TASKLISTS_AGENT_ID").ok())
                .map(|id| id.trim().to_string())
                .filter(|id| !id.is_empty()),
            agent_pinned: cli.pin_agent,
            workspace,
            thread: cli.thread,
            // The person is named explicitly or not at all: never derived
            // from the login or the agent identity.
            person: cli
                .person
                .or_else(|| std::env::var("TASKLISTS_PERSON").ok())
                .map(|name| name.trim().to_string())
                .filter(|name| !name.is_empty()),
        },
        color: cli.color,
    };

    if globals.ctx.agent_pinned && globals.ctx.agent_id.is_none() {
        eprintln!(
            "tasklists: --pin-agent needs an identity to pin: pass --agent-id or set TASKLISTS_AGENT_ID"
        );
        return ExitCode::from(2);
    }

    let result = match cli.command {
        Command::Call {
            tool,
            request,
            json,
        } => call_tool::run(&globals, &tool, &request, json),
        Command::Tools { json } => catalogue::tools(&globals, json),
        Command::Mcp => mcp::run(&globals),
        Command::DbPath => catalogue::db_path(&globals),
        Command::Demo => demo::run(&globals),
        Command::TaskLists { args } => views::run(&globals, "task-lists", &args, false),
        Command::Tasks { args } => views::run(&globals, "tasks", &args, false),
        Command::TaskAudit { args } => views::run(&globals, "task-audit", &args, false),
        Command::TaskListDelete { yes, args } => {
            views::run(&globals, "task-list-delete", &args, yes)
        }
        Command::Watch {
            list_id,
            compact,
            read_only,
        } => watch::run(&globals, list_id, compact, read_only),
        Command::Serve(args) => serve::run(&globals, &args),
        Command::Inbox {
            json,
            stalled_after,
        } => inbox::run(&globals, json, stalled_after),
        Command::Notify(args) => notify::run(&globals, &args),
        Command::Token(command) => token::run(&globals, &command, person_flag.as_deref()),
        Command::Export { list_id, format } => export::run(&globals, &list_id, format),
        Command::Import(args) => import::run(&globals, args),
        Command::Verb(verb) => verbs::run(&globals, &verb),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Tool) => ExitCode::from(1),
        Err(Failure::Host(e)) => {
            eprintln!("tasklists: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("tasklists: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Terminal(e)) => {
            // Not `eprintln!`, which panics when stderr is a closed terminal.
            let _ = writeln!(std::io::stderr(), "tasklists: the terminal: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Signal(signal)) => {
            ExitCode::from(u8::try_from(128 + signal).unwrap_or(u8::MAX))
        }
    }
}
