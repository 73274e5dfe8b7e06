//! The bytes a terminal sends in raw mode, as keys and pasted text, named
//! as crossterm names them (so the dashboard reads them as it did through
//! crossterm's reader, whose loop spins on a closed terminal): printable
//! characters, control chords, the xterm sequences of the arrows, Home,
//! End, the page keys, and bracketed paste. Anything else is skipped.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

const ESC: u8 = 0x1b;
const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";
/// An unfinished sequence this long is no sequence: it is dropped.
const LONGEST_SEQUENCE: usize = 64;

/// Turns the terminal's bytes into events, keeping an unfinished sequence
/// (or paste) until the rest arrives.
#[derive(Default)]
pub(super) struct Keys {
    pending: Vec<u8>,
}

/// What the start of the bytes holds.
enum Parsed {
    /// An event (`None`: a sequence the dashboard has no use for) and how
    /// many bytes it took.
    Done(Option<Event>, usize),
    /// The start of a sequence, the rest still to come.
    Partial,
}

impl Keys {
    /// The events in `bytes` (one read of the terminal), in order.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        let mut at = 0;
        while at < self.pending.len() {
            match parse(&self.pending[at..]) {
                Parsed::Done(event, used) => {
                    events.extend(event);
                    at += used;
                }
                Parsed::Partial => break,
            }
        }
        self.pending.drain(..at);
        // A terminal sends a sequence in one piece: an escape that ends
        // what it sent is the Esc key.
        if self.pending == [ESC] {
            self.pending.clear();
            events.push(key(KeyCode::Esc, KeyModifiers::NONE));
        }
        if !self.pending.starts_with(PASTE_START) && self.pending.len() > LONGEST_SEQUENCE {
            self.pending.clear();
        }
        events
    }
}

/// The first event of `bytes` (not empty).
fn parse(bytes: &[u8]) -> Parsed {
    let done = |event: Event, used| Parsed::Done(Some(event), used);
    match bytes[0] {
        ESC => escape(bytes),
        b'\r' => done(key(KeyCode::Enter, KeyModifiers::NONE), 1),
        b'\t' => done(key(KeyCode::Tab, KeyModifiers::NONE), 1),
        0x7f => done(key(KeyCode::Backspace, KeyModifiers::NONE), 1),
        // Ctrl-A … Ctrl-Z (Ctrl-C among them; `\n` is Ctrl-J in raw mode).
        c @ 0x01..=0x1a => done(ctrl((c - 0x01 + b'a') as char), 1),
        c @ 0x1c..=0x1f => done(ctrl((c - 0x1c + b'4') as char), 1),
        0x00 => done(ctrl(' '), 1),
        _ => character(bytes),
    }
}

/// One UTF-8 character; an invalid byte is skipped.
fn character(bytes: &[u8]) -> Parsed {
    let len = match bytes[0] {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return Parsed::Done(None, 1),
    };
    if bytes.len() < len {
        return Parsed::Partial;
    }
    match std::str::from_utf8(&bytes[..len])
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(c) => {
            // An upper-case letter comes with Shift held, as crossterm says.
            let modifiers = if c.is_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            Parsed::Done(Some(key(KeyCode::Char(c), modifiers)), len)
        }
        None => Parsed::Done(None, 1),
    }
}

/// What starts with an escape: a CSI or SS3 sequence, a paste, Esc
/// itself, or Alt with a key.
fn escape(bytes: &[u8]) -> Parsed {
    match bytes.get(1) {
        None => Parsed::Partial,
        Some(b'[') => csi(bytes),
        Some(b'O') => match bytes.get(2) {
            None => Parsed::Partial,
            Some(&last) => Parsed::Done(cursor_key(last, KeyModifiers::NONE), 3),
        },
        // Esc pressed twice: the first one.
        Some(&ESC) => Parsed::Done(Some(key(KeyCode::Esc, KeyModifiers::NONE)), 1),
        Some(_) => match parse(&bytes[1..]) {
            Parsed::Done(Some(Event::Key(mut key)), used) => {
                key.modifiers |= KeyModifiers::ALT;
                Parsed::Done(Some(Event::Key(key)), used + 1)
            }
            Parsed::Done(_, used) => Parsed::Done(None, used + 1),
            Parsed::Partial => Parsed::Partial,
        },
    }
}

/// `ESC [` parameters, intermediates, a final byte; or a paste.
fn csi(bytes: &[u8]) -> Parsed {
    if bytes.starts_with(PASTE_START) {
        return paste(bytes);
    }
    if bytes.get(2) == Some(&b'[') {
        // The Linux console's F1–F5: `ESC [ [ A` … `E`.
        return if bytes.len() < 4 {
            Parsed::Partial
        } else {
            Parsed::Done(None, 4)
        };
    }
    let Some(end) = bytes[2..].iter().position(|b| !(0x20..=0x3f).contains(b)) else {
        return Parsed::Partial;
    };
    let last = bytes[2 + end];
    if !(0x40..=0x7e).contains(&last) {
        // Not a sequence after all: skip to where it broke off.
        return Parsed::Done(None, 2 + end);
    }
    let params: Vec<u16> = std::str::from_utf8(&bytes[2..2 + end])
        .unwrap_or_default()
        .split(';')
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    let modifiers = params.get(1).map_or(KeyModifiers::NONE, |&m| modifiers(m));
    let event = match last {
        b'~' => {
            let code = match params.first() {
                Some(1 | 7) => Some(KeyCode::Home),
                Some(4 | 8) => Some(KeyCode::End),
                Some(5) => Some(KeyCode::PageUp),
                Some(6) => Some(KeyCode::PageDown),
                Some(2) => Some(KeyCode::Insert),
                Some(3) => Some(KeyCode::Delete),
                _ => None,
            };
            code.map(|code| key(code, modifiers))
        }
        b'Z' => Some(key(KeyCode::BackTab, KeyModifiers::SHIFT)),
        other => cursor_key(other, modifiers),
    };
    Parsed::Done(event, 3 + end)
}

