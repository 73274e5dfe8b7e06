//! `tasklists` in a pseudo-terminal, as a person runs it: keys typed in,
//! the screen read back through a terminal emulator (vt100); the terminal
//! closed under it, signals sent to it, and how it ended (its exit status,
//! how soon, the CPU time it used meanwhile).

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use rustix::process::{Pid, Signal, kill_process};
use std::fmt::Debug;
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::os::fd::BorrowedFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the screen may take to show what a test waits for.
const DEADLINE: Duration = Duration::from_secs(20);

/// The binary running in a pseudo-terminal; killed when dropped.
pub struct Pty {
    /// The terminal's master side (with `writer`, and the reader `feed`
    /// holds): `None` once closed.
    master: Option<Box<dyn MasterPty + Send>>,
    writer: Option<Box<dyn Write + Send>>,
    /// What the pseudo-terminal runs: `tasklists`, or a shell around it.
    child: Box<dyn Child + Send + Sync>,
    /// The `tasklists` process (the child, or the shell's child).
    program: u32,
    /// The shell around it, if any.
    shell: Option<u32>,
    screen: Arc<Mutex<vt100::Parser>>,
    /// Tells the thread that feeds `screen` to let go of its reader.
    hang_up: Arc<AtomicBool>,
    /// How many times that thread found nothing to read: one count begun
    /// after the program exited means the screen has all it wrote.
    idle_reads: Arc<AtomicU64>,
    feed: Option<JoinHandle<()>>,
    /// The terminal's modes before the program started (cooked).
    cooked: Box<dyn Debug + Send>,
}

/// How the program ended, or had not yet, when a test stopped waiting.
#[derive(Debug)]
pub struct Ended {
    /// Its exit code, and the signal that killed it if one did; `None`
    /// if it was still running at the deadline.
    pub status: Option<(u32, Option<String>)>,
    /// From the action that should end it to the moment it was gone (or
    /// the deadline).
    pub after: Duration,
    /// The CPU time (user and system) it used over `after`.
    pub cpu: Duration,
}

impl Pty {
    /// Starts `tasklists` with a database, a workspace and `args`, in a
    /// `cols`×`rows` terminal: it leads the terminal's session, so closing
    /// the terminal also sends it SIGHUP.
    pub fn spawn(db: &Path, args: &[&str], cols: u16, rows: u16) -> Pty {
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_tasklists"));
        cmd.arg("--db");
        cmd.arg(db);
        cmd.args(["--workspace", "/work/demo"]);
        cmd.args(args);
        Pty::start(cmd, cols, rows, false)
    }

    /// As [`Pty::spawn`], but under a shell that leads the session and
    /// ignores SIGHUP (as `nohup`, or a shell that does not pass the hang-up
    /// on): when the terminal closes, `tasklists` gets no signal and learns
    /// it only from the terminal itself. The shell exits with its status.
    pub fn spawn_under_shell(db: &Path, args: &[&str], cols: u16, rows: u16) -> Pty {
        let mut cmd = CommandBuilder::new("sh");
        // Not `exec`: the shell stays, the session's leader.
        cmd.args(["-c", "trap '' HUP; \"$0\" \"$@\"; exit $?"]);
        cmd.arg(env!("CARGO_BIN_EXE_tasklists"));
        cmd.arg("--db");
        cmd.arg(db);
        cmd.args(["--workspace", "/work/demo"]);
        cmd.args(args);
        Pty::start(cmd, cols, rows, true)
    }

