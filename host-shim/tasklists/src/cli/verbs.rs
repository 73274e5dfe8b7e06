//! The person's verbs at a shell (`tasklists add`, `done`, `approve`, …):
//! their subcommands are built from the component's table (`ui.verbs`),
//! and each is one request to the component's `person-act`, which
//! resolves the id the person typed, applies the rules and words the
//! answer. The host only carries the words in and the lines (or `--json`
//! data) out, and asks the question the component asks.

use super::output::{Stream, print_lines, print_text};
use super::views::{ask_yes_no, terminal_width};
use super::{Failure, Globals};
use clap::{Arg, ArgAction, ArgMatches, Command, FromArgMatches, Subcommand};
use serde_json::{Map, Value};
use std::ffi::OsStr;
use std::sync::OnceLock;
use tasklists_host::{
    FieldKind, Host, HostConfig, Location, PersonReply, PersonRequest, PersonSurface, ShellArg,
    VerbField, VerbInfo,
};

/// The component's verbs, read once before the command line is parsed:
/// clap builds a subcommand from each ([`Verb`]'s `Subcommand` is called
/// by the derived parser, which has no way to hand it data).
static TABLE: OnceLock<Vec<VerbInfo>> = OnceLock::new();

/// Reads the verbs from the component. Its table needs no store: the host
/// is made over a location it never opens. A component that cannot load
/// leaves no verbs (every other command still parses, and says why the
/// component cannot run when it needs it).
pub(crate) fn load() {
    let table = Host::open_lazily(HostConfig::new(Location::from_os_str(OsStr::new(""))))
        .and_then(|mut host| host.verbs())
        .unwrap_or_default();
    let _ = TABLE.set(table);
}

/// The verbs as read by [`load`].
fn table() -> &'static [VerbInfo] {
    TABLE.get().map_or(&[], Vec::as_slice)
}

/// A person's verb as typed: one `person-act` request.
#[derive(Debug)]
pub(crate) struct Verb {
    /// The verb's name (`person-request.action`).
    action: &'static str,
    /// The list or task, as typed.
    target: String,
    /// The verb's fields, as typed.
    fields: Map<String, Value>,
    /// `--json`: print the data instead of the rendering.
    json: bool,
    /// `--yes`: answer yes to the question the verb asks.
    yes: bool,
}

/// The clap id of a field's argument (apart from the global options'
/// ids, whatever the field is called).
fn id(field: &VerbField) -> &'static str {
    // A few bytes a field, a few times a run: the ids live as long as the
    // parser, which clap wants as `'static`.
    Box::leak(format!("field:{}", field.name).into_boxed_str())
}

/// The subcommand of `verb`: its target, then its fields as the component
/// says a shell takes them, then `--json` and `--yes`.
fn subcommand(verb: &'static VerbInfo) -> Command {
    let mut cmd = Command::new(verb.name.as_str())
        .about(verb.about.as_str())
        .arg(
            Arg::new("target")
                .value_name(verb.target.as_str())
                .help(verb.target_help.as_str())
                .required(true),
        );
    for field in &verb.fields {
        let arg = Arg::new(id(field)).help(field.help.as_str());
        cmd = cmd.arg(match &field.shell {
            // Optional here: the component refuses a missing one, naming
            // the flag.
            ShellArg::Flag(flag) => arg.long(flag.flag.as_str()).value_name(flag.value.as_str()),
            ShellArg::Word(value) => arg.value_name(value.as_str()).required(field.required),
            ShellArg::Words(value) => arg
                .value_name(value.as_str())
                .num_args(1..)
                .action(ArgAction::Append),
        });
    }
    cmd.arg(
        Arg::new("json")
            .long("json")
            .action(ArgAction::SetTrue)
            .help("Print the result's data as JSON instead of its rendering"),
    )
    .arg(
        Arg::new("yes")
            .long("yes")
            .action(ArgAction::SetTrue)
            .help("Answer yes to the question the action asks, if it asks one (needed when stdin is not a terminal)"),
    )
}

impl Subcommand for Verb {
    fn augment_subcommands(mut cmd: Command) -> Command {
        for verb in table() {
            cmd = cmd.subcommand(subcommand(verb));
        }
        cmd
    }

    fn augment_subcommands_for_update(cmd: Command) -> Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        table().iter().any(|v| v.name == name)
    }
}

impl FromArgMatches for Verb {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (name, sub) = matches.subcommand().ok_or_else(missing)?;
        let verb = table()
            .iter()
            .find(|v| v.name == name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        let mut fields = Map::new();
        for field in &verb.fields {
            let id = id(field);
            let value = match &field.shell {
                ShellArg::Words(_) => sub
                    .get_many::<String>(id)
                    .map(|words| words.cloned().collect::<Vec<_>>().join(" ")),
                ShellArg::Flag(_) | ShellArg::Word(_) => sub.get_one::<String>(id).cloned(),
            };
            let Some(value) = value else { continue };
            // A position is a number in the request; anything else (up,
            // down, first, last, or a typo) goes as the word.
            let value = match (field.kind, value.parse::<u64>()) {
                (FieldKind::Position, Ok(n)) => Value::from(n),
                _ => Value::from(value),
            };
            fields.insert(field.name.clone(), value);
        }
        Ok(Verb {
            action: verb.name.as_str(),
            target: sub.get_one::<String>("target").cloned().unwrap_or_default(),
            fields,
            json: sub.get_flag("json"),
            yes: sub.get_flag("yes"),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// Runs the verb: prints what the component answered (the data with
/// `--json`); a refusal goes to stderr and exits 1.
pub(crate) fn run(globals: &Globals, verb: &Verb) -> Result<(), Failure> {
    let action = verb.action;
    let mut request = PersonRequest {
        action: action.to_string(),
        target: verb.target.clone(),
        fields: if verb.fields.is_empty() {
            String::new()
        } else {
            Value::Object(verb.fields.clone()).to_string()
        },
        confirmed: false,
        surface: PersonSurface::Shell,
    };
    let mut host = globals.open_host()?;
    let width = terminal_width();
    // An action asks at most one question before it acts; the bound keeps
    // a misbehaving answer from looping.
    for _ in 0..2 {
        match host.person_act(&request, &globals.ctx, width)? {
            PersonReply::Done(done) => {
                if verb.json {
                    print_text(&done.data);
                } else {
                    print_lines(&done.lines, globals.color, Stream::Stdout);
                }
                return Ok(());
            }
            PersonReply::Refused(refused) => {
                print_lines(&refused.lines, globals.color, Stream::Stderr);
                return Err(Failure::Tool);
            }
            PersonReply::Confirm(question) => {
                if !verb.yes && !ask_yes_no(&question.title, &question.message)? {
                    return Ok(());
                }
                request.confirmed = true;
            }
        }
    }
    Err(Failure::Usage(format!(
        "the {action} action kept asking; giving up"
    )))
}
