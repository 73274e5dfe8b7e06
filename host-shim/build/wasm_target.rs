//! Makes sure the Rust toolchain building this crate can build the guest
//! component, i.e. has the `wasm32-wasip2` standard library.
//!
//! rustup applies `rust-toolchain.toml`'s `targets` only when it installs
//! the toolchain itself; a machine that already had the pinned toolchain
//! (CI images, most developers' machines) lacks the target, and the guest
//! build would stop minutes later with "can't find crate for `std`". The
//! build script calls [`ensure`] before anything else: with rustup the
//! target is added for the toolchain in use, without it the build stops at
//! once with one sentence naming the command to run.
//!
//! Shared by `build.rs` and `tests/wasm_target.rs` (`#[path]` includes).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The target the guest component is built for.
pub const TARGET: &str = "wasm32-wasip2";

/// What [`ensure`] found or did.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The toolchain already had the target.
    Present,
    /// The target was missing and rustup added it to this toolchain.
    Added {
        /// The toolchain rustup was asked about.
        toolchain: String,
    },
}

/// Checks that the toolchain of `rustc` has [`TARGET`] and adds it through
/// rustup when it is missing. `env` reads the build's environment. The
/// error is one sentence saying what to run.
pub fn ensure(rustc: &Path, env: &dyn Fn(&str) -> Option<OsString>) -> Result<Outcome, String> {
    let sysroot = sysroot(rustc)?;
    if has_target(&sysroot) {
        return Ok(Outcome::Present);
    }
    let manual = format!(
        "install it with `rustup target add {TARGET}` (or your distribution's {TARGET} standard library) and build again"
    );
    let Some(rustup) = find_rustup(env) else {
        return Err(format!(
            "the Rust toolchain at {} has no {TARGET} target, which the tasklists component is built for, and rustup is not on PATH to add it: {manual}",
            sysroot.display()
        ));
    };
    let Some(toolchain) = toolchain_name(&sysroot, env) else {
        return Err(format!(
            "the Rust toolchain at {} has no {TARGET} target and is not managed by rustup: {manual}",
            sysroot.display()
        ));
    };
    let output = Command::new(&rustup)
        .args(["target", "add", "--toolchain", &toolchain, TARGET])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            format!(
                "cannot run {} to add the {TARGET} target ({e}): {manual}",
                rustup.display()
            )
        })?;
    if !output.status.success() || !has_target(&sysroot) {
        let said = String::from_utf8_lossy(&output.stderr);
        let said = said.trim();
        return Err(format!(
            "`rustup target add --toolchain {toolchain} {TARGET}` did not install the target ({}): {manual}",
            if said.is_empty() { "no message" } else { said }
        ));
    }
    Ok(Outcome::Added { toolchain })
}

/// The toolchain's sysroot, as `rustc --print sysroot` says.
fn sysroot(rustc: &Path) -> Result<PathBuf, String> {
    let output = Command::new(rustc)
        .args(["--print", "sysroot"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {} to find its sysroot: {e}", rustc.display()))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let path = text.trim();
    if !output.status.success() || path.is_empty() {
        return Err(format!(
            "`{} --print sysroot` failed: {}",
            rustc.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(PathBuf::from(path))
}

/// Whether the sysroot holds the target's standard library.
fn has_target(sysroot: &Path) -> bool {
    sysroot
        .join("lib/rustlib")
        .join(TARGET)
        .join("lib")
        .is_dir()
}

/// The rustup binary: on `PATH`, else in `$CARGO_HOME/bin` or `~/.cargo/bin`.
fn find_rustup(env: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let name = if cfg!(windows) {
        "rustup.exe"
    } else {
        "rustup"
    };
    let mut dirs: Vec<PathBuf> = env("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    dirs.extend(env("CARGO_HOME").map(|home| PathBuf::from(home).join("bin")));
    dirs.extend(env("HOME").map(|home| PathBuf::from(home).join(".cargo/bin")));
    dirs.into_iter()
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The rustup toolchain in use: `RUSTUP_TOOLCHAIN` (rustup sets it for the
/// processes it starts), else the sysroot's directory name when it lives
/// in a rustup `toolchains` directory.
fn toolchain_name(sysroot: &Path, env: &dyn Fn(&str) -> Option<OsString>) -> Option<String> {
    if let Some(name) = env("RUSTUP_TOOLCHAIN").filter(|n| !n.is_empty()) {
        return name.into_string().ok();
    }
    let parent = sysroot.parent()?;
    if parent.file_name()? != "toolchains" {
        return None;
    }
    sysroot.file_name()?.to_str().map(str::to_string)
}
