//! `tasklists export <list> [--format markdown|json]`: the component
//! writes the list in the format; the host prints it to stdout as it is.

use super::args::TransferFormat;
use super::output::{Stream, print_lines};
use super::{Failure, Globals};
use std::io::Write;

/// Prints list `list_id` as `format`.
pub(crate) fn run(globals: &Globals, list_id: &str, format: TransferFormat) -> Result<(), Failure> {
    let mut host = globals.open_host()?;
    let reply = host.export_list(list_id, format.into(), &globals.ctx)?;
    if reply.failed {
        print_lines(&reply.lines, globals.color, Stream::Stderr);
        return Err(Failure::Tool);
    }
    // A closed pipe (`tasklists export … | head`) is not worth a panic.
    let _ = std::io::stdout().lock().write_all(reply.text.as_bytes());
    Ok(())
}
