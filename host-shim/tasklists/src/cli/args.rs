//! The command line, declared with clap's derive API.

pub(crate) use super::output::ColorChoice;
pub(crate) use super::verbs::Verb;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;

/// Persistent, ordered, shareable task lists for AI agents, from the
/// command line. Every rule and text comes from the sandboxed component.
#[derive(Debug, Parser)]
#[command(name = "tasklists", version, propagate_version = true)]
pub(crate) struct Cli {
    /// The store: a database file, or a PostgreSQL URL (postgresql://user@host/db, or libpq key=value words) [default: $TASKLISTS_DB, else $XDG_DATA_HOME/tasklists/tasks.db, else ~/.local/share/tasklists/tasks.db]
    #[arg(long, global = true, value_name = "PATH|URL")]
    pub(crate) db: Option<OsString>,

    /// Your agent identity [default: $TASKLISTS_AGENT_ID]; without one, calls
    /// that change state fail with agent_required (no identity is ever invented)
    #[arg(long, global = true, value_name = "ID")]
    pub(crate) agent_id: Option<String>,

    /// Your name as the person acting on lists and tasks (the verbs, `watch`'s
    /// keys) [default: $TASKLISTS_PERSON]; never taken from the login or the agent id
    #[arg(long, global = true, value_name = "NAME")]
    pub(crate) person: Option<String>,

    /// Refuse a different params.agent_id (forbidden) instead of letting it override --agent-id
    #[arg(long, global = true)]
    pub(crate) pin_agent: bool,

    /// The workspace (default scope_key of workspace lists) [default: the current directory]
    #[arg(long, global = true, value_name = "PATH")]
    pub(crate) workspace: Option<String>,

    /// The conversation thread (default scope_key of thread lists)
    #[arg(long, global = true, value_name = "ID")]
    pub(crate) thread: Option<String>,

