//! One `stat` a call instead of two. Before each transaction the backend
//! checks that the database file and its `-wal` at the path are still the
//! ones its connection has open (`begin` in `mod.rs`): two `stat`s, a
//! measurable share of a quick call (BENCHMARKS.md, "reads near the
//! store", fifth pass). Neither file can be replaced, removed or created
//! without changing an entry of the directory that holds them, which moves
//! the directory's modification time. So once both files were found
//! unchanged, the directory's identity and times, taken before that check,
//! stand for it: while a `stat` of the directory finds them the same, no
//! entry in it changed, and the two checks would find what they found.
//!
//! Only a stamp old enough is trusted. A file system keeps times to some
//! granularity (a few milliseconds, one second on ext4 with small inodes,
//! two on FAT), so a change made within the same tick as the stamp could
//! leave the time as it was. A stamp at least [`SETTLED_SECS`] old when it
//! is taken cannot be matched by any later change, whose time is at least
//! the moment it was taken, less one tick. A directory changed since (a
//! busy one, or one SQLite still creates files in before WAL mode) is
//! checked the full way on every call, as before.

use std::path::Path;

/// How old, in whole seconds, a directory's modification time must be
/// for its stamp to be trusted: more than FAT's two-second granularity.
const SETTLED_SECS: i64 = 3;

/// A directory as `stat` finds it: which one it is, and when an entry in
/// it last changed (and its status, which every such change moves too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DirStamp {
    id: (u64, u64),
    modified: (i64, i64),
    changed: (i64, i64),
}

impl DirStamp {
    /// The directory that holds the database at `path` (the path's last
    /// component resolved by the directory's `stat`, not followed: see
    /// [`ends_in_link`]); `None` off unix, or if it cannot be read.
    #[cfg(unix)]
    pub(super) fn of(path: &Path) -> Option<DirStamp> {
        use std::os::unix::fs::MetadataExt;
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let m = std::fs::metadata(dir).ok()?;
        Some(DirStamp {
            id: (m.dev(), m.ino()),
            modified: (m.mtime(), m.mtime_nsec()),
            changed: (m.ctime(), m.ctime_nsec()),
        })
    }

    /// Off unix the files are not checked either.
    #[cfg(not(unix))]
    pub(super) fn of(_path: &Path) -> Option<DirStamp> {
        None
    }

    /// Whether the directory's last change is old enough for this stamp
    /// to be trusted (above).
    pub(super) fn settled(self) -> bool {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        i64::try_from(now).is_ok_and(|now| self.modified.0.saturating_add(SETTLED_SECS) <= now)
    }
}

/// Whether `path` ends in a symbolic link: it names a file in another
/// directory, whose changes the link's directory does not show, so the
/// file is always checked the full way.
pub(super) fn ends_in_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}
