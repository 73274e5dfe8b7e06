//! `tasklists watch` on a terminal: the person's dashboard, full-screen.
//! The component owns it whole (selection, prompts, rules, texts, layout,
//! the footer of keys); this file only names each key as the WIT does,
//! hands it over with the opaque state, draws the lines it gets back, and
//! asks for a redraw when the store changes, the terminal is resized, or a
//! second passed (a lease running out). The terminal is given back as it
//! was on every way out: `closed` (exit 0), an error, a panic, Ctrl-C
//! (130), a stop signal (128 + its number), the terminal closing (129).
//! Keys are read by `keyboard.rs` and `keys.rs`, not crossterm's reader.

mod keyboard;
mod keys;

use super::output::{Stream, use_color};
use super::stop::{HANG_UP, Stop};
use super::{Failure, Globals};
use crossterm::cursor::{Hide, MoveTo, Show};
use crossterm::event::{
    DisableBracketedPaste, EnableBracketedPaste, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers,
};
use crossterm::terminal::{self, Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{execute, queue};
use keyboard::{Key, Keyboard};
use signal_hook::consts::SIGINT;
use std::io::Write;
use std::time::{Duration, Instant};
use tasklists_host::{DashboardInput, DashboardView, Line, render_ansi};

/// How long to wait for a key before checking the store (a signal ends
/// the wait at once).
const POLL: Duration = Duration::from_millis(250);
/// The dashboard is asked again at least this often, for what changes
/// with time alone (a lease running out).
const TICK: Duration = Duration::from_secs(1);

/// Runs the dashboard until the component says it is closed, Ctrl-C, a
/// stop signal, or the terminal closing.
pub(crate) fn run(
    globals: &Globals,
    list_id: Option<String>,
    read_only: bool,
) -> Result<(), Failure> {
    let mut watch = globals.location()?.watch();
    let mut host = globals.open_host()?;
    let mut ctx = globals.ctx.clone();
    if read_only {
        // No person, no writes: the component says so at the foot.
        ctx.person = None;
    }
    let color = use_color(globals.color, Stream::Stdout);
    let stop = Stop::catch(true).map_err(Failure::Terminal)?;
    let mut keyboard = Keyboard::open().map_err(Failure::Terminal)?;
    let _terminal = Terminal::take()?;

    let mut state = String::new();
    let mut shown: Option<Vec<Line>> = None;
    let mut version = watch.version().unwrap_or(None);
    let mut asked = Instant::now();
    let mut input = Some(DashboardInput::Refresh);
    loop {
        if let Some(input) = input.take() {
            let (width, height) = terminal::size().map_err(|e| failure(e, &keyboard))?;
            let view = DashboardView {
                width: u32::from(width),
                height: u32::from(height),
                list_id: list_id.clone(),
            };
            let screen = host.dashboard(&state, &input, &view, &ctx)?;
            asked = Instant::now();
            if screen.closed {
                return Ok(());
            }
            state = screen.state;
            if shown.as_ref() != Some(&screen.lines) {
                draw(&screen.lines, height, color).map_err(|e| failure(e, &keyboard))?;
                shown = Some(screen.lines);
            }
        }
        if let Some(signal) = stop.signal() {
            return Err(Failure::Signal(signal));
        }
        if stop.resized() {
            // Laid out again for the new size, drawn whole.
            shown = None;
            input = Some(DashboardInput::Refresh);
            continue;
        }
        match keyboard.next(&stop, POLL).map_err(Failure::Terminal)? {
            Key::Closed => return Err(Failure::Signal(HANG_UP)),
            Key::Event(Event::Key(key)) if is_interrupt(&key) => {
                return Err(Failure::Signal(SIGINT));
            }
            Key::Event(Event::Key(key)) => input = key_name(&key).map(DashboardInput::Key),
            Key::Event(Event::Paste(text)) => input = Some(DashboardInput::Paste(text)),
            Key::Event(_) => {}
            Key::Nothing => {
                // An unreadable version (the file is being replaced) is "changed".
                let now = watch.version().unwrap_or(None);
                if now != version || now.is_none() || asked.elapsed() >= TICK {
                    version = now;
                    input = Some(DashboardInput::Refresh);
                }
            }
        }
    }
}

/// A terminal that could not be written or measured: closed (as SIGHUP)
/// if that is why, broken otherwise.
fn failure(e: std::io::Error, keyboard: &Keyboard) -> Failure {
    if keyboard::is_gone(&e) || keyboard.is_closed() {
        Failure::Signal(HANG_UP)
    } else {
        Failure::Terminal(e)
    }
}

/// Ctrl-C: in raw mode the terminal sends it as a key, not a signal.
fn is_interrupt(key: &KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c')
}

/// The key as the WIT names it (one printable character, or its name);
/// `None` for a key the dashboard has no name for (a release, a function
/// key, a control chord).
fn key_name(key: &KeyEvent) -> Option<String> {
    if key.kind == KeyEventKind::Release
        || key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER)
    {
        return None;
    }
    let name = match key.code {
        // The WIT names the space bar `space`, as Pi's host does.
        KeyCode::Char(' ') => "space",
        KeyCode::Char(c) if !c.is_control() => return Some(c.to_string()),
        KeyCode::Up => "up",
        KeyCode::Down => "down",
        KeyCode::Left => "left",
        KeyCode::Right => "right",
        KeyCode::Enter => "enter",
        KeyCode::Esc => "escape",
        KeyCode::Backspace => "backspace",
        KeyCode::Tab => "tab",
        KeyCode::PageUp => "pageup",
        KeyCode::PageDown => "pagedown",
        KeyCode::Home => "home",
        KeyCode::End => "end",
        _ => return None,
    };
    Some(name.to_string())
}

