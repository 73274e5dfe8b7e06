//! The on-disk cache of the compiled component. Compiling it with
//! Cranelift takes most of a second; loading the cached native code is an
//! `mmap`. The key is the component's SHA-256 (computed at build time) and
//! a hash of everything in the engine that affects compiled code
//! (wasmtime version, target, compiler settings), so a stale file is never
//! picked up, only ignored and replaced.
//!
//! A module is native code, so it is loaded only if this user compiled it
//! ([`trust`]): the directory is made private (0700) and each module is
//! written private (0600); a directory or file anyone else could have
//! written is not loaded, the component is compiled in memory, and one
//! line on stderr says why (once per process).

mod trust;

use crate::error::HostError;
use sha2::{Digest, Sha256};
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Once;
use trust::Untrusted;
use wasmtime::Engine;
use wasmtime::component::Component;

/// What loading did with the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CacheOutcome {
    /// No cache directory: compiled in memory.
    Disabled,
    /// Loaded from the cache file.
    Hit,
    /// Compiled, and the cache file was written.
    Stored,
    /// Compiled, but the cache could not be written (read-only home, …);
    /// the host works anyway, it only starts slower.
    NotStored,
    /// Compiled in memory: the directory is not this user's alone.
    Refused,
}

/// Loads the component from `cache_dir` if a compatible compiled copy is
/// there, else compiles it and tries to store it.
pub(crate) fn load(
    engine: &Engine,
    wasm: &[u8],
    wasm_sha256: &str,
    cache_dir: Option<&Path>,
) -> Result<(Component, CacheOutcome), HostError> {
    let Some(dir) = cache_dir.and_then(|dir| std::path::absolute(dir).ok()) else {
        return Ok((compile(engine, wasm)?, CacheOutcome::Disabled));
    };
    match private_dir(&dir) {
        Ok(true) => {}
        // Cannot be created (read-only home, …): the host only starts slower.
        Ok(false) => return Ok((compile(engine, wasm)?, CacheOutcome::NotStored)),
        Err(why) => {
            say_why(&why);
            return Ok((compile(engine, wasm)?, CacheOutcome::Refused));
        }
    }
    let path = cache_file(engine, wasm_sha256, &dir);
    match trust::module(&path) {
        Ok(true) => {
            // SAFETY: `deserialize_file` maps the file as native code. It is
            // a regular file this user owns and nobody else may write, in a
            // directory likewise this user's alone (checked just above), so
            // it was written by this host as this user (serialized, then
            // renamed into place atomically, so never seen half-written) or
            // by something already running as this user. wasmtime checks
            // the header (engine version and settings) and refuses an
            // incompatible file, which is recompiled.
            #[allow(unsafe_code, reason = "the one unsafe call, justified above")]
            if let Ok(component) = unsafe { Component::deserialize_file(engine, &path) } {
                return Ok((component, CacheOutcome::Hit));
            }
        }
        Ok(false) => {}
        // Not loaded; the directory is the user's, so the module compiled
        // now replaces it.
        Err(why) => say_why(&why),
    }
    let component = compile(engine, wasm)?;
    let outcome = store(&component, &dir, &path);
    Ok((component, outcome))
}

/// Makes sure `dir` holds the compiled component (used when the process
/// already loaded it from elsewhere). Best effort, like the cache itself.
pub(crate) fn ensure_stored(engine: &Engine, component: &Component, wasm_sha256: &str, dir: &Path) {
    let Ok(dir) = std::path::absolute(dir) else {
        return;
    };
    match private_dir(&dir) {
        Ok(true) => {}
        Ok(false) => return,
        Err(why) => return say_why(&why),
    }
    let path = cache_file(engine, wasm_sha256, &dir);
    if !matches!(trust::module(&path), Ok(true)) {
        store(component, &dir, &path);
    }
}

/// Creates `dir` (0700) if it is missing and checks that it is this
/// user's alone. `Ok(false)`: it does not exist and cannot be created.
fn private_dir(dir: &Path) -> Result<bool, Untrusted> {
    if !dir.exists() {
        if let Some(parent) = dir.parent() {
            let _ = fs::create_dir_all(parent);
        }
        let mut builder = fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        // Another process may have made it meanwhile: checked below.
        let _ = builder.create(dir);
    }
    trust::directory(dir)
}

/// Says on stderr, once per process, why the cache is not used (stdout
/// is the CLI's output or the MCP connection: never there).
fn say_why(why: &Untrusted) {
    static SAID: Once = Once::new();
    SAID.call_once(|| {
        eprintln!("tasklists: not using the compile cache: {why}; compiling in memory")
    });
}

/// `<dir>/<component sha256 prefix>-<engine hash>.cwasm`.
pub(crate) fn cache_file(engine: &Engine, wasm_sha256: &str, dir: &Path) -> PathBuf {
    let mut hasher = Sha256Hasher(Sha256::new());
    engine.precompile_compatibility_hash().hash(&mut hasher);
    let engine_hash = hex(&hasher.0.finalize()[..8]);
    let prefix = &wasm_sha256[..wasm_sha256.len().min(16)];
    dir.join(format!("{prefix}-{engine_hash}.cwasm"))
}

fn compile(engine: &Engine, wasm: &[u8]) -> Result<Component, HostError> {
    Component::new(engine, wasm).map_err(|e| HostError::Component(format!("{e:#}")))
}

/// Writes the compiled component to a temporary file (0600, `tempfile`)
/// and renames it into place, so concurrent processes see either no file
/// or a whole one.
fn store(component: &Component, dir: &Path, path: &Path) -> CacheOutcome {
    let Ok(bytes) = component.serialize() else {
        return CacheOutcome::NotStored;
    };
    let written = tempfile::NamedTempFile::new_in(dir).and_then(|mut tmp| {
        tmp.write_all(&bytes)?;
        tmp.persist(path).map_err(|e| e.error)
    });
    match written {
        Ok(_) => CacheOutcome::Stored,
        // The temporary file is removed when it is dropped.
        Err(_) => CacheOutcome::NotStored,
    }
}

/// Feeds `Hash` into SHA-256: std's `DefaultHasher` may change between
/// Rust releases, and the file name must be stable across builds.
struct Sha256Hasher(Sha256);

impl Hasher for Sha256Hasher {
    fn finish(&self) -> u64 {
        let digest = self.0.clone().finalize();
        u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
