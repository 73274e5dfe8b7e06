"""The PostgreSQL backend over psycopg's libpq, with the native backend's
behaviour (`host-shim/store/src/backends/postgres`): one connection (its
`search_path` pinned to its schema, `application_name` tasklists), a
transaction begun with its first statement (a write takes the whole
database's advisory lock, or only a list's when its first statement takes
that lock shared: `scoped_lock`), the timeouts of the call set on it, the
server's clock read as it begins, statements prepared once with the types
the server infers and values bound to them, the same errors from the same
SQLSTATEs, and a commit whose connection was lost reported as "may be
applied". The schema is the component's: it migrates through SQL.

Unlike the native backend, `pipeline` runs its statement at once (one
round trip more per write call; the outcome is the same)."""

from __future__ import annotations

import math
import re
import select
import time
from typing import Any

from psycopg import pq
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from .deadline import Deadline
from .errors import CommitUnknown, StoreError, finished
from .location import redact
from .session import Tx

#: The key of the whole database's write lock (the native backend's).
WRITE_LOCK_KEY = 0x7461_736B_6C69_7374
#: A write's first statement that takes one list's lock instead.
SCOPED_LOCK = f"SELECT pg_advisory_xact_lock_shared({WRITE_LOCK_KEY})"
SERVER_TIME = "SELECT (extract(epoch from clock_timestamp()) * 1000)::int8"
PIN_SEARCH_PATH = (
    "SELECT pg_catalog.set_config('search_path', pg_catalog.quote_ident(own) || ', pg_temp', false) "
    "FROM (SELECT pg_catalog.current_schema() AS own) AS s WHERE own IS NOT NULL"
)
INTERRUPTED = "interrupted: the statement ran past the call's time limit"
NO_CALL_LIMIT_MS = 30_000
#: How long connecting may take when the string says nothing
#: (`connect_timeout`) and no call's deadline is nearer (the native
#: backend's `DEFAULT_CONNECT_TIMEOUT`).
DEFAULT_CONNECT_TIMEOUT_MS = 10_000
IDLE_MARGIN_MS = 5_000
STATEMENT_CACHE = 128


def _connect_timeout_ms(params: dict[str, Any]) -> int:
    """The string's `connect_timeout` (seconds, libpq's floor of 2; 0 or
    unusable: the default), in ms."""
    try:
        seconds = int(str(params.get("connect_timeout", "")).strip())
    except ValueError:
        return DEFAULT_CONNECT_TIMEOUT_MS
    return max(seconds, 2) * 1000 if seconds > 0 else DEFAULT_CONNECT_TIMEOUT_MS


# Type OIDs the store reads and binds.
INT2, INT4, INT8, OID, FLOAT4, FLOAT8, NUMERIC, BOOL, BYTEA, JSON, JSONB, VOID = (
    21, 23, 20, 26, 700, 701, 1700, 16, 17, 114, 3802, 2278)
TEXT_TYPES = {25, 1043, 1042, 19, 705, 18}
_SUPPORTED = {INT2, INT4, INT8, OID, FLOAT4, FLOAT8, NUMERIC, BOOL, BYTEA, JSON, JSONB, VOID} | TEXT_TYPES
_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.S)


def _words(sql: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9_]+", _COMMENTS.sub(" ", sql))


def controls_transaction(sql: str) -> bool:
    """BEGIN, START, COMMIT, END, ABORT, ROLLBACK (not TO), PREPARE TRANSACTION."""
    w = [x.upper() for x in _words(sql)[:3]]
    if not w:
        return False
    if w[0] in ("BEGIN", "START", "COMMIT", "END", "ABORT"):
        return True
    if w[0] == "ROLLBACK":
        return "TO" not in w[1:3]
    return w[0] == "PREPARE" and len(w) > 1 and w[1] == "TRANSACTION"


def may_write(sql: str) -> bool:
    """Whether a statement may write (by its first word, as the native)."""
    w = _words(sql)
    return not w or w[0].upper() not in ("SELECT", "VALUES", "TABLE", "SHOW", "EXPLAIN")


def begin_sql(write: bool, scoped: bool, statement_ms: int, lock_ms: int, idle_ms: int) -> str:
    """The BEGIN of a transaction with the call's timeouts, its lock, and the clock."""
    if write:
        lock = "" if scoped else f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY}); "
        return (f"BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL statement_timeout = {statement_ms}; "
                f"SET LOCAL lock_timeout = {lock_ms}; SET LOCAL idle_in_transaction_session_timeout = {idle_ms}; "
                f"{lock}{SERVER_TIME}")
    return (f"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = {statement_ms}; "
            f"SET LOCAL idle_in_transaction_session_timeout = {idle_ms}; {SERVER_TIME}")


