//! Whether a cached module may be loaded. A module is native code mapped
//! into the process as it is, so it must come from this user: a directory
//! the user owns and nobody else can write (nobody else can put or swap a
//! file in it), and a regular file the user owns that nobody else can write
//! (not a link to somewhere else).

use std::path::{Path, PathBuf};

/// Why a cache directory or module is not used.
#[derive(Debug, thiserror::Error)]
#[cfg_attr(
    not(unix),
    allow(dead_code, reason = "owners and modes are checked on Unix only")
)]
pub(crate) enum Untrusted {
    /// Owned by another user.
    #[error("{} is owned by user {owner}, not by this user ({me})", path.display())]
    Owner {
        /// The directory or file.
        path: PathBuf,
        /// Its owner's uid.
        owner: u32,
        /// This process's effective uid.
        me: u32,
    },
    /// Its group or everyone may write it.
    #[error("{} is writable by others than its owner (mode {mode:o})", path.display())]
    Writable {
        /// The directory or file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The cache directory is something else.
    #[error("{} is not a directory", path.display())]
    NotDirectory {
        /// The path.
        path: PathBuf,
    },
    /// The module's name holds a link, a pipe, a directory, ….
    #[error("{} is not a regular file", path.display())]
    NotFile {
        /// The path.
        path: PathBuf,
    },
    /// It could not be inspected.
    #[error("cannot inspect {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Checks the cache directory (links followed: `~/.cache` may be a link
/// to a directory of the user's). `Ok(false)`: it does not exist.
pub(crate) fn directory(dir: &Path) -> Result<bool, Untrusted> {
    let meta = match std::fs::metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(source) => return Err(io(dir, source)),
    };
    if !meta.is_dir() {
        return Err(Untrusted::NotDirectory {
            path: dir.to_path_buf(),
        });
    }
    private(dir, &meta).map(|()| true)
}

/// Checks a module (links not followed). `Ok(false)`: there is none.
pub(crate) fn module(path: &Path) -> Result<bool, Untrusted> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(source) => return Err(io(path, source)),
    };
    if !meta.file_type().is_file() {
        return Err(Untrusted::NotFile {
            path: path.to_path_buf(),
        });
    }
    private(path, &meta).map(|()| true)
}

fn io(path: &Path, source: std::io::Error) -> Untrusted {
    Untrusted::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Owned by this user and writable by nobody else.
#[cfg(unix)]
fn private(path: &Path, meta: &std::fs::Metadata) -> Result<(), Untrusted> {
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me {
        return Err(Untrusted::Owner {
            path: path.to_path_buf(),
            owner: meta.uid(),
            me,
        });
    }
    if meta.mode() & 0o022 != 0 {
        return Err(Untrusted::Writable {
            path: path.to_path_buf(),
            mode: meta.mode() & 0o7777,
        });
    }
    Ok(())
}

/// Elsewhere there are no such owners and modes to check.
#[cfg(not(unix))]
fn private(_path: &Path, _meta: &std::fs::Metadata) -> Result<(), Untrusted> {
    Ok(())
}
