//! Printing rendered lines to a terminal or a pipe.

use clap::ValueEnum;
use std::io::{IsTerminal, Write};
use tasklists_host::{Line, render_ansi};

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// Color when writing to a terminal (and NO_COLOR is unset)
    Auto,
    /// Always color
    Always,
    /// Never color
    Never,
}

/// The two streams the CLI writes to.
#[derive(Clone, Copy)]
pub(crate) enum Stream {
    Stdout,
    Stderr,
}

/// Whether to color what goes to `stream`.
pub(crate) fn use_color(choice: ColorChoice, stream: Stream) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            // https://no-color.org: any non-empty value disables color.
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            let tty = match stream {
                Stream::Stdout => std::io::stdout().is_terminal(),
                Stream::Stderr => std::io::stderr().is_terminal(),
            };
            tty && !no_color
        }
    }
}

/// Prints `lines` to `stream`, colored per `choice`.
pub(crate) fn print_lines(lines: &[Line], choice: ColorChoice, stream: Stream) {
    let text = render_ansi(lines, use_color(choice, stream));
    // A closed pipe (`tasklists … | head`) is not worth a panic.
    let _ = match stream {
        Stream::Stdout => std::io::stdout().lock().write_all(text.as_bytes()),
        Stream::Stderr => std::io::stderr().lock().write_all(text.as_bytes()),
    };
}

/// Prints one plain line to stdout.
pub(crate) fn print_text(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}
