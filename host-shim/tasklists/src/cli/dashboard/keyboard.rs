//! The dashboard's keyboard: the terminal read directly, each read only
//! after poll(2) says there is something, in the same wait as the stop
//! signals. A terminal that is gone (end of input, EIO or ENXIO, a hang-up
//! poll reports) says so instead of being read again: crossterm 0.29's
//! reader reads it again forever (a busy loop, deaf to signals; upstream
//! issue crossterm-rs/crossterm#793) and blocks in read(2) on half an
//! escape sequence, through any signal.

use super::keys::Keys;
use crate::cli::stop::Stop;
use crossterm::event::Event;
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::os::fd::{AsFd, OwnedFd};
use std::time::Duration;

/// What poll(2) reports for a terminal that is gone.
const GONE: PollFlags = PollFlags::HUP.union(PollFlags::ERR).union(PollFlags::NVAL);

/// The terminal's input, and the events read from it not yet handed out.
pub(super) struct Keyboard {
    tty: File,
    keys: Keys,
    events: VecDeque<Event>,
}

/// What a wait for a key came to.
pub(super) enum Key {
    /// A key, pasted text.
    Event(Event),
    /// Nothing (yet): the timeout passed, a signal arrived, or only part
    /// of a sequence was read.
    Nothing,
    /// The terminal is gone: it hung up, or reading it failed as a
    /// closed terminal does.
    Closed,
}

impl Keyboard {
    /// The controlling terminal, opened anew so that it can be read
    /// without blocking (stdin's flags are the shell's too); stdin itself
    /// when there is none but stdin is a terminal, read only when poll(2)
    /// says so.
    pub(super) fn open() -> io::Result<Keyboard> {
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let tty: OwnedFd = match rustix::fs::open("/dev/tty", flags, Mode::empty()) {
            Ok(tty) => tty,
            Err(_) if io::stdin().is_terminal() => io::stdin().as_fd().try_clone_to_owned()?,
            Err(e) => return Err(e.into()),
        };
        Ok(Keyboard {
            tty: File::from(tty),
            keys: Keys::default(),
            events: VecDeque::new(),
        })
    }

    /// The next event: one read earlier, or what the terminal sends within
    /// `timeout` (which a signal cuts short).
    pub(super) fn next(&mut self, stop: &Stop, timeout: Duration) -> io::Result<Key> {
        if let Some(event) = self.events.pop_front() {
            return Ok(Key::Event(event));
        }
        let ready = stop.wait(self.tty.as_fd(), PollFlags::IN, timeout)?;
        if ready.is_empty() {
            return Ok(Key::Nothing);
        }
        let mut bytes = [0u8; 1024];
        match self.tty.read(&mut bytes) {
            // End of input: in raw mode, only a terminal that is gone.
            Ok(0) => Ok(Key::Closed),
            Ok(n) => {
                self.events.extend(self.keys.feed(&bytes[..n]));
                Ok(self.events.pop_front().map_or(Key::Nothing, Key::Event))
            }
            Err(e) if is_gone(&e) => Ok(Key::Closed),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                // A hang-up or an error with nothing to read says it too.
                Ok(if ready.intersects(GONE) {
                    Key::Closed
                } else {
                    Key::Nothing
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Whether the terminal is gone, asked without waiting: after a
    /// failure to draw, to tell a closed terminal from a broken one.
    pub(super) fn is_closed(&self) -> bool {
        let mut fds = [PollFd::new(&self.tty, PollFlags::IN)];
        let now = Timespec::try_from(Duration::ZERO).expect("zero fits");
        poll(&mut fds, Some(&now)).is_ok() && fds[0].revents().intersects(GONE)
    }
}

/// An error a terminal that is gone answers with (EIO: hung up; ENXIO:
/// the device went away).
pub(super) fn is_gone(e: &io::Error) -> bool {
    let code = e.raw_os_error();
    code == Some(Errno::IO.raw_os_error()) || code == Some(Errno::NXIO.raw_os_error())
}
