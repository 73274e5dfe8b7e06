//! Who may read the database: its user alone. Every list is in the file,
//! private ones included, so the directories the store creates are 0700
//! and the database 0600 whatever the umask (SQLite gives `-wal`, `-shm`
//! and `-journal` the database's own mode). A database that already
//! exists keeps its mode (its user may share it on purpose), but one that
//! others can read gets a warning on stderr, once per process, naming the
//! `chmod` that makes it private: never on stdout, never in a tool result.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Creates `dir` and any missing parent, each new one 0700.
pub(super) fn create_private_dirs(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates the database file empty and 0600 if there is none, before
/// SQLite creates it with the umask's mode (0644 under the usual 022).
/// Anything but "created" or "already there" is left for SQLite to
/// report as it opens the file.
pub(super) fn create_private_file(path: &Path) {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let _ = options.open(path);
}

/// Whether group or others can read the file at `path`.
#[cfg(unix)]
fn readable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o044 != 0)
}

#[cfg(not(unix))]
fn readable_by_others(_path: &Path) -> bool {
    false
}

/// The warning for a database others can read, if it is one. It names
/// the database alone: SQLite makes `-wal` and `-shm` anew with the
/// database's mode, and they are gone when no process has it open, so a
/// `chmod` naming them could fail by the time it is run.
fn exposure_warning(path: &Path) -> Option<String> {
    readable_by_others(path).then(|| {
        format!(
            "tasklists: warning: other users of this machine can read the task database {} \
             (every list, private ones included); make it private with: chmod 600 {}",
            path.display(),
            shell_word(&path.display().to_string())
        )
    })
}

/// `text` as one word a POSIX shell reads back as it is: bare when it
/// holds nothing the shell treats specially, else in single quotes.
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Prints [`exposure_warning`] to stderr, the first time a database
/// others can read is opened in this process.
pub(super) fn warn_once_if_exposed(path: &Path) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    if WARNED.load(Ordering::Relaxed) {
        return;
    }
    if let Some(warning) = exposure_warning(path)
        && !WARNED.swap(true, Ordering::Relaxed)
    {
        eprintln!("{warning}");
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn new_directories_and_files_are_the_users_alone() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b");
        create_private_dirs(&deep).unwrap();
        assert_eq!(mode(&dir.path().join("a")), 0o700);
        assert_eq!(mode(&deep), 0o700);
        let db = deep.join("tasks.db");
        create_private_file(&db);
        assert_eq!(mode(&db), 0o600);
        assert_eq!(exposure_warning(&db), None);
        // An existing file is left as it is.
        fs::set_permissions(&db, fs::Permissions::from_mode(0o640)).unwrap();
        create_private_file(&db);
        assert_eq!(mode(&db), 0o640);
    }

    #[test]
    fn a_path_is_quoted_for_the_shell_when_it_needs_to_be() {
        assert_eq!(shell_word("/home/u/tasks.db"), "/home/u/tasks.db");
        assert_eq!(shell_word("/home/a b/t.db"), "'/home/a b/t.db'");
        assert_eq!(shell_word("/x/it's $HOME"), r"'/x/it'\''s $HOME'");
    }

    #[test]
    fn the_warning_names_the_chmod_that_makes_the_database_private() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("tasks.db");
        fs::write(&db, "").unwrap();
        for (bits, warned) in [(0o644, true), (0o640, true), (0o604, true), (0o600, false)] {
            fs::set_permissions(&db, fs::Permissions::from_mode(bits)).unwrap();
            let warning = exposure_warning(&db);
            assert_eq!(warning.is_some(), warned, "{bits:o}");
            if let Some(warning) = warning {
                assert!(
                    warning.ends_with(&format!("chmod 600 {}", db.display())),
                    "{warning}"
                );
            }
        }
    }
}
