//! Builds the guest component and embeds it in the host, so `cargo build`
//! (or `cargo run -- demo`) on a fresh clone needs no manual step.
//!
//! The guest is built by a nested `cargo build -p tasklists-guest --profile
//! guest --target wasm32-wasip2` (the workspace's `guest` profile: optimized for speed,
//! no debug info) into its own target directory (`<target>/guest`):
//! the outer cargo holds the lock of `<target>` while build scripts run, so
//! sharing it would deadlock. On `wasm32-wasip2` rustc links a cdylib straight
//! into a component, so no adapter or `wasm-tools` step is needed.
//!
//! The component is copied into `OUT_DIR` (only when its bytes changed, so an
//! unchanged guest never forces the host to recompile) and exposed as
//! `TASKLISTS_COMPONENT_PATH`; its SHA-256 is `TASKLISTS_COMPONENT_SHA256`,
//! the key of the host's on-disk cache of the compiled component.
//!
//! `TASKLISTS_GUEST_WASM=<path>` embeds a prebuilt component instead (for
//! packaging or cross builds); nothing is built then.

use sha2::{Digest, Sha256};
use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "build/wasm_target.rs"]
mod wasm_target;

/// Variables the outer cargo sets for this build script (or that configure
/// the outer build) which must not leak into the nested guest build: they
/// would retarget it, inject host-only flags (coverage, sanitizers, clippy
/// as a wrapper), point it at the locked outer target dir, or hand it a
/// jobserver whose file descriptors it may not have inherited.
const LEAKY_VARS: &[&str] = &[
    "CARGO_ENCODED_RUSTFLAGS",
    "CARGO_ENCODED_RUSTDOCFLAGS",
    "RUSTFLAGS",
    "RUSTDOCFLAGS",
    "CARGO_BUILD_RUSTFLAGS",
    "CARGO_BUILD_TARGET",
    "CARGO_TARGET_DIR",
    "CARGO_BUILD_TARGET_DIR",
    "CARGO_BUILD_BUILD_DIR",
    "CARGO_MAKEFLAGS",
    "MAKEFLAGS",
    "MFLAGS",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "CARGO_PRIMARY_PACKAGE",
    "CARGO_CRATE_NAME",
    "CARGO_RUSTC_CURRENT_DIR",
    "OUT_DIR",
    "TARGET",
    "HOST",
    "NUM_JOBS",
    "OPT_LEVEL",
    "PROFILE",
    "DEBUG",
    "RUSTC_LINKER",
];

/// The cargo profile the component is built with (`[profile.guest]` in the
/// workspace `Cargo.toml`).
const GUEST_PROFILE: &str = "guest";

/// Prefixes of per-package variables of the outer build script.
const LEAKY_PREFIXES: &[&str] = &[
    "CARGO_FEATURE_",
    "CARGO_CFG_",
    "CARGO_PKG_",
    "CARGO_MANIFEST_",
    "DEP_",
];

fn main() {
    let manifest_dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir
        .parent()
        .expect("host-shim lives inside the workspace")
        .to_path_buf();
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));

    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/wasm_target.rs");
    println!("cargo:rerun-if-env-changed=TASKLISTS_GUEST_WASM");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");

    let component = match env::var_os("TASKLISTS_GUEST_WASM").filter(|p| !p.is_empty()) {
        Some(prebuilt) => {
            let prebuilt = PathBuf::from(prebuilt);
            println!("cargo:rerun-if-changed={}", prebuilt.display());
            prebuilt
        }
        None => build_guest(&workspace),
    };

    let bytes = fs::read(&component).unwrap_or_else(|e| {
        fail(&format!(
            "cannot read the guest component {}: {e}",
            component.display()
        ))
    });
    check_is_component(&component, &bytes);

    let embedded = out_dir.join("tasklists_guest.wasm");
    // Rewriting identical bytes would bump the mtime and make rustc rebuild
    // the whole host crate for nothing.
    if fs::read(&embedded).ok().as_deref() != Some(bytes.as_slice()) {
        fs::write(&embedded, &bytes)
            .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", embedded.display())));
    }
    println!(
        "cargo:rustc-env=TASKLISTS_COMPONENT_PATH={}",
        embedded.display()
    );
    println!(
        "cargo:rustc-env=TASKLISTS_COMPONENT_SHA256={}",
        hex(&Sha256::digest(&bytes))
    );
}

/// Runs the nested cargo build and returns the path of the component.
fn build_guest(workspace: &Path) -> PathBuf {
    // First, before the nested build: a toolchain without the wasm target
    // would only fail minutes later, deep in the guest's dependencies.
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    match wasm_target::ensure(Path::new(&rustc), &|key| env::var_os(key)) {
        Ok(wasm_target::Outcome::Present) => {}
        // Cargo replays this warning while the build script stays fresh,
        // so it is worded to stay true.
        Ok(wasm_target::Outcome::Added { toolchain }) => println!(
            "cargo:warning=the {} target was missing from the {toolchain} toolchain; it was added with rustup (the tasklists component is built for it)",
            wasm_target::TARGET
        ),
        Err(sentence) => fail(&sentence),
    }
    // Rebuild when anything the guest is made of changes. Only existing paths
    // are listed: cargo treats a missing one as always changed.
    for input in [
        "guest/src",
        "guest/Cargo.toml",
        "guest/build.rs",
        // The store's value types are compiled into the component too.
        "host-shim/store/src",
        "host-shim/store/Cargo.toml",
        "wit",
        "Cargo.lock",
        "Cargo.toml",
        "rust-toolchain.toml",
    ] {
        let path = workspace.join(input);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }

    // Honour a user-chosen target dir, but never the outer one itself.
    let target_dir = env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"))
        .join("guest");

    let cargo = env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut command = Command::new(cargo);
    command
        .current_dir(workspace)
        .args([
            "build",
            "--package",
            "tasklists-guest",
            "--profile",
            GUEST_PROFILE,
        ])
        .args(["--target", wasm_target::TARGET, "--locked"])
        .arg("--target-dir")
        .arg(&target_dir)
        .stdin(Stdio::null());
    for (key, _) in env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        if LEAKY_VARS.contains(&key) || LEAKY_PREFIXES.iter().any(|p| key.starts_with(p)) {
            command.env_remove(key);
        }
    }

    let output = command
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run cargo to build the guest: {e}")));
    if !output.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&output.stdout));
        eprintln!("{}", String::from_utf8_lossy(&output.stderr));
        fail(&format!(
            "building the guest component failed ({}); the cargo output is above",
            output.status
        ));
    }
    target_dir
        .join(wasm_target::TARGET)
        .join(GUEST_PROFILE)
        .join("tasklists_guest.wasm")
}

/// A core module (e.g. from a `wasm32-wasip1` build) would fail much later
/// with a confusing wasmtime error; say what is wrong here instead.
fn check_is_component(path: &Path, bytes: &[u8]) {
    const COMPONENT_PREAMBLE: [u8; 8] = [0x00, b'a', b's', b'm', 0x0d, 0x00, 0x01, 0x00];
    if !bytes.starts_with(&COMPONENT_PREAMBLE) {
        fail(&format!(
            "{} is not a WebAssembly component (build the guest for wasm32-wasip2)",
            path.display()
        ));
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}
