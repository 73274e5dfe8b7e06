//! `tasklists call <tool> '<request>'`.

use super::output::{Stream, print_lines, print_text};
use super::{Failure, Globals};
use std::io::Read;

/// Calls the tool and prints the reply (rendered, or `--json`).
pub(crate) fn run(globals: &Globals, tool: &str, request: &str, json: bool) -> Result<(), Failure> {
    let request = if request == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::Usage(format!("cannot read the request from stdin: {e}")))?;
        text
    } else {
        request.to_string()
    };

    let mut host = globals.open_host()?;
    let reply = host.reply(tool, &request, &globals.ctx)?;
    if let Err(error) = &reply.outcome
        && !host.catalogue()?.iter().any(|t| t.name == tool)
    {
        // A tool that does not exist is a mistake on the command line.
        return Err(Failure::Usage(error.message.clone()));
    }
    if json {
        print_text(&reply.text);
    } else {
        let stream = if reply.is_error() {
            Stream::Stderr
        } else {
            Stream::Stdout
        };
        match host.render_reply(tool, &request, &reply) {
            Ok(lines) => print_lines(&lines, globals.color, stream),
            // Rendering is a nicety: never lose a result over it.
            Err(_) => print_text(&reply.text),
        }
    }
    if reply.is_error() {
        return Err(Failure::Tool);
    }
    Ok(())
}
