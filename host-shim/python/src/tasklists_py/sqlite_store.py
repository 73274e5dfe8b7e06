"""The SQLite backend, with the native backend's behaviour
(`host-shim/store/src/backends/sqlite`): the connection opened by the
first call that needs it, `BEGIN IMMEDIATE` for writes, a fair jittered
busy handler bounded by the busy timeout and the call's deadline,
statements interrupted past the deadline, no writes in a read transaction,
no transaction control through SQL, WAL switched on after the first
committed write, a file replaced under the path noticed at the next
transaction. The schema is the component's: it migrates through SQL, so
one file serves every host at once."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

import apsw

from .deadline import Deadline
from .errors import StoreError, finished
from .session import Tx
from .sqlite_open import open_connection

#: How a read-only database's error starts (as `errors.rs`).
READ_ONLY = "the database is read-only"

_TX_CONTROL = "transactions are controlled with begin / commit / rollback, not SQL"
_READ_TX = "this statement writes, but the transaction was opened with begin(write: false)"
_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.S)


def _ends_transaction(sql: str) -> bool:
    """BEGIN / COMMIT / END / ROLLBACK (not `ROLLBACK TO` a savepoint)."""
    words = re.findall(r"[A-Za-z0-9_]+", _COMMENTS.sub(" ", sql))
    if not words:
        return False
    first = words[0].upper()
    if first in ("BEGIN", "COMMIT", "END"):
        return True
    return first == "ROLLBACK" and "TO" not in (w.upper() for w in words[1:3])


def _file_identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def map_error(e: apsw.Error) -> StoreError:
    """Maps an SQLite error onto the WIT's store-error cases (`errors.rs`)."""
    message = str(e)
    if isinstance(e, (apsw.BusyError, apsw.LockedError)):
        return StoreError("busy", message)
    if isinstance(e, apsw.ConstraintError):
        return StoreError("constraint", message)
    if isinstance(e, apsw.ReadOnlyError):
        return StoreError("io", f"{READ_ONLY} ({message})")
    if isinstance(e, (apsw.IOError, apsw.FullError, apsw.CantOpenError, apsw.PermissionsError,
                      apsw.ProtocolError, apsw.NoLFSError)):
        return StoreError("io", message)
    if isinstance(e, (apsw.CorruptError, apsw.NotADBError)):
        return StoreError("corrupt", message)
    if isinstance(e, apsw.InterruptError):
        # Only the progress handler interrupts: the call ran out of time.
        return StoreError("other", f"interrupted: the statement ran past the call's time limit ({message})")
    if isinstance(e, (apsw.SQLError, apsw.AuthError, apsw.RangeError, apsw.BindingsError)):
        return StoreError("sql", message)
    return StoreError("other", message)


