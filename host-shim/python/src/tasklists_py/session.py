"""The session the `store` import is served through, as the store crate's
`session.rs`: transaction handles, one transaction at a time, the call
lifecycle, and what the writes of a call came to. The backend under it
only runs SQL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .errors import CommitUnknown, StoreError, finished

#: A value of the WIT `value` variant: None, int, float, str or bytes.
Value = Any


@dataclass
class Tx:
    """The open transaction: whether it may write, and whether it did."""

    write: bool
    wrote: bool = False


class Backend(Protocol):
    """What a store engine does for a session (SQLite, PostgreSQL)."""

    def dialect(self) -> str: ...
    def connect(self) -> None: ...
    def now_ms(self) -> int | None: ...
    def keeps_clock(self) -> bool: ...
    def begin_call(self, deadline: Any) -> None: ...
    def end_call(self) -> bool: ...
    def begin(self, write: bool) -> None: ...
    def execute(self, tx: Tx, sql: str, params: list[Value]) -> int: ...
    def query(self, tx: Tx, sql: str, params: list[Value]) -> tuple[list[str], list[list[Value]]]: ...
    def pipeline(self, tx: Tx, sql: str, params: list[Value]) -> None: ...
    def in_transaction(self) -> bool: ...
    def commit(self, tx: Tx) -> None: ...
    def query_then_commit(self, tx: Tx, sql: str, params: list[Value]) -> tuple[list[str], list[list[Value]]]: ...
    def rollback(self) -> None: ...
    def abandon(self) -> None: ...
    def close(self) -> None: ...


#: What the writes of a call came to (the WIT's `write-state`), in order of
#: precedence: once applied, a later unknown commit makes it "may be".
NOT_APPLIED, APPLIED, MAY_BE_APPLIED = "not-applied", "applied", "may-be-applied"


def _then(state: str, next_state: str) -> str:
    """Combines two write states of one call (the store crate's `then`)."""
    order = [NOT_APPLIED, APPLIED, MAY_BE_APPLIED]
    return max(state, next_state, key=order.index)


class Session:
    """One connection's transactions, used by one call at a time."""

    def __init__(self, backend: Backend):
        self.backend = backend
        self._next_id = 0
        self._open: tuple[int, Tx] | None = None
        self.write_state = NOT_APPLIED

    def begin_call(self, deadline: Any) -> None:
        """Starts a call: per-call bookkeeping starts again."""
        self.write_state = NOT_APPLIED
        self.backend.begin_call(deadline)

    def end_call(self) -> bool | None:
        """Ends a call whatever happened in it: a transaction left open is
        rolled back. True: a write was left open; False: a read; None:
        nothing."""
        left_open = None
        if self._open is not None:
            left_open = self._open[1].write
            self._open = None
            self.backend.abandon()
        stray = self.backend.end_call()
        if left_open is None and stray:
            return True
        return left_open

    def begin(self, write: bool) -> int:
        """Opens a transaction; its handle's id."""
        if self._open is not None:
            raise StoreError("invalid-state", "a transaction is already open; commit or roll it back first")
        self.backend.begin(write)
        self._next_id += 1
        self._open = (self._next_id, Tx(write))
        return self._next_id

    def _live(self, tx_id: int) -> Tx:
        if self._open is not None and self._open[0] == tx_id:
            return self._open[1]
        raise finished()

    def _after_statement(self) -> None:
        # The engine may have ended the transaction by itself (an I/O error).
        if self._open is not None and not self.backend.in_transaction():
            self._open = None

    def execute(self, tx_id: int, sql: str, params: list[Value]) -> int:
        """Runs a statement; the rows it changed."""
        tx = self._live(tx_id)
        try:
            return self.backend.execute(tx, sql, params)
        finally:
            self._after_statement()

    def query(self, tx_id: int, sql: str, params: list[Value]) -> tuple[list[str], list[list[Value]]]:
        """Runs a statement that returns rows."""
        tx = self._live(tx_id)
        try:
            return self.backend.query(tx, sql, params)
        finally:
            self._after_statement()

    def pipeline(self, tx_id: int, sql: str, params: list[Value]) -> None:
        """Sends a statement nobody waits for (with the next one)."""
        tx = self._live(tx_id)
        try:
            self.backend.pipeline(tx, sql, params)
        finally:
            self._after_statement()

    def commit(self, tx_id: int) -> None:
        """Commits and ends the transaction."""
        tx = self._live(tx_id)
        self._open = None
        self._ended(lambda: self.backend.commit(tx), tx)

    def query_then_commit(self, tx_id: int, sql: str, params: list[Value]) -> tuple[list[str], list[list[Value]]]:
        """Runs a statement, then commits, in one round trip where it can."""
        tx = self._live(tx_id)
        self._open = None
        return self._ended(lambda: self.backend.query_then_commit(tx, sql, params), tx)

    def _ended(self, commit: Any, tx: Tx) -> Any:
        try:
            answer = commit()
        except CommitUnknown:
            self.write_state = _then(self.write_state, MAY_BE_APPLIED)
            raise
        if tx.write and tx.wrote:
            self.write_state = _then(self.write_state, APPLIED)
        return answer

    def abandon(self, tx_id: int) -> None:
        """The handle was dropped: an unfinished transaction rolls back."""
        if self._open is not None and self._open[0] == tx_id:
            self._open = None
            self.backend.abandon()
