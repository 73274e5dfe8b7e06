//! `tasklists call <tool> '<request>'`.

use super::output::{Stream, print_lines, print_text};
use super::{Failure, Globals};
use std::io::Read;
use tasklists_host::{ToolRequest, check_tool};

/// Calls the tool and prints the result (rendered, or `--json`).
pub(crate) fn run(globals: &Globals, tool: &str, request: &str, json: bool) -> Result<(), Failure> {
    check_tool(tool).map_err(|e| Failure::Usage(e.message))?;
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
    // Parsed once here (as `Host::call_json` would) so the renderer also
    // knows the action; a malformed request is a tool error like any other.
    let parsed = ToolRequest::parse(&request);
    let action = parsed
        .as_ref()
        .map(|r| r.action.clone())
        .unwrap_or_default();
    match parsed.and_then(|r| host.call(tool, &r.action, &r.params, &globals.ctx)) {
        Ok(output) if json => {
            print_text(&output.to_content_text());
            Ok(())
        }
        Ok(output) => {
            match host.render_result(tool, &action, &output.data_json) {
                Ok(lines) => print_lines(&lines, globals.color, Stream::Stdout),
                // Rendering is a nicety: never lose a result over it.
                Err(_) => print_text(&output.to_content_text()),
            }
            Ok(())
        }
        Err(error) if json => {
            print_text(&error.to_json_text());
            Err(Failure::Tool)
        }
        Err(error) => {
            match host.render_error(&error) {
                Ok(lines) => print_lines(&lines, globals.color, Stream::Stderr),
                Err(_) => eprintln!("{error}\n{}", error.hint),
            }
            Err(Failure::Tool)
        }
    }
}