    fn start(mut cmd: CommandBuilder, cols: u16, rows: u16, under_shell: bool) -> Pty {
        let size = PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        };
        let pair = native_pty_system()
            .openpty(size)
            .expect("a pseudo-terminal");
        for name in [
            "TASKLISTS_DB",
            "TASKLISTS_AGENT_ID",
            "TASKLISTS_PERSON",
            "NO_COLOR",
        ] {
            cmd.env_remove(name);
        }
        cmd.env("TERM", "xterm-256color");
        cmd.env(
            "TASKLISTS_CACHE_DIR",
            std::env::temp_dir().join("tasklists-tests-cache"),
        );
        let cooked = Box::new(pair.master.get_termios().expect("the modes"));
        let child = pair.slave.spawn_command(cmd).expect("the binary starts");
        drop(pair.slave);
        let first = child.process_id().expect("a running child");
        let shell = under_shell.then_some(first);
        let program = shell.map_or(first, child_of);
        // Non-blocking, so that the thread below notices when the test
        // closes the terminal: a read blocked on the master would keep it
        // open, and the program would never see it close.
        let fd = pair.master.as_raw_fd().expect("the master's descriptor");
        #[allow(
            unsafe_code,
            reason = "the master's descriptor, open for as long as `pair.master` lives, borrowed for one call"
        )]
        let master = unsafe { BorrowedFd::borrow_raw(fd) };
        rustix::io::ioctl_fionbio(master, true).expect("a non-blocking master");
        let mut reader = pair.master.try_clone_reader().expect("a reader");
        let writer = pair.master.take_writer().expect("a writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            NonZeroU16::new(rows).expect("rows"),
            NonZeroU16::new(cols).expect("columns"),
            0,
        )));
        let hang_up = Arc::new(AtomicBool::new(false));
        let idle_reads = Arc::new(AtomicU64::new(0));
        let (feed, stop, idle) = (
            Arc::clone(&screen),
            Arc::clone(&hang_up),
            Arc::clone(&idle_reads),
        );
        let feed = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match reader.read(&mut buf) {
                    // The child's side closed (EOF, or EIO read as EOF).
                    Ok(0) => break,
                    Ok(n) => feed.lock().unwrap().process(&buf[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        idle.fetch_add(1, Ordering::SeqCst);
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        });
        Pty {
            master: Some(pair.master),
            writer: Some(writer),
            child,
            program,
            shell,
            screen,
            hang_up,
            idle_reads,
            feed: Some(feed),
            cooked,
        }
    }

    /// Whether the terminal's modes are those it had before the program
    /// started (compared as printed: every flag and control character).
    pub fn modes_restored(&self) -> bool {
        let master = self.master.as_ref().expect("the terminal is open");
        let now = master.get_termios().expect("the modes");
        format!("{now:?}") == format!("{:?}", self.cooked)
    }

    /// Types `bytes` as the keyboard would.
    pub fn send(&mut self, bytes: &str) {
        let writer = self.writer.as_mut().expect("the terminal is open");
        writer.write_all(bytes.as_bytes()).unwrap();
        writer.flush().unwrap();
    }

    /// Closes the terminal as a terminal emulator does when its window
    /// (or tmux its session) goes: every descriptor of the master side,
    /// which hangs the terminal up.
    pub fn close(&mut self) {
        self.hang_up.store(true, Ordering::Relaxed);
        if let Some(feed) = self.feed.take() {
            feed.join().expect("the screen's reader");
        }
        self.writer = None;
        self.master = None;
    }

    /// The screen's text, rows joined by newlines.
    pub fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// The screen's modes the program set: the alternate screen, a hidden
    /// cursor, bracketed paste.
    pub fn screen_modes(&self) -> [bool; 3] {
        let parser = self.screen.lock().unwrap();
        let screen = parser.screen();
        [
            screen.alternate_screen(),
            screen.hide_cursor(),
            screen.bracketed_paste(),
        ]
    }

    /// Waits until the screen satisfies `wanted`; returns its text.
    pub fn wait_for(&self, what: &str, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let text = self.contents();
            if wanted(&text) {
                return text;
            }
            if Instant::now() >= deadline {
                panic!("the screen never showed {what}; it shows:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_text(&self, text: &str) -> String {
        self.wait_for(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Waits for the program to exit on its own; its exit code.
    pub fn wait_exit(&mut self) -> u32 {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert_eq!(status.signal(), None, "killed by a signal");
                self.drain();
                return status.exit_code();
            }
            if Instant::now() >= deadline {
                panic!("the program did not exit; it shows:\n{}", self.contents());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen has everything the exited program wrote:
    /// its last output (leaving the alternate screen) sits in the
    /// terminal's buffer until the feeding thread reads it, which a loaded
    /// machine may delay past the exit. Two more empty reads (the second
    /// begun after this call) or the thread's end (the terminal closed)
    /// mean the buffer was drained.
    fn drain(&self) {
        let seen = self.idle_reads.load(Ordering::SeqCst);
        let deadline = Instant::now() + DEADLINE;
        while self.idle_reads.load(Ordering::SeqCst) < seen + 2
            && self.feed.as_ref().is_some_and(|f| !f.is_finished())
        {
            assert!(Instant::now() < deadline, "the screen's reader is stuck");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends the program `signal`.
    pub fn signal(&self, signal: Signal) {
        let pid = Pid::from_raw(self.program as i32).expect("a process id");
        kill_process(pid, signal).expect("the signal is sent");
    }

    /// Does `action` (a key, a signal, closing the terminal) and waits up
    /// to `within` for the program to be gone, watching the CPU time it
    /// uses meanwhile.
    pub fn end_by(&mut self, within: Duration, action: impl FnOnce(&mut Pty)) -> Ended {
        let (_, start) = cpu_time(self.program).expect("the program runs");
        let mut used = start;
        let began = Instant::now();
        action(self);
        let gone = loop {
            match cpu_time(self.program) {
                // Exited (a zombie until reaped, its times final) …
                Some((state, cpu)) => {
                    used = cpu;
                    if state == 'Z' {
                        break true;
                    }
                }
                // … or already reaped by its shell.
                None => break true,
            }
            if began.elapsed() >= within {
                break false;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let after = began.elapsed();
        let status = gone.then(|| {
            // The child: the program itself, or its shell, which exits
            // right after it.
            let deadline = Instant::now() + DEADLINE;
            loop {
                if let Some(status) = self.child.try_wait().unwrap() {
                    break (status.exit_code(), status.signal().map(str::to_string));
                }
                assert!(Instant::now() < deadline, "the shell did not exit");
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        if gone {
            self.drain();
        }
        Ended {
            status,
            after,
            cpu: used.saturating_sub(start),
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        // The shell's child first (it would outlive a killed shell), while
        // it is still the shell's: its id is not reused before it is reaped.
        if let Some(shell) = self.shell
            && parent_of(self.program) == Some(shell)
            && let Some(pid) = Pid::from_raw(self.program as i32)
        {
            let _ = kill_process(pid, Signal::KILL);
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        self.close();
    }
}

/// A process's state (`R`, `S`, `Z`, …) and the CPU time it has used, from
/// `/proc/PID/stat`; `None` once it is gone.
fn cpu_time(pid: u32) -> Option<(char, Duration)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name in parentheses: state, ppid, …, utime (the
    // 12th) and stime (the 13th), in clock ticks.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let per_second = rustix::param::clock_ticks_per_second();
    Some((
        state,
        Duration::from_secs_f64(ticks as f64 / per_second as f64),
    ))
}

/// A process's parent, from `/proc/PID/stat`; `None` once it is gone.
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The process `parent` started (the shell's `tasklists`), once it has.
fn child_of(parent: u32) -> u32 {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let found = std::fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .find(|&pid| parent_of(pid) == Some(parent));
        if let Some(pid) = found {
            return pid;
        }
        assert!(Instant::now() < deadline, "the shell started no program");
        std::thread::sleep(Duration::from_millis(10));
    }
}
