//! The build's check for the wasm32-wasip2 target (`build/wasm_target.rs`),
//! run against fake toolchains: a sysroot with or without the target, and
//! PATHs with a fake rustup, a failing one, or none.
#![cfg(unix)]

#[path = "../build/wasm_target.rs"]
mod build_check;

use crate::alone::in_own_process;
use build_check::{Outcome, TARGET, ensure};
use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// Held while a fake script is written and while `ensure` runs one: a
/// process forked by another test thread between our write and its own
/// exec inherits the script's open write handle, and running the script
/// then fails with "Text file busy" (ETXTBSY). Spawning returns only after
/// the child's exec, so serialising writes and spawns closes the window.
/// The other files' tests fork too, and cannot take this lock: each test
/// here runs alone in a process of its own ([`in_own_process`]).
static FORK_AND_WRITE: Mutex<()> = Mutex::new(());

fn serialised() -> MutexGuard<'static, ()> {
    FORK_AND_WRITE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A fake toolchain in a temp dir: `toolchains/<name>` as its sysroot, a
/// `rustc` that prints it, and an empty `bin` for fake tools.
struct Fake {
    dir: tempfile::TempDir,
    sysroot: PathBuf,
    rustc: PathBuf,
    bin: PathBuf,
}

fn script(path: &Path, body: &str) {
    let _guard = serialised();
    fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

impl Fake {
    fn new() -> Fake {
        let dir = tempfile::tempdir().unwrap();
        let sysroot = dir
            .path()
            .join("toolchains/1.95.0-x86_64-unknown-linux-gnu");
        fs::create_dir_all(sysroot.join("lib/rustlib/x86_64-unknown-linux-gnu/lib")).unwrap();
        let bin = dir.path().join("bin");
        fs::create_dir_all(&bin).unwrap();
        let rustc = dir.path().join("rustc");
        script(&rustc, &format!("echo '{}'", sysroot.display()));
        Fake {
            dir,
            sysroot,
            rustc,
            bin,
        }
    }

    fn target_dir(&self) -> PathBuf {
        self.sysroot.join("lib/rustlib").join(TARGET).join("lib")
    }

    /// A rustup on `bin` that logs its arguments, then runs `then`.
    fn rustup(&self, then: &str) -> PathBuf {
        let log = self.dir.path().join("rustup.log");
        script(
            &self.bin.join("rustup"),
            &format!("echo \"$@\" >> '{}'\n{then}", log.display()),
        );
        log
    }

    fn ensure(&self, vars: &[(&str, &str)]) -> Result<Outcome, String> {
        let mut env: HashMap<String, OsString> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        env.insert("PATH".into(), self.bin.clone().into_os_string());
        let _guard = serialised();
        ensure(&self.rustc, &|key| env.get(key).cloned())
    }
}

#[test]
fn a_toolchain_with_the_target_needs_nothing() {
    if in_own_process("wasm_target::a_toolchain_with_the_target_needs_nothing") {
        return;
    }
    let fake = Fake::new();
    fs::create_dir_all(fake.target_dir()).unwrap();
    let log = fake.rustup("exit 1");
    assert_eq!(fake.ensure(&[]), Ok(Outcome::Present));
    assert!(!log.exists(), "rustup was not asked anything");
}

#[test]
fn without_rustup_the_build_stops_with_the_command_to_run() {
    if in_own_process("wasm_target::without_rustup_the_build_stops_with_the_command_to_run") {
        return;
    }
    let fake = Fake::new();
    let err = fake.ensure(&[]).unwrap_err();
    assert!(
        err.contains("has no wasm32-wasip2 target")
            && err.contains("rustup is not on PATH")
            && err.contains("`rustup target add wasm32-wasip2`"),
        "{err}"
    );
    assert!(!err.contains('\n'), "one sentence: {err}");
}

#[test]
fn rustup_adds_the_target_for_the_toolchain_in_use() {
    if in_own_process("wasm_target::rustup_adds_the_target_for_the_toolchain_in_use") {
        return;
    }
    let fake = Fake::new();
    let log = fake.rustup(&format!("mkdir -p '{}'", fake.target_dir().display()));
    // rustup names the toolchain it started cargo with…
    assert_eq!(
        fake.ensure(&[("RUSTUP_TOOLCHAIN", "1.95.0-custom")]),
        Ok(Outcome::Added {
            toolchain: "1.95.0-custom".into()
        })
    );
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        "target add --toolchain 1.95.0-custom wasm32-wasip2\n"
    );
    // …and without RUSTUP_TOOLCHAIN the sysroot's directory names it.
    fs::remove_dir_all(fake.target_dir()).unwrap();
    fs::remove_file(&log).unwrap();
    assert_eq!(
        fake.ensure(&[]),
        Ok(Outcome::Added {
            toolchain: "1.95.0-x86_64-unknown-linux-gnu".into()
        })
    );
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        "target add --toolchain 1.95.0-x86_64-unknown-linux-gnu wasm32-wasip2\n"
    );
}

#[test]
fn a_failing_rustup_is_reported_with_what_it_said() {
    if in_own_process("wasm_target::a_failing_rustup_is_reported_with_what_it_said") {
        return;
    }
    let fake = Fake::new();
    fake.rustup("echo 'error: could not download' >&2; exit 1");
    let err = fake.ensure(&[]).unwrap_err();
    assert!(
        err.contains("could not download") && err.contains("rustup target add wasm32-wasip2"),
        "{err}"
    );
    // A rustup that "succeeds" without installing anything is no better.
    fake.rustup("exit 0");
    let err = fake.ensure(&[]).unwrap_err();
    assert!(err.contains("did not install the target"), "{err}");
}

#[test]
fn a_toolchain_outside_rustup_is_named() {
    if in_own_process("wasm_target::a_toolchain_outside_rustup_is_named") {
        return;
    }
    let fake = Fake::new();
    fake.rustup("exit 0");
    // A sysroot that is not in a rustup `toolchains` directory.
    let other = fake.dir.path().join("opt/rust");
    fs::create_dir_all(&other).unwrap();
    script(&fake.rustc, &format!("echo '{}'", other.display()));
    let err = fake.ensure(&[]).unwrap_err();
    assert!(err.contains("not managed by rustup"), "{err}");
}
