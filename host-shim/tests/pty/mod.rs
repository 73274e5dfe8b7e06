//! `tasklists` in a pseudo-terminal, as a person runs it: keys typed in,
//! the screen read back through a terminal emulator (vt100).

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::fmt::Debug;
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the screen may take to show what a test waits for.
const DEADLINE: Duration = Duration::from_secs(20);

/// The binary running in a pseudo-terminal; killed when dropped.
pub struct Pty {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    screen: Arc<Mutex<vt100::Parser>>,
    /// The terminal's modes before the program started (cooked).
    cooked: Box<dyn Debug + Send>,
}

impl Pty {
    /// Starts `tasklists` with a database, a workspace and `args`, in a
    /// `cols`×`rows` terminal.
    pub fn spawn(db: &Path, args: &[&str], cols: u16, rows: u16) -> Pty {
        let size = PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        };
        let pair = native_pty_system()
            .openpty(size)
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_tasklists"));
        cmd.arg("--db");
        cmd.arg(db);
        cmd.args(["--workspace", "/work/demo"]);
        cmd.args(args);
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
        let mut reader = pair.master.try_clone_reader().expect("a reader");
        let writer = pair.master.take_writer().expect("a writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            NonZeroU16::new(rows).expect("rows"),
            NonZeroU16::new(cols).expect("columns"),
            0,
        )));
        let feed = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            // Ends when the child's side closes (EOF or EIO).
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                feed.lock().unwrap().process(&buf[..n]);
            }
        });
        Pty {
            master: pair.master,
            writer,
            child,
            screen,
            cooked,
        }
    }

    /// Whether the terminal's modes are those it had before the program
    /// started (compared as printed: every flag and control character).
    pub fn modes_restored(&self) -> bool {
        let now = self.master.get_termios().expect("the modes");
        format!("{now:?}") == format!("{:?}", self.cooked)
    }

    /// Types `bytes` as the keyboard would.
    pub fn send(&mut self, bytes: &str) {
        self.writer.write_all(bytes.as_bytes()).unwrap();
        self.writer.flush().unwrap();
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

    /// Waits for the program to exit on its own; its success.
    pub fn wait_exit(&mut self) -> bool {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            if Instant::now() >= deadline {
                panic!("the program did not exit; it shows:\n{}", self.contents());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The process id, to send it a signal.
    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("a running child")
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