/// The arrows, Home and End by their last byte (`ESC [` or `ESC O`).
fn cursor_key(last: u8, modifiers: KeyModifiers) -> Option<Event> {
    let code = match last {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        _ => return None,
    };
    Some(key(code, modifiers))
}

/// xterm's modifier parameter: 1 + Shift 1, Alt 2, Ctrl 4, Super 8.
fn modifiers(param: u16) -> KeyModifiers {
    let bits = param.saturating_sub(1);
    let mut modifiers = KeyModifiers::NONE;
    for (bit, modifier) in [
        (1, KeyModifiers::SHIFT),
        (2, KeyModifiers::ALT),
        (4, KeyModifiers::CONTROL),
        (8, KeyModifiers::SUPER),
    ] {
        if bits & bit != 0 {
            modifiers |= modifier;
        }
    }
    modifiers
}

/// Bracketed paste: the text between `ESC [200~` and `ESC [201~`.
fn paste(bytes: &[u8]) -> Parsed {
    let text = &bytes[PASTE_START.len()..];
    match text.windows(PASTE_END.len()).position(|w| w == PASTE_END) {
        Some(end) => Parsed::Done(
            Some(Event::Paste(
                String::from_utf8_lossy(&text[..end]).into_owned(),
            )),
            PASTE_START.len() + end + PASTE_END.len(),
        ),
        None => Parsed::Partial,
    }
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

fn ctrl(c: char) -> Event {
    key(KeyCode::Char(c), KeyModifiers::CONTROL)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(chunks: &[&[u8]]) -> Vec<Event> {
        let mut keys = Keys::default();
        chunks.iter().flat_map(|chunk| keys.feed(chunk)).collect()
    }

    fn plain(code: KeyCode) -> Event {
        key(code, KeyModifiers::NONE)
    }

    #[test]
    fn characters_and_control_keys() {
        assert_eq!(
            keys(&[b"jK\r\t\x7f\x03", "é✓".as_bytes()]),
            vec![
                plain(KeyCode::Char('j')),
                key(KeyCode::Char('K'), KeyModifiers::SHIFT),
                plain(KeyCode::Enter),
                plain(KeyCode::Tab),
                plain(KeyCode::Backspace),
                ctrl('c'),
                plain(KeyCode::Char('é')),
                plain(KeyCode::Char('✓')),
            ]
        );
        // A character split between two reads.
        let check = "✓".as_bytes();
        assert_eq!(
            keys(&[&check[..1], &check[1..]]),
            vec![plain(KeyCode::Char('✓'))]
        );
    }

    #[test]
    fn sequences_of_the_cursor_and_page_keys() {
        assert_eq!(
            keys(&[b"\x1b[A\x1bOB\x1b[C\x1b[D\x1b[H\x1b[4~\x1b[5~\x1b[6~\x1b[1;5A"]),
            vec![
                plain(KeyCode::Up),
                plain(KeyCode::Down),
                plain(KeyCode::Right),
                plain(KeyCode::Left),
                plain(KeyCode::Home),
                plain(KeyCode::End),
                plain(KeyCode::PageUp),
                plain(KeyCode::PageDown),
                key(KeyCode::Up, KeyModifiers::CONTROL),
            ]
        );
        // Unknown sequences are skipped whole, never read as letters.
        assert_eq!(
            keys(&[b"\x1b[15~\x1b[[A\x1bOP\x1b[?1;2cq"]),
            vec![plain(KeyCode::Char('q'))]
        );
    }

    #[test]
    fn escape_alone_alt_and_split_sequences() {
        assert_eq!(keys(&[b"\x1b"]), vec![plain(KeyCode::Esc)]);
        assert_eq!(
            keys(&[b"\x1bq"]),
            vec![key(KeyCode::Char('q'), KeyModifiers::ALT)]
        );
        // Half a sequence waits for its rest.
        assert_eq!(
            keys(&[b"\x1b[1", b";2B"]),
            vec![key(KeyCode::Down, KeyModifiers::SHIFT)]
        );
        let mut half = Keys::default();
        assert!(half.feed(b"\x1b[1").is_empty());
    }

    #[test]
    fn pasted_text_even_across_reads() {
        assert_eq!(
            keys(&[b"a\x1b[200~ and q\r", b"x\x1b[201~b"]),
            vec![
                plain(KeyCode::Char('a')),
                Event::Paste(" and q\rx".into()),
                plain(KeyCode::Char('b')),
            ]
        );
    }
}
