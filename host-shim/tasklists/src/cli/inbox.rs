//! `tasklists inbox [--json] [--stalled-after MINUTES]`: what needs the
//! person, as the component reads and lays it out (`ui.inbox`); `--json`
//! prints its data. A refusal (a threshold without a person, or out of
//! range) is the component's, on stderr.

use super::output::{Stream, print_lines, print_text};
use super::views::terminal_width;
use super::{Failure, Globals};
use tasklists_host::InboxView;

/// Prints the inbox, after saving a new stalled threshold if given.
pub(crate) fn run(
    globals: &Globals,
    json: bool,
    stalled_after: Option<u32>,
) -> Result<(), Failure> {
    let mut host = globals.open_host()?;
    let view = InboxView {
        width: terminal_width(),
        stalled_after_minutes: stalled_after,
    };
    match host.inbox(&globals.ctx, &view)? {
        Ok(inbox) => {
            if json {
                print_text(&inbox.data);
            } else {
                print_lines(&inbox.lines, globals.color, Stream::Stdout);
            }
            Ok(())
        }
        Err(refused) => {
            let lines = host.render_error(&refused)?;
            print_lines(&lines, globals.color, Stream::Stderr);
            Err(Failure::Tool)
        }
    }
}
