"""Opening the SQLite file as the native backend does (`open.rs`,
`permissions.rs`): refuse what is not a database without touching it,
create what is missing as the user's alone (directories 0700, the file
0600), and configure the one connection (pragmas, the statement cache,
SQL-level sandboxing). WAL is switched on after the first committed write.

The engine is APSW's SQLite, not the standard library's `sqlite3`: the
component's SQL needs SQLite 3.44 or later (aggregates with ORDER BY), and
Python 3.11's `sqlite3` links the system's SQLite (3.40 on Debian 12);
APSW ships the same SQLite release the native backend bundles (3.54.1)
and exposes what the native backend sets (a busy handler, DEFENSIVE,
QPSG, whether a statement is read-only)."""

from __future__ import annotations

import os
import apsw
import sys
from pathlib import Path

from .errors import StoreError

#: Every SQLite 3 file starts with these 16 bytes.
SQLITE_HEADER = b"SQLite format 3\x00"
#: Prepared statements kept per connection (the component uses a few dozen).
STATEMENT_CACHE = 128

_warned = False


def _create_private_dirs(directory: Path) -> None:
    missing = []
    d = directory
    while not d.exists():
        missing.append(d)
        if d.parent == d:
            break
        d = d.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass
        else:
            os.chmod(d, 0o700)


def _create_private_file(path: Path) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return  # already there, or SQLite reports why as it opens it
    os.fchmod(fd, 0o600)
    os.close(fd)


def _check_header(path: Path) -> None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return
    except OSError as e:
        raise StoreError("io", f"cannot read {path}: {e.strerror}") from None
    import stat

    if not stat.S_ISREG(st.st_mode):
        raise StoreError("corrupt", f"{path} is not a tasklists database (it is not a regular file); it was left untouched")
    try:
        with open(path, "rb") as f:
            header = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise StoreError("io", f"cannot read {path}: {e.strerror}") from None
    if header and header != SQLITE_HEADER:
        raise StoreError("corrupt", f"{path} is not a tasklists database (it does not start with the SQLite header); it was left untouched")


def _warn_once_if_exposed(path: Path) -> None:
    # Every list is in the file, private ones included: say so once, on stderr.
    global _warned
    if _warned:
        return
    try:
        exposed = path.stat().st_mode & 0o044
    except OSError:
        return
    if exposed:
        _warned = True
        print(
            f"tasklists: warning: other users of this machine can read the task database {path} "
            f"(every list, private ones included); make it private with: chmod 600 {path}",
            file=sys.stderr,
        )


def open_connection(path: Path) -> apsw.Connection:
    """Opens (creating if needed) the database at `path`, configured."""
    path = Path(os.path.abspath(path))
    if path.parent != path:
        try:
            _create_private_dirs(path.parent)
        except OSError as e:
            raise StoreError("io", f"cannot create the directory {path.parent}: {e.strerror}") from None
    _check_header(path)
    _create_private_file(path)
    flags = apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE | apsw.SQLITE_OPEN_NOMUTEX
    try:
        # No SQLITE_OPEN_URI: a path is a path, never `file:…?mode=…` options.
        conn = apsw.Connection(str(path), flags=flags, statementcachesize=STATEMENT_CACHE)
    except apsw.Error as e:
        raise StoreError("io", f"cannot open the database {path}: {e}") from None
    # SQL can open other files (ATTACH, VACUUM INTO): zero attached
    # databases shuts both; DEFENSIVE forbids the pragmas that can corrupt
    # a database; QPSG keeps each cached statement's plan.
    conn.limit(apsw.SQLITE_LIMIT_ATTACHED, 0)
    conn.config(apsw.SQLITE_DBCONFIG_DEFENSIVE, 1)
    conn.config(apsw.SQLITE_DBCONFIG_ENABLE_QPSG, 1)
    try:
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchall()
    except apsw.Error as e:
        conn.close()
        if isinstance(e, (apsw.NotADBError, apsw.CorruptError)):
            raise StoreError("corrupt", f"{path} is not a tasklists database ({e}); it was left untouched") from None
        raise StoreError("io", f"cannot open the database {path}: {e}") from None
    conn.execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
    _warn_once_if_exposed(path)
    return conn