/// Draws `lines` from the top-left corner, one terminal row each (as many
/// as fit), and clears what the last screen left below them. Each row is
/// cleared before it is written, so a line that fills the width keeps its
/// last column.
fn draw(lines: &[Line], height: u16, color: bool) -> std::io::Result<()> {
    let mut frame = Vec::new();
    let mut row: u16 = 0;
    for line in lines.iter().take(usize::from(height)) {
        queue!(frame, MoveTo(0, row), Clear(ClearType::CurrentLine))?;
        let text = render_ansi(std::slice::from_ref(line), color);
        frame.extend_from_slice(text.trim_end_matches('\n').as_bytes());
        row += 1;
    }
    if row < height {
        queue!(frame, MoveTo(0, row), Clear(ClearType::FromCursorDown))?;
    }
    let mut out = std::io::stdout().lock();
    out.write_all(&frame)?;
    out.flush()
}

/// The terminal in the dashboard's modes (raw, alternate screen, bracketed
/// paste, no cursor) for as long as it lives; dropping it, or a panic,
/// restores it.
struct Terminal;

impl Terminal {
    /// Switches the modes on, and has a panic restore them before its
    /// message is printed (on the alternate screen it would be lost).
    fn take() -> Result<Terminal, Failure> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        terminal::enable_raw_mode().map_err(Failure::Terminal)?;
        // From here on, the guard restores whatever was switched on.
        let guard = Terminal;
        execute!(
            std::io::stdout(),
            EnterAlternateScreen,
            EnableBracketedPaste,
            Hide
        )
        .map_err(Failure::Terminal)?;
        Ok(guard)
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        restore();
    }
}

/// Gives the terminal back: the normal screen, the cursor, cooked mode.
/// Harmless when already done (a panic's hook, then the guard's drop).
fn restore() {
    let _ = execute!(
        std::io::stdout(),
        DisableBracketedPaste,
        Show,
        LeaveAlternateScreen
    );
    let _ = terminal::disable_raw_mode();
}

#[cfg(test)]
mod tests {
    use super::*;
    use tasklists_host::{Host, HostConfig};

    /// The bytes an xterm sends for a key the WIT names.
    fn sent(name: &str) -> &str {
        match name {
            "up" => "\x1b[A",
            "down" => "\x1b[B",
            "right" => "\x1b[C",
            "left" => "\x1b[D",
            "enter" => "\r",
            "escape" => "\x1b",
            "backspace" => "\x7f",
            "tab" => "\t",
            "pageup" => "\x1b[5~",
            "pagedown" => "\x1b[6~",
            "home" => "\x1b[H",
            "end" => "\x1b[F",
            "space" => " ",
            one => one,
        }
    }

    /// A key as the terminal sends it, read as the dashboard reads it.
    fn event(name: &str) -> KeyEvent {
        match keys::Keys::default().feed(sent(name).as_bytes()).as_slice() {
            [Event::Key(key)] => *key,
            other => panic!("{name:?} reads as {other:?}"),
        }
    }

    #[test]
    fn every_key_of_the_component_map_reaches_it_by_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut host = Host::open_lazily(HostConfig::new(dir.path().join("tasks.db"))).unwrap();
        let keys = host.key_map().unwrap();
        assert!(!keys.is_empty());
        for binding in keys {
            assert_eq!(
                key_name(&event(&binding.key)).as_deref(),
                Some(binding.key.as_str()),
                "{binding:?}"
            );
        }
    }

    #[test]
    fn chords_and_releases_are_not_keys() {
        let ctrl_j = KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL);
        assert_eq!(key_name(&ctrl_j), None);
        let alt_q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::ALT);
        assert_eq!(key_name(&alt_q), None);
        let mut release = event("j");
        release.kind = KeyEventKind::Release;
        assert_eq!(key_name(&release), None);
        assert_eq!(key_name(&event(" ")).as_deref(), Some("space"));
        assert!(is_interrupt(&KeyEvent::new(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL
        )));
    }
}
