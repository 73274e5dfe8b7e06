//! The on-disk cache of the compiled component. Compiling it with
//! Cranelift takes most of a second; loading the cached native code is an
//! `mmap`. The key is the component's SHA-256 (computed at build time) and
//! a hash of everything in the engine that affects compiled code
//! (wasmtime version, target, compiler settings), so a stale file is never
//! picked up, only ignored and replaced.

use crate::error::HostError;
use sha2::{Digest, Sha256};
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
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
}

/// Loads the component from `cache_dir` if a compatible compiled copy is
/// there, else compiles it and tries to store it.
pub(crate) fn load(
    engine: &Engine,
    wasm: &[u8],
    wasm_sha256: &str,
    cache_dir: Option<&Path>,
) -> Result<(Component, CacheOutcome), HostError> {
    let Some(dir) = cache_dir else {
        return Ok((compile(engine, wasm)?, CacheOutcome::Disabled));
    };
    let path = cache_file(engine, wasm_sha256, dir);
    if path.is_file() {
        // SAFETY: `deserialize_file` maps the file as native code. The file
        // is only ever written by this host (serialized, then renamed into
        // place atomically, so it is never seen half-written) in the user's
        // own cache directory; anyone able to write there can already run
        // code as this user. wasmtime checks the header (engine version and
        // settings) and refuses an incompatible file, which is recompiled.
        #[allow(unsafe_code, reason = "the one unsafe call, justified above")]
        if let Ok(component) = unsafe { Component::deserialize_file(engine, &path) } {
            return Ok((component, CacheOutcome::Hit));
        }
    }
    let component = compile(engine, wasm)?;
    let outcome = store(&component, dir, &path);
    Ok((component, outcome))
}

/// Makes sure `dir` holds the compiled component (used when the process
/// already loaded it from elsewhere). Best effort, like the cache itself.
pub(crate) fn ensure_stored(engine: &Engine, component: &Component, wasm_sha256: &str, dir: &Path) {
    let path = cache_file(engine, wasm_sha256, dir);
    if !path.is_file() {
        store(component, dir, &path);
    }
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

/// Writes the compiled component to a temporary file and renames it into
/// place, so concurrent processes see either no file or a whole one.
fn store(component: &Component, dir: &Path, path: &Path) -> CacheOutcome {
    let Ok(bytes) = component.serialize() else {
        return CacheOutcome::NotStored;
    };
    if fs::create_dir_all(dir).is_err() {
        return CacheOutcome::NotStored;
    }
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("component");
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    if fs::write(&tmp, &bytes)
        .and_then(|()| fs::rename(&tmp, path))
        .is_ok()
    {
        CacheOutcome::Stored
    } else {
        let _ = fs::remove_file(&tmp);
        CacheOutcome::NotStored
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
