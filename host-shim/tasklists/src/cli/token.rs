//! `tasklists token add|list|revoke`: the remote clients' tokens, kept by
//! the component in the database (WIT `tokens`). The host makes the token
//! and prints it once; the component gets only its SHA-256 and words every
//! other line.

use super::args::TokenCommand;
use super::output::{Stream, print_lines, print_text};
use super::{Failure, Globals};
use crate::web::{digest_hex, new_token};
use tasklists_host::{Host, HostConfig, TokenAnswer, TokenKind};

/// Runs one `token` subcommand on the global database; `person` is
/// `--person` as given on the command line.
pub(crate) fn run(
    globals: &Globals,
    command: &TokenCommand,
    person: Option<&str>,
) -> Result<(), Failure> {
    let mut host = Host::open(HostConfig::new(globals.location()?))?;
    match command {
        TokenCommand::Add { name } => {
            let (name, kind) = match (name.as_deref(), person) {
                (Some(name), None) => (name, TokenKind::Agent),
                (None, Some(person)) => (person, TokenKind::Person),
                (Some(name), Some(person)) if name == person => (name, TokenKind::Person),
                _ => {
                    return Err(Failure::Usage(
                        "name the holder once: `tasklists token add NAME` for an agent, `tasklists token add --person NAME` for a person".into(),
                    ));
                }
            };
            let token = new_token().map_err(|e| Failure::Usage(e.to_string()))?;
            let answer = host.add_token(name, kind, &digest_hex(&token))?;
            show(&mut host, globals, answer)?;
            // The token itself, alone on its line: the only time it is shown.
            print_text(&token);
        }
        TokenCommand::List => {
            let answer = host.list_tokens()?;
            show(&mut host, globals, answer)?;
        }
        TokenCommand::Revoke { name } => {
            let answer = host.revoke_token(name)?;
            show(&mut host, globals, answer)?;
        }
    }
    Ok(())
}

/// The component's lines on stdout, or its refusal on stderr as it
/// renders it.
fn show(host: &mut Host, globals: &Globals, answer: TokenAnswer) -> Result<(), Failure> {
    match answer {
        TokenAnswer::Lines(lines) => {
            for line in lines {
                print_text(&line);
            }
            Ok(())
        }
        TokenAnswer::Refused(e) => {
            let lines = host.render_error(&e)?;
            print_lines(&lines, globals.color, Stream::Stderr);
            Err(Failure::Tool)
        }
    }
}
