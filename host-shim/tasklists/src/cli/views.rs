//! `tasklists task-lists | tasks | task-audit | task-list-delete`: the
//! slash commands Pi offers, from the same component output. The host
//! only asks the questions the component asks (a confirmation, a choice)
//! at the terminal.

use super::output::{Stream, print_lines, use_color};
use super::{Failure, Globals};
use std::io::{BufRead, IsTerminal, Write};
use tasklists_host::{CommandEffect, Completion, Line, render_ansi};

/// The width to lay out for when stdout is not a terminal.
const PIPE_WIDTH: u32 = 100;

/// The columns of the terminal on stdout, or a fixed width for a pipe.
pub(crate) fn terminal_width() -> u32 {
    terminal_size::terminal_size_of(std::io::stdout())
        .map(|(w, _)| u32::from(w.0))
        .unwrap_or(PIPE_WIDTH)
}

/// Runs the command `name` with the words after it, answering its
/// confirmation with `yes` or at the terminal, its choice at the terminal.
pub(crate) fn run(
    globals: &Globals,
    name: &str,
    words: &[String],
    yes: bool,
) -> Result<(), Failure> {
    let mut host = globals.open_host()?;
    let width = terminal_width();
    let mut args = words.join(" ");
    let mut confirmed = false;
    // A command asks at most one question or one choice before it acts;
    // the bound keeps a misbehaving answer from looping.
    for _ in 0..3 {
        match host.run_command(name, &args, &globals.ctx, width, confirmed)? {
            CommandEffect::Show(out) => {
                let stream = if out.failed {
                    Stream::Stderr
                } else {
                    Stream::Stdout
                };
                print_lines(&out.lines, globals.color, stream);
                return if out.failed {
                    Err(Failure::Tool)
                } else {
                    Ok(())
                };
            }
            CommandEffect::Confirm(question) => {
                if !yes && !ask_yes_no(&question.title, &question.message)? {
                    return Ok(());
                }
                confirmed = true;
            }
            CommandEffect::Pick(choice) => args = pick(globals, &choice.title, &choice.options)?,
            CommandEffect::SetWidget(change) => {
                // Only Pi has a widget to change; say what it would do.
                print_lines(&change.lines, globals.color, Stream::Stdout);
                return Ok(());
            }
        }
    }
    Err(Failure::Usage(format!(
        "the {name} command kept asking; giving up"
    )))
}

/// Asks `title` at the terminal; anything but y/yes is no.
pub(crate) fn ask_yes_no(title: &str, message: &str) -> Result<bool, Failure> {
    if !std::io::stdin().is_terminal() {
        return Err(Failure::Usage(format!(
            "{title} {message} Pass --yes to confirm when stdin is not a terminal."
        )));
    }
    eprint!("{title}\n{message} [y/N] ");
    let answer = read_answer()?;
    Ok(matches!(answer.to_ascii_lowercase().as_str(), "y" | "yes"))
}

/// Offers the options numbered and returns the chosen one's value.
fn pick(globals: &Globals, title: &str, options: &[Completion]) -> Result<String, Failure> {
    let lines: Vec<Line> = options
        .iter()
        .enumerate()
        .map(|(i, o)| option_line(i + 1, o))
        .collect();
    if !std::io::stdin().is_terminal() {
        // Nobody to ask: show what there is to choose from.
        eprintln!("{title}");
        print_lines(&lines, globals.color, Stream::Stderr);
        return Err(Failure::Usage("name one of them as an argument".into()));
    }
    eprintln!("{title}");
    eprint!(
        "{}",
        render_ansi(&lines, use_color(globals.color, Stream::Stderr))
    );
    eprint!("number (empty to cancel): ");
    let answer = read_answer()?;
    if answer.is_empty() {
        return Err(Failure::Usage("nothing chosen".into()));
    }
    answer
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| options.get(i))
        .map(|o| o.value.clone())
        .ok_or_else(|| Failure::Usage(format!("{answer:?} is not one of the numbers shown")))
}

/// `  3  label  description`, the option's texts as the component gave them.
fn option_line(number: usize, option: &Completion) -> Line {
    use tasklists_host::{Span, Style};
    let mut line = vec![
        Span::new(format!("{number:>3}  "), Style::Muted),
        Span::new(option.label.clone(), Style::Accent),
    ];
    if !option.description.is_empty() {
        line.push(Span::new("  ", Style::Text));
        line.push(Span::new(option.description.clone(), Style::Text));
    }
    line
}

/// One trimmed line from stdin.
fn read_answer() -> Result<String, Failure> {
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| Failure::Usage(format!("cannot read the answer: {e}")))?;
    Ok(answer.trim().to_string())
}
