//! `tasklists watch [list_id]`: on a terminal, the person's dashboard
//! (`dashboard.rs`); piped (or `--compact`), the widget's view kept live,
//! redrawn when any agent commits a change, so a script or a person can
//! watch agents work without Pi. Stops on a stop signal (Ctrl-C, SIGTERM,
//! SIGHUP: exit 128 + its number), or when its output closes: a pipe's
//! reader gone (exit 0), its terminal closed (129); noticed between two
//! views too, not only when writing the next.

use super::output::{Stream, use_color};
use super::stop::{HANG_UP, Stop};
use super::views::terminal_width;
use super::{Failure, Globals};
use rustix::event::PollFlags;
use std::io::{IsTerminal, Write};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};
use tasklists_host::{CommandEffect, Line, WidgetMode, WidgetView, render_ansi};

/// How often the change check runs: one `PRAGMA data_version` read.
const POLL: Duration = Duration::from_millis(250);
/// The view is laid out again at least this often, for what changes with
/// time alone (leases running out).
const REFRESH: Duration = Duration::from_secs(15);
/// Clears a terminal and puts the cursor home.
const CLEAR: &str = "\x1b[H\x1b[2J";

/// The dashboard on a terminal; otherwise the widget, redrawn on every
/// change until interrupted.
pub(crate) fn run(
    globals: &Globals,
    list_id: Option<String>,
    compact: bool,
    read_only: bool,
) -> Result<(), Failure> {
    let tty = std::io::stdout().is_terminal();
    if tty && !compact {
        return super::dashboard::run(globals, list_id, read_only);
    }
    let mut watch = globals.location()?.watch();
    let mut host = globals.open_host()?;
    let stop = Stop::catch(false).map_err(Failure::Terminal)?;
    let color = use_color(globals.color, Stream::Stdout);
    let mode = if compact {
        WidgetMode::Compact
    } else {
        WidgetMode::Full
    };
    let mut seen: Option<(Option<u64>, u32)> = None;
    let mut shown: Option<Vec<Line>> = None;
    let mut laid_out = Instant::now();
    loop {
        // An unreadable version (the file is being replaced) is "changed".
        let version = watch.version().unwrap_or(None);
        let width = terminal_width();
        if seen != Some((version, width)) || laid_out.elapsed() >= REFRESH {
            seen = Some((version, width));
            laid_out = Instant::now();
            let view = WidgetView {
                mode,
                width,
                list_id: list_id.clone(),
                every_list: true,
            };
            let mut lines = host.widget(&globals.ctx, &view)?;
            if lines.is_empty() {
                // No visible list: the list view says so in its own words.
                lines = match host.run_command("task-lists", "", &globals.ctx, width, false)? {
                    CommandEffect::Show(out) => out.lines,
                    _ => Vec::new(),
                };
            }
            if shown.as_ref() != Some(&lines) {
                let mut frame = String::from(if tty { CLEAR } else { "" });
                frame.push_str(&render_ansi(&lines, color));
                if !tty {
                    // A pipe gets one view after another, a blank line apart.
                    frame.push('\n');
                }
                let mut out = std::io::stdout().lock();
                if out
                    .write_all(frame.as_bytes())
                    .and_then(|()| out.flush())
                    .is_err()
                {
                    return output_closed(tty);
                }
                shown = Some(lines);
            }
        }
        // Its output reports only an error or a hang-up (its reader gone).
        let stdout = std::io::stdout();
        let closed = stop
            .wait(stdout.as_fd(), PollFlags::empty(), POLL)
            .map_err(Failure::Terminal)?;
        if let Some(signal) = stop.signal() {
            return Err(Failure::Signal(signal));
        }
        if !closed.is_empty() {
            return output_closed(tty);
        }
    }
}

/// Its output closed: a pipe's reader is done (success), a terminal is
/// gone (as SIGHUP).
fn output_closed(tty: bool) -> Result<(), Failure> {
    if tty {
        Err(Failure::Signal(HANG_UP))
    } else {
        Ok(())
    }
}