    /// When to color the output
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub(crate) color: ColorChoice,

    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Call a tool: tasklists call task_claims '{"action":"claim_next","params":{"list_id":"list_…"}}'
    Call {
        /// The tool: task_lists, task_items, task_claims, task_audit or task_help
        tool: String,
        /// The request, {"action": …, "params": {…}}; `-` reads it from stdin
        request: String,
        /// Print the contract result (summary line, then the data JSON; or {"error": …}) instead of rendering it
        #[arg(long)]
        json: bool,
    },
    /// List the tools with their descriptions
    Tools {
        /// Print the full catalogue (schemas, annotations) as JSON
        #[arg(long)]
        json: bool,
    },
    /// Serve the five tools over MCP on stdin/stdout (for Claude Code, Codex, Cursor, …); stops when stdin closes
    Mcp,
    /// Print the store in effect (a file path, or a server URL without its password)
    DbPath,
    /// Run a scripted multi-agent session on a fresh temporary database (or --db)
    Demo,
    /// The lists visible here, name and id: task-lists [full]
    TaskLists {
        /// `full` for the full JSON metadata
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// One list and its tasks: tasks <list_id> [full] (no list: choose one)
    Tasks {
        /// The list id, then `full` for the full JSON
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Private-bypass audit events: task-audit [list_id] [full]
    TaskAudit {
        /// Optionally a list id (and how to bypass its privacy), then `full`
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Soft-delete a list and its active tasks, after a confirmation: task-list-delete <list_id>
    TaskListDelete {
        /// Do not ask (needed when stdin is not a terminal)
        #[arg(long)]
        yes: bool,
        /// The list id
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// The dashboard in this terminal, redrawn on every agent's change: select and act with keys (shown at its foot); piped, the live widget until Ctrl-C
    Watch {
        /// Only this list
        list_id: Option<String>,
        /// The compact view (list counters and your own tasks) instead of the full one
        #[arg(long)]
        compact: bool,
        /// Look only: act as no person, whatever --person says
        #[arg(long)]
        read_only: bool,
    },
    /// The web board: every list in a browser, live, with the person's actions; prints the URL to open (with its access token), then logs to stderr until Ctrl-C
    Serve(ServeArgs),
    /// What needs you, in every list you may see: plans to approve, questions, work to review, stalled work, checks that failed
    Inbox {
        /// Print the inbox as JSON (count, entries, stalled_after_minutes) instead of its lines
        #[arg(long)]
        json: bool,
        /// Count running work as stalled after MINUTES without a note or a lease renewal, from now on and for every surface of this database (needs --person)
        #[arg(long, value_name = "MINUTES")]
        stalled_after: Option<u32>,
    },
    /// Send each new inbox entry once, to a webhook (a signed JSON POST) and/or as a desktop notification, until Ctrl-C or SIGTERM; nothing already sent is sent again after a restart
    Notify(NotifyArgs),
    /// Write a list as a Markdown checklist or tasklists JSON (every field and the audit log) to stdout: export <list_id> [--format markdown|json]
    Export {
        /// The list id
        list_id: String,
        /// markdown (a checklist to paste anywhere) or json (versioned: import reads it back)
        #[arg(long, value_enum, default_value_t = TransferFormat::Markdown, value_name = "FORMAT")]
        format: TransferFormat,
    },
    /// Import a Markdown plan, a tasklists JSON export, a Beads issues.jsonl or a Taskmaster tasks.json as a new list (or into one), in one transaction, with a report of what changed
    #[command(
        long_about = "Import a file's tasks in one transaction: all or nothing. What the file holds comes across; what does not fit this tool (a status, a link type, a field) is changed, kept as a ref, or dropped, and the report says which, how often and where first (--json: as data). --strict refuses the file instead unless it comes across as it is. A file that cannot be read (not its format, over 4 MiB) is refused whole.\n\n\
markdown: each checklist item is a task: [ ] todo, [x] done, [-] canceled. An item nested under another is a task of its own, after it, and the outer item depends on it. Under an item, `- key: value` sets a field (priority, status: blocked, assigned, after: #N or a title, refs, labels, description, notes, outcome, verification); other text under it is its description. A file without checkboxes: each top-level list item is a task. The first # heading names the list.\n\n\
json: what `tasklists export --format json` writes: every field, times and the approval requirement included (the approval comes back pending; a person's --approve approves it); an in-progress task comes back todo.\n\n\
beads: .beads/issues.jsonl; every status (hooked and in_progress as todo, pinned as todo with the label pinned, deferred as blocked, tombstones left out); blocks, conditional-blocks and waits-for as dependencies, the other link types and links to issues not in the file as beads:// refs; labels and the issue type as labels; created, updated and closed times kept.\n\n\
taskmaster: .taskmaster/tasks/tasks.json; every tag as a list of its own (--tag NAME: that one); tasks then their subtasks (a subtask id used twice renumbered), a task depends on its subtasks; testStrategy and acceptanceCriteria as the verification, details as the notes; a dependency that would make a cycle kept as a ref."
    )]
    Import(ImportArgs),
    /// Tokens for remote clients of `tasklists serve` (agents at /mcp, people on the board), kept in the database as SHA-256 digests
    #[command(subcommand)]
    Token(TokenCommand),
    #[command(flatten)]
    Verb(Verb),
}

/// `tasklists serve`'s options, as given (`serve::run` checks them).
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Where to listen: IP:PORT, [IPv6]:PORT or localhost:PORT (port 0: a free one); beyond loopback only with --token-file
    #[arg(long, default_value = "127.0.0.1:0", value_name = "ADDR:PORT")]
    pub(crate) listen: String,
    /// A file of `NAME TOKEN` lines (mode 600): each person who may open the board, acting as NAME; instead of one printed token
    #[arg(long, value_name = "FILE")]
    pub(crate) token_file: Option<std::path::PathBuf>,
    /// A name (or name:port) browsers may reach the server by besides its address, e.g. a reverse proxy's; repeatable
    #[arg(long, value_name = "NAME")]
    pub(crate) allow_host: Vec<String>,
    /// Serve HTTPS with this PEM certificate chain (with --tls-key)
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub(crate) tls_cert: Option<std::path::PathBuf>,
    /// The PEM private key of --tls-cert
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub(crate) tls_key: Option<std::path::PathBuf>,
    /// Connections open at most; more are closed at once
    #[arg(long, value_name = "N", default_value_t = crate::web::DEFAULT_MAX_CONNECTIONS)]
    pub(crate) max_connections: usize,
    /// Requests to /mcp in progress at most; more are answered 503 at once
    #[arg(long, value_name = "N", default_value_t = crate::web::DEFAULT_MAX_REQUESTS)]
    pub(crate) max_requests: usize,
    /// Requests to /mcp in progress at most for one token; more are answered 429 at once
    #[arg(long, value_name = "N", default_value_t = crate::web::DEFAULT_MAX_REQUESTS_PER_TOKEN)]
    pub(crate) max_requests_per_token: usize,
    /// Seconds a request's body may take to arrive once its headers have; longer is answered 408
    #[arg(long, value_name = "SECONDS", default_value_t = crate::web::DEFAULT_BODY_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) body_timeout: u64,
    // Each new inbox entry sent beside the board, as `tasklists notify` does.
    #[command(flatten, next_help_heading = "Notifications")]
    pub(crate) notify: NotifyArgs,
}

/// The notifier's options, on `tasklists notify` and `tasklists serve`.
#[derive(Debug, Args)]
pub(crate) struct NotifyArgs {
    /// POST each new inbox entry as JSON to this http:// or https:// URL, signed with the secret (X-Tasklists-Signature); repeatable
    #[arg(long, value_name = "URL")]
    pub(crate) notify_webhook: Vec<String>,
    /// The secret a webhook's POSTs are signed with (HMAC-SHA256) [default: $TASKLISTS_NOTIFY_SECRET, which stays out of the process list]; required with --notify-webhook
    #[arg(long, value_name = "SECRET")]
    pub(crate) notify_secret: Option<String>,
    /// Show each new inbox entry as a desktop notification, where a notification service answers (D-Bus; a build with the `desktop` feature)
    #[arg(long)]
    pub(crate) notify_desktop: bool,
    /// Seconds between two looks at the inbox
    #[arg(long, value_name = "SECONDS", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) notify_interval: u64,
    /// Where the notifications' links to the board start (never with a token) [default: serve: its own address; notify: no links]
    #[arg(long, value_name = "URL")]
    pub(crate) board_url: Option<String>,
}

/// What `tasklists import` was asked.
#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// The file (`-`: stdin)
    pub(crate) file: String,
    /// The format [default: from the file's extension, else its content]
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) format: Option<TransferFormat>,
    /// The new list's name [default: the file's own (a # heading, …), else the file name]
    #[arg(long, value_name = "NAME", conflicts_with = "into")]
    pub(crate) list: Option<String>,
    /// Append the tasks to this existing list instead of a new one
    #[arg(long, value_name = "LIST_ID")]
    pub(crate) into: Option<String>,
    /// Check and run the whole import, then roll it back: print what would be created
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Refuse the file unless it comes across exactly as it is (nothing changed, kept as a ref or dropped)
    #[arg(long)]
    pub(crate) strict: bool,
    /// The Taskmaster tag to import [default: every tag, a list each]
    #[arg(long, value_name = "TAG")]
    pub(crate) tag: Option<String>,
    /// As a person (--person): approve the plan of each list imported that needs a person's approval
    #[arg(long)]
    pub(crate) approve: bool,
    /// Print the result as JSON
    #[arg(long)]
    pub(crate) json: bool,
}

/// `--format` of export and import.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TransferFormat {
    /// A Markdown checklist
    Markdown,
    /// tasklists JSON (versioned)
    Json,
    /// Beads JSONL (import only)
    Beads,
    /// Taskmaster tasks.json (import only)
    Taskmaster,
}

impl From<TransferFormat> for tasklists_host::Format {
    fn from(f: TransferFormat) -> Self {
        match f {
            TransferFormat::Markdown => tasklists_host::Format::Markdown,
            TransferFormat::Json => tasklists_host::Format::Json,
            TransferFormat::Beads => tasklists_host::Format::Beads,
            TransferFormat::Taskmaster => tasklists_host::Format::Taskmaster,
        }
    }
}

/// `tasklists token …`.
#[derive(Debug, Subcommand)]
pub(crate) enum TokenCommand {
    /// Make a token and print it once: `token add NAME` for an agent (the tools at /mcp as NAME), `token add --person NAME` for a person (also the board and the person's actions)
    Add {
        /// Who holds it: the agent id its requests act as (or give it as --person NAME)
        name: Option<String>,
    },
    /// Who holds a token, of which kind, since when
    List,
    /// Revoke NAME's token: its next request is refused
    Revoke {
        /// Whose token
        name: String,
    },
}