class SqliteBackend:
    """A store on one SQLite file, its connection opened on demand."""

    def __init__(self, path: str | os.PathLike[str], busy_timeout_ms: int, max_result_bytes: int):
        self.path = Path(os.path.abspath(path))
        self.busy_timeout_ms = busy_timeout_ms
        self.max_result_bytes = max_result_bytes
        self.conn: apsw.Connection | None = None
        self.reconnect = False
        self.wal = False
        self.opened: tuple[int, int] | None = None
        self.deadline = Deadline()
        self._rng = random.Random(os.getpid() ^ time.time_ns())
        self._wait_started = 0.0
        # What the exec tracer learnt of the statement about to run.
        self._tx: Tx | None = None
        self._refused: str | None = None
        self._columns: list[str] = []

    # --- the connection -------------------------------------------------

    def _busy(self, attempt: int) -> bool:
        """The busy handler (`busy.rs`): short sleeps with random jitter
        (0.5 to 2 ms) give every waiter a fair chance at each release,
        where SQLite's own schedule lets some starve; the total wait stops
        at the busy timeout, or sooner at the call's deadline (then the
        store reports `busy`, a typed error, not a timeout)."""
        if attempt == 0:
            self._wait_started = time.monotonic()
        if (time.monotonic() - self._wait_started) * 1000 >= self.busy_timeout_ms or self.deadline.passed():
            return False
        time.sleep((500 + self._rng.randrange(1500)) / 1_000_000)
        return True

    def _interrupt(self) -> bool:
        # A statement past the call's deadline stops instead of running on
        # while holding the write lock.
        return self.deadline.passed()

    def _trace(self, cursor: apsw.Cursor, sql: str, _bindings: Any) -> bool:
        """Runs before each statement, once it is prepared: the rules of a
        transaction, and whether it writes (`statements.rs`)."""
        tx = self._tx
        readonly = cursor.is_readonly
        if readonly and _ends_transaction(sql):
            self._refused = _TX_CONTROL
            return False
        if tx is not None:
            if not tx.write and not readonly:
                self._refused = _READ_TX
                return False
            tx.wrote |= not readonly
        self._columns = [d[0] for d in cursor.get_description()]
        return True

    def _connection(self) -> apsw.Connection:
        if self.conn is None:
            conn = open_connection(self.path)
            conn.set_busy_handler(self._busy)
            conn.set_progress_handler(self._interrupt, 4096)
            self.opened = _file_identity(self.path)
            mode = conn.execute("PRAGMA journal_mode").fetchall()[0][0]
            self.wal = str(mode).lower() == "wal"
            self.conn = conn
        return self.conn

    def _note(self, e: StoreError) -> StoreError:
        # An I/O error may be the connection's own state: close it when the
        # call ends, so the next call sees the file as it is then.
        if e.kind == "io":
            self.reconnect = True
            if e.message.startswith(READ_ONLY):
                p = self.path
                return StoreError("io", f"{e.message}: {p}, {p}-wal, {p}-shm and their directory must all be writable")
        return e

    def _control(self, sql: str) -> None:
        conn = self.conn
        if conn is None:
            raise finished()
        try:
            conn.execute(sql)
        except apsw.Error as e:
            raise self._note(map_error(e)) from None

    def _quiet_rollback(self) -> None:
        if self.conn is not None and self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except apsw.Error:
                pass  # SQLite rolls back when the connection closes

    # --- the Backend protocol --------------------------------------------

    def dialect(self) -> str:
        return "sqlite"

    def now_ms(self) -> int | None:
        return None

    def keeps_clock(self) -> bool:
        return False

    def connect(self) -> None:
        try:
            self._connection()
        except StoreError:
            self.reconnect = True
            raise

    def begin_call(self, deadline: Deadline) -> None:
        self.deadline = deadline

    def end_call(self) -> bool:
        left_open = self.conn is not None and self.conn.in_transaction
        self._quiet_rollback()
        if self.reconnect:
            self.reconnect = False
            self.close()
        return left_open

    def begin(self, write: bool) -> None:
        # Between transactions: the file the path names now is the one to
        # serve (a restored backup renamed over it). Its WAL is emptied
        # first: its frames belong to the old file only.
        if self.conn is not None and self.opened is not None and _file_identity(self.path) != self.opened:
            try:
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            except apsw.Error:
                pass
            self.close()
        try:
            conn = self._connection()
        except StoreError:
            self.reconnect = True
            raise
        if conn.in_transaction:
            raise StoreError("invalid-state", "a transaction is already open; commit or roll it back first")
        self._control("BEGIN IMMEDIATE" if write else "BEGIN DEFERRED")

    def _run(self, tx: Tx, sql: str, params: list[Any]) -> tuple[apsw.Cursor, Any]:
        conn = self.conn
        if conn is None:
            raise finished()
        cursor = conn.cursor()
        cursor.exec_trace = self._trace
        self._tx, self._refused, self._columns = tx, None, []
        try:
            rows = cursor.execute(sql, params)
        except apsw.ExecTraceAbort:
            raise StoreError("invalid-state", self._refused or _TX_CONTROL) from None
        except apsw.Error as e:
            raise self._note(map_error(e)) from None
        return cursor, rows

    def execute(self, tx: Tx, sql: str, params: list[Any]) -> int:
        conn = self.conn
        before = conn.total_changes() if conn is not None else 0
        _cursor, rows = self._run(tx, sql, params)
        try:
            # Stepped to the end, so a statement that returns rows still runs.
            for _ in rows:
                pass
        except apsw.Error as e:
            raise self._note(map_error(e)) from None
        assert conn is not None
        # `changes()` keeps the count of the last INSERT/UPDATE/DELETE, even
        # after DDL; only trust it when this statement changed something.
        return 0 if conn.total_changes() == before else conn.changes()

    def query(self, tx: Tx, sql: str, params: list[Any]) -> tuple[list[str], list[list[Any]]]:
        _cursor, rows = self._run(tx, sql, params)
        columns = self._columns
        out: list[list[Any]] = []
        size = 0
        limit = self.max_result_bytes
        try:
            for row in rows:
                for v in row:
                    size += 16 + (len(v) if isinstance(v, (str, bytes)) else 8)
                if size > limit:
                    raise StoreError("other", f"the query result exceeds {limit >> 10} KiB, more than the component may hold")
                out.append(list(row))
        except apsw.Error as e:
            raise self._note(map_error(e)) from None
        except UnicodeDecodeError as e:
            # SQLite does not check that TEXT is UTF-8, and APSW decodes it
            # strictly, with no lossy mode (the native backend reads such
            # bytes as U+FFFD): a typed failure rather than a trap.
            raise StoreError(
                "corrupt",
                f"a text value in the database is not valid UTF-8 ({e.reason} at byte {e.start}); "
                "this host cannot read it (the native and Node hosts read it with U+FFFD in its place)",
            ) from None
        return columns, out

    def pipeline(self, tx: Tx, sql: str, params: list[Any]) -> None:
        # SQLite, local: runs at once.
        self.execute(tx, sql, params)

    def in_transaction(self) -> bool:
        return self.conn is not None and self.conn.in_transaction

    def commit(self, tx: Tx) -> None:
        conn = self.conn
        if conn is None:
            raise finished()
        try:
            self._control("COMMIT")
        except StoreError:
            # A failed commit rolls back: SQLite's COMMIT outcome is known.
            self._quiet_rollback()
            raise
        # The first committed write switches the file to WAL; not sooner: a
        # database the component refuses must stay byte-identical.
        if tx.write and tx.wrote and not self.wal:
            try:
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchall()[0][0]
                self.wal = str(mode).lower() == "wal"
            except apsw.Error:
                pass  # busy: retried after the next write

    def query_then_commit(self, tx: Tx, sql: str, params: list[Any]) -> tuple[list[str], list[list[Any]]]:
        try:
            answer = self.query(tx, sql, params)
        except StoreError:
            # The handle is finished either way: nothing of it is applied.
            self._quiet_rollback()
            raise
        self.commit(tx)
        return answer

    def rollback(self) -> None:
        if self.conn is None:
            raise finished()
        if self.conn.in_transaction:
            self._control("ROLLBACK")

    def abandon(self) -> None:
        self._quiet_rollback()

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except apsw.Error:
                pass
            self.conn = None
