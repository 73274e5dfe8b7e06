//! What ends `tasklists watch` from outside. SIGINT, SIGTERM, SIGHUP and
//! SIGQUIT are caught rather than left to kill it, so that it gives the
//! terminal back and exits with the code a shell reports for the signal
//! (128 + its number). Each signal also writes a byte to a pipe that every
//! wait of `watch` polls, so a signal ends the wait at once, whatever it
//! waits for (a key, its output closing, the next change check).

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGWINCH};
use std::io::{self, Read};
use std::os::fd::BorrowedFd;
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The signal a closed terminal stands for (its exit code is 129).
pub(crate) const HANG_UP: i32 = SIGHUP;

/// The stop signals, caught for as long as the process lives.
pub(crate) struct Stop {
    /// The pipe's end the signals wake (non-blocking).
    wake: UnixStream,
    /// The last stop signal received; 0 for none.
    signal: Arc<AtomicUsize>,
    /// Whether the terminal was resized (SIGWINCH) since last asked.
    resized: Arc<AtomicBool>,
}

impl Stop {
    /// Catches the stop signals from now on, and SIGWINCH if `resizes`.
    pub(crate) fn catch(resizes: bool) -> io::Result<Stop> {
        let (wake, signalled) = UnixStream::pair()?;
        wake.set_nonblocking(true)?;
        signalled.set_nonblocking(true)?;
        let signal = Arc::new(AtomicUsize::new(0));
        let resized = Arc::new(AtomicBool::new(false));
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            // The flag first: the byte wakes a wait that then reads it.
            let value = usize::try_from(number).expect("a signal number");
            signal_hook::flag::register_usize(number, Arc::clone(&signal), value)?;
            signal_hook::low_level::pipe::register(number, signalled.try_clone()?)?;
        }
        if resizes {
            signal_hook::flag::register(SIGWINCH, Arc::clone(&resized))?;
            signal_hook::low_level::pipe::register(SIGWINCH, signalled)?;
        }
        Ok(Stop {
            wake,
            signal,
            resized,
        })
    }

    /// The stop signal received, if any.
    pub(crate) fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            number => i32::try_from(number).ok(),
        }
    }

    /// Whether the terminal was resized since the last call.
    pub(crate) fn resized(&self) -> bool {
        self.resized.swap(false, Ordering::SeqCst)
    }

    /// Waits up to `timeout` for a signal, or for `fd` to report one of
    /// `events` (an error or a hang-up it always reports); what `fd`
    /// reported, empty when a signal or the timeout ended the wait.
    pub(crate) fn wait(
        &self,
        fd: BorrowedFd<'_>,
        events: PollFlags,
        timeout: Duration,
    ) -> io::Result<PollFlags> {
        let timeout = Timespec::try_from(timeout).map_err(io::Error::other)?;
        let mut fds = [
            PollFd::new(&self.wake, PollFlags::IN),
            PollFd::from_borrowed_fd(fd, events),
        ];
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) | Err(Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        let reported = fds[1].revents();
        if !fds[0].revents().is_empty() {
            self.drain();
        }
        Ok(reported)
    }

    /// Empties the pipe, so the next wait sleeps until the next signal.
    fn drain(&self) {
        let mut bytes = [0u8; 64];
        // Ends on WouldBlock (empty), or on anything else: the flags, not
        // the bytes, say what arrived.
        while let Ok(n) = (&self.wake).read(&mut bytes) {
            if n == 0 {
                break;
            }
        }
    }
}