def _field(result: pq.PGresult, field: pq.DiagnosticField) -> str:
    value = result.error_field(field)
    return value.decode("utf-8", "replace") if value else ""


def map_result_error(result: pq.PGresult) -> tuple[StoreError, bool]:
    """A server error as the store error the native backend makes of its
    SQLSTATE (`errors.rs`), and whether the connection is lost."""
    code = _field(result, pq.DiagnosticField.SQLSTATE)
    text = _field(result, pq.DiagnosticField.MESSAGE_PRIMARY)
    detail = _field(result, pq.DiagnosticField.MESSAGE_DETAIL)
    if detail:
        text += f": {detail}"
    text += f" (SQLSTATE {code})"
    fatal = _field(result, pq.DiagnosticField.SEVERITY_NONLOCALIZED) in ("FATAL", "PANIC")
    klass = code[:2]
    if code == "55P03":
        return StoreError("busy", f"another writer held the database past the busy timeout ({text})"), fatal
    if code == "57014" and "statement timeout" in text:
        return StoreError("other", f"{INTERRUPTED} ({text})"), fatal
    if code in ("40001", "40P01"):
        return StoreError("busy", f"the transaction conflicted with another one; try again ({text})"), fatal
    if code in ("57P01", "57P02", "57P03", "25P03"):
        return StoreError("io", f"the server ended the connection ({text})"), True
    if code in ("XX001", "XX002"):
        return StoreError("corrupt", text), fatal
    if code == "3D000":
        return StoreError("io", f"{text}; create the database first (CREATE DATABASE), or fix its name in the connection string"), fatal
    if klass == "28":
        return StoreError("io", f"{text}; check the user name and password of the connection string"), fatal
    if klass == "08":
        return StoreError("io", text), True
    if klass == "53":
        return StoreError("io", text), fatal
    if klass == "23":
        return StoreError("constraint", text), fatal
    if klass == "42":
        return StoreError("sql", text), fatal
    if klass == "25":
        return StoreError("invalid-state", text), fatal
    return StoreError("other", text), fatal


def _numeric_text(f: float) -> str:
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    return repr(f)


def encode(value: Any, oid: int) -> tuple[bytes | None, int]:
    """A store value bound where the server expects `oid`: (bytes, format)."""
    kind = {type(None): "null", int: "an integer", float: "a real", str: "text", bytes: "a blob"}.get(type(value), "a value")

    def mismatch() -> StoreError:
        return StoreError("sql", f"{kind} cannot be bound where PostgreSQL expects the type with oid {oid}")

    if value is None:
        return None, 0
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        if oid in (INT8, INT4, INT2, OID, NUMERIC) or oid in TEXT_TYPES:
            return str(value).encode(), 0
        if oid in (FLOAT8, FLOAT4):
            return repr(float(value)).encode(), 0
        if oid == BOOL:
            if value not in (0, 1):
                raise StoreError("sql", f"the integer {value} is not a bool (0 or 1)")
            return (b"t" if value else b"f"), 0
        raise mismatch()
    if isinstance(value, float):
        if oid in (FLOAT8, FLOAT4):
            return _numeric_text(value).encode(), 0
        if oid == NUMERIC:
            return _numeric_text(value).encode(), 0
        raise mismatch()
    if isinstance(value, str):
        if oid in TEXT_TYPES or oid in (JSON, JSONB):
            return value.encode("utf-8"), 0
        raise mismatch()
    if isinstance(value, (bytes, bytearray)):
        if oid == BYTEA:
            return bytes(value), 1
        raise mismatch()
    raise mismatch()


def decode(raw: bytes | None, oid: int) -> Any:
    """A column's text-format value as a store value (`rows.rs`)."""
    if raw is None or oid == VOID:
        return None
    if oid in (INT8, INT4, INT2, OID):
        return int(raw)
    if oid in (FLOAT8, FLOAT4):
        return float(raw)
    if oid == BOOL:
        return 1 if raw == b"t" else 0
    if oid == NUMERIC:
        text = raw.decode()
        if text in ("NaN", "Infinity", "-Infinity"):
            return float(text.replace("Infinity", "inf"))
        if "." in text:
            whole, _, frac = text.partition(".")
            if frac.strip("0") == "":
                return int(whole)
            return float(text)
        return int(text)
    if oid == BYTEA:
        return bytes.fromhex(raw[2:].decode()) if raw.startswith(b"\\x") else raw
    return raw.decode("utf-8", "replace")


class PostgresBackend:
    """A store on one PostgreSQL database, its connection opened on demand."""

    def __init__(self, location: str, busy_timeout_ms: int, max_result_bytes: int):
        self.location = location
        self.busy_timeout_ms = busy_timeout_ms
        self.max_result_bytes = max_result_bytes
        self.conn: pq.PGconn | None = None
        self.deadline = Deadline()
        self.pending: bool | None = None  # a begun write (True) or read, not sent yet
        self.begun = False
        self.clock: tuple[int, float] | None = None
        self.clock_in_call = False
        self.prepared: dict[str, tuple[bytes, list[int], list[str], list[int]]] = {}
        self._next = 0

    # --- the connection ---------------------------------------------------

    def _scrub(self, text: str) -> str:
        try:
            password = conninfo_to_dict(self.location).get("password")
        except Exception:  # noqa: BLE001 - an unusable string has no password to hide
            password = None
        if password:
            text = text.replace(str(password), "***")
        return text

    def _connection(self) -> pq.PGconn:
        if self.conn is not None and self.conn.status == pq.ConnStatus.OK:
            return self.conn
        self.conn = None
        self.prepared.clear()
        try:
            params = conninfo_to_dict(self.location)
        except Exception as e:  # noqa: BLE001
            raise StoreError("io", self._scrub(f"the PostgreSQL connection string {redact(self.location)} cannot be used: {e}")) from None
        extra: dict[str, Any] = {}
        if "application_name" not in params:
            extra["application_name"] = "tasklists"
        conn = self._connect(make_conninfo(self.location, **extra), _connect_timeout_ms(params))
        result = conn.exec_(PIN_SEARCH_PATH.encode())
        if result.status != pq.ExecStatus.TUPLES_OK or result.ntuples == 0:
            conn.finish()
            raise StoreError("io", "the role's search_path names no schema that exists and it may use: create one, "
                                   "or name one with options=-c search_path=…")
        self.conn = conn
        return conn

    def _connect(self, conninfo: str, own_ms: int) -> pq.PGconn:
        """Connects within the string's `connect_timeout` and the call's
        time left, whichever ends first, as the native backend does
        (`session.rs`): libpq's own timeout is whole seconds and is not
        the call's, so the handshake is polled here against the limit."""
        left = self.deadline.remaining_ms()
        limit_ms = own_ms if left is None else max(1, min(own_ms, int(left)))
        which = "the call's time limit" if limit_ms < own_ms else "the connect timeout"
        ends = time.monotonic() + limit_ms / 1000
        conn = pq.PGconn.connect_start(conninfo.encode())
        # libpq: a connection that did not start is BAD; one that did is
        # polled as if it were waiting to write.
        status = pq.PollingStatus.FAILED if conn.status == pq.ConnStatus.BAD else pq.PollingStatus.WRITING
        while status not in (pq.PollingStatus.OK, pq.PollingStatus.FAILED):
            wait = ends - time.monotonic()
            ready = wait > 0 and (
                select.select([conn.socket], [], [], wait)[0]
                if status == pq.PollingStatus.READING
                else select.select([], [conn.socket], [], wait)[1]
            )
            if not ready:
                conn.finish()
                raise StoreError("io", f"cannot connect to {redact(self.location)}: "
                                       f"the server did not answer within {limit_ms} ms ({which})")
            status = conn.connect_poll()
        if conn.status != pq.ConnStatus.OK:
            why = conn.get_error_message() if hasattr(conn, "get_error_message") else conn.error_message.decode()
            conn.finish()
            raise StoreError("io", self._scrub(f"cannot connect to {redact(self.location)}: {why.strip()}"))
        return conn

    def _lost(self, why: str) -> StoreError:
        self.close()
        return StoreError("io", f"the connection to the server was lost: {why}")

    def _check(self, result: pq.PGresult, ok: tuple[pq.ExecStatus, ...]) -> pq.PGresult:
        if result.status in ok:
            return result
        if result.status == pq.ExecStatus.FATAL_ERROR and _field(result, pq.DiagnosticField.SQLSTATE):
            error, lost = map_result_error(result)
            if lost:
                self.close()
            return self._raise(error)
        conn = self.conn
        why = conn.get_error_message() if conn is not None and hasattr(conn, "get_error_message") else result.get_error_message()
        raise self._lost(self._scrub(str(why).strip()))

    def _raise(self, error: StoreError) -> Any:
        raise StoreError(error.kind, self._scrub(error.message))

    def _timeouts(self) -> tuple[int, int, int]:
        left = self.deadline.remaining_ms()
        left_ms = int(left) if left is not None else NO_CALL_LIMIT_MS
        left_ms = max(left_ms, 1)
        return left_ms, max(1, min(self.busy_timeout_ms, left_ms)), left_ms + IDLE_MARGIN_MS

    def _simple(self, sql: str) -> pq.PGresult:
        conn = self._connection()
        return self._check(conn.exec_(sql.encode()), (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK))

    def _send_begin(self, write: bool, scoped: bool) -> None:
        statement_ms, lock_ms, idle_ms = self._timeouts()
        try:
            result = self._simple(begin_sql(write, scoped, statement_ms, lock_ms, idle_ms))
        except StoreError as e:
            self.abandon()
            if e.kind == "other" and write and INTERRUPTED in e.message:
                raise StoreError("busy", f"another writer held the database until the call's time limit ({e.message})") from None
            raise
        self.begun = True
        self.clock = (int(result.get_value(0, 0) or b"0"), time.monotonic())
        self.clock_in_call = True

    def _ensure_begun(self, sql: str) -> None:
        if self.pending is not None:
            write = self.pending
            self.pending = None
            self._send_begin(write, write and sql.startswith(SCOPED_LOCK))
        if not self.begun:
            raise finished()

    def _prepare(self, sql: str) -> tuple[bytes, list[int], list[str], list[int]]:
        known = self.prepared.get(sql)
        if known is not None:
            return known
        conn = self._connection()
        if len(self.prepared) >= STATEMENT_CACHE:
            self._simple("DEALLOCATE ALL")
            self.prepared.clear()
        self._next += 1
        name = f"tl{self._next}".encode()
        self._check(conn.prepare(name, sql.encode()), (pq.ExecStatus.COMMAND_OK,))
        described = self._check(conn.describe_prepared(name), (pq.ExecStatus.COMMAND_OK,))
        types = [described.param_type(i) for i in range(described.nparams)]
        names = [(described.fname(i) or b"").decode() for i in range(described.nfields)]
        oids = [described.ftype(i) for i in range(described.nfields)]
        for column, oid in zip(names, oids):
            if oid not in _SUPPORTED:
                raise StoreError("sql", f"unsupported column type with oid {oid} (column `{column}`): cast it to one "
                                        "the store returns (::int8, ::float8, ::text, ::bytea)")
        entry = (name, types, names, oids)
        self.prepared[sql] = entry
        return entry

    def _run(self, tx: Tx, sql: str, params: list[Any]) -> pq.PGresult:
        if controls_transaction(sql):
            raise StoreError("invalid-state", "transactions are controlled with begin / commit / rollback, not SQL")
        self._ensure_begun(sql)
        name, types, _names, _oids = self._prepare(sql)
        if len(params) != len(types):
            n = len(types)
            raise StoreError("sql", f"the statement takes {n} parameter{'' if n == 1 else 's'}, "
                                    f"{len(params)} {'was' if len(params) == 1 else 'were'} given")
        values, formats = [], []
        for i, (value, oid) in enumerate(zip(params, types)):
            try:
                raw, fmt = encode(value, oid)
            except StoreError as e:
                raise StoreError(e.kind, f"parameter ${i + 1}: {e.message}") from None
            values.append(raw)
            formats.append(fmt)
        assert self.conn is not None
        result = self.conn.exec_prepared(name, values, formats, 0)
        self._check(result, (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK))
        if tx.write:
            tx.wrote |= may_write(sql)
        return result

    # --- the Backend protocol ------------------------------------------------

    def dialect(self) -> str:
        return "postgres"

    def keeps_clock(self) -> bool:
        return True

    def now_ms(self) -> int | None:
        if self.clock_in_call and self.clock is not None:
            ms, at = self.clock
            return ms + int((time.monotonic() - at) * 1000)
        try:
            if self.pending is not None:
                write = self.pending
                self.pending = None
                self._send_begin(write, False)
                return self.clock[0] if self.clock else None
            result = self._simple(SERVER_TIME)
        except StoreError:
            return None
        ms = int(result.get_value(0, 0) or b"0")
        self.clock = (ms, time.monotonic())
        self.clock_in_call = True
        return ms

    def connect(self) -> None:
        self._connection()

    def begin_call(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.clock_in_call = False

    def end_call(self) -> bool:
        left_open = self.begun
        self.abandon()
        return left_open

    def begin(self, write: bool) -> None:
        if self.begun or self.pending is not None:
            raise StoreError("invalid-state", "a transaction is already open; commit or roll it back first")
        self._connection()
        # Nothing is sent yet: the BEGIN (and the lock) go out with the
        # first statement.
        self.pending = write

    def execute(self, tx: Tx, sql: str, params: list[Any]) -> int:
        result = self._run(tx, sql, params)
        status = (result.command_status or b"").split()
        return int(status[-1]) if status and status[-1].isdigit() and status[0] != b"SELECT" else 0

    def query(self, tx: Tx, sql: str, params: list[Any]) -> tuple[list[str], list[list[Any]]]:
        result = self._run(tx, sql, params)
        _name, _types, names, oids = self.prepared[sql]
        rows: list[list[Any]] = []
        size = 0
        for r in range(result.ntuples):
            row = []
            for c, oid in enumerate(oids):
                value = decode(result.get_value(r, c), oid)
                size += 16 + (len(value) if isinstance(value, (str, bytes)) else 8)
                row.append(value)
            if size > self.max_result_bytes:
                raise StoreError("other", f"the query result exceeds {self.max_result_bytes >> 10} KiB, more than the component may hold")
            rows.append(row)
        return names, rows

    def pipeline(self, tx: Tx, sql: str, params: list[Any]) -> None:
        self._run(tx, sql, params)

    def in_transaction(self) -> bool:
        if self.pending is not None:
            return True
        if not self.begun or self.conn is None:
            return False
        if self.conn.transaction_status == pq.TransactionStatus.INERROR:
            return True  # a statement failed: the transaction is still open, aborted
        return self.conn.transaction_status != pq.TransactionStatus.IDLE

    def commit(self, tx: Tx) -> None:
        if self.pending is not None:
            # Nothing was sent: nothing to commit.
            self.pending = None
            return
        if not self.begun or self.conn is None:
            raise finished()
        self.begun = False
        result = self.conn.exec_(b"COMMIT")
        if result.status == pq.ExecStatus.COMMAND_OK:
            if result.command_status == b"ROLLBACK":
                raise StoreError("invalid-state", "the transaction was rolled back, not committed: a statement in it failed")
            return
        if result.status == pq.ExecStatus.FATAL_ERROR and _field(result, pq.DiagnosticField.SQLSTATE):
            error, lost = map_result_error(result)
            if lost:
                self.close()
            else:
                self._quiet_rollback()
            if lost and tx.wrote:
                raise CommitUnknown("io", "the connection was lost while committing: the write may or may not have been "
                                          f"applied; read it back before repeating it ({self._scrub(error.message)})")
            self._raise(error)
        why = self.conn.get_error_message() if hasattr(self.conn, "get_error_message") else ""
        self.close()
        if tx.wrote:
            raise CommitUnknown("io", "the connection was lost while committing: the write may or may not have been "
                                      f"applied; read it back before repeating it ({self._scrub(str(why).strip())})")
        raise StoreError("io", f"the connection to the server was lost: {self._scrub(str(why).strip())}")

    def query_then_commit(self, tx: Tx, sql: str, params: list[Any]) -> tuple[list[str], list[list[Any]]]:
        try:
            answer = self.query(tx, sql, params)
        except StoreError:
            self.abandon()
            raise
        self.commit(tx)
        return answer

    def _quiet_rollback(self) -> None:
        if self.conn is not None and self.conn.transaction_status != pq.TransactionStatus.IDLE:
            result = self.conn.exec_(b"ROLLBACK")
            if result.status != pq.ExecStatus.COMMAND_OK:
                self.close()

    def rollback(self) -> None:
        self.abandon()

    def abandon(self) -> None:
        self.pending = None
        if self.begun:
            self.begun = False
            self._quiet_rollback()

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.finish()
            except Exception:  # noqa: BLE001 - closing whatever state it is in
                pass
            self.conn = None
        self.prepared.clear()
        self.begun = False
        self.pending = None
