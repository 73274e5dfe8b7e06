"""The `store` and `clock` imports: the WIT interfaces mapped onto the
host's session. The `transaction` resource holds only the session's
transaction id; the session outlives instances (a trapped instance is
discarded, its connection kept). wasmtime-py passes values untagged where
the WIT's cases differ by Python type: a `value` is None, int, float,
str or bytes, and every `result<T, store-error>` is T or the error's
`Variant`."""

from __future__ import annotations

import time
from typing import Any, Callable

from wasmtime.component import LinkerInstance, Record, ResourceHost, ResourceType, Variant

from .errors import StoreError
from .session import Session

STORE = "tasklists:component/store@0.1.0"
CLOCK = "tasklists:component/clock@0.1.0"
#: The host resource type id of `transaction`.
TRANSACTION = 201


def _error(e: StoreError) -> Variant:
    return Variant(e.kind, e.message)


def _rows(answer: tuple[list[str], list[list[Any]]]) -> Record:
    """A query's rows as the WIT `rows` record carries them: packed, each
    kind of cell in one flat list (`wit/store.wit`), so that wasmtime-py
    converts a few lists instead of a variant per cell."""
    columns, table = answer
    cells: list[str] = []
    integers: list[int] = []
    reals: list[float] = []
    texts: list[str] = []
    text_ends: list[int] = []
    blobs: list[bytes] = []
    end = 0
    for row in table:
        for value in row:
            if value is None:
                cells.append("n")
            elif isinstance(value, str):
                cells.append("t")
                texts.append(value)
                # The ends count UTF-8 bytes, as the component reads them.
                end += len(value) if value.isascii() else len(value.encode("utf-8"))
                text_ends.append(end)
            elif isinstance(value, int):
                cells.append("i")
                integers.append(value)
            elif isinstance(value, float):
                cells.append("r")
                reals.append(value)
            else:
                cells.append("b")
                blobs.append(bytes(value))
    rows = Record()
    rows.width = len(columns)
    rows.cells = "".join(cells)
    rows.integers = integers
    rows.reals = reals
    rows.text = "".join(texts)
    setattr(rows, "text-ends", text_ends)
    rows.blobs = blobs
    return rows


def define(root: LinkerInstance, session: Callable[[], Session]) -> None:
    """Defines `store` and `clock` over the session `session()` returns."""

    def tx_id(store: Any, handle: Any) -> int:
        return int(handle.to_host(store).rep)

    def guarded(run: Callable[[], Any]) -> Any:
        try:
            return run()
        except StoreError as e:
            return _error(e)

    def drop(_store: Any, rep: int) -> None:
        session().abandon(int(rep))

    def begin(_store: Any, write: bool) -> Any:
        try:
            return ResourceHost.own(session().begin(write), TRANSACTION)
        except StoreError as e:
            return _error(e)

    with root.add_instance(STORE) as i:
        i.add_resource("transaction", ResourceType.host(TRANSACTION), drop)
        i.add_func("dialect", lambda _s: session().backend.dialect())
        i.add_func("begin", begin)
        i.add_func(
            "[method]transaction.execute",
            lambda s, h, sql, params: guarded(lambda: session().execute(tx_id(s, h), sql, params)),
        )
        i.add_func(
            "[method]transaction.query",
            lambda s, h, sql, params: guarded(lambda: _rows(session().query(tx_id(s, h), sql, params))),
        )
        i.add_func(
            "[method]transaction.pipeline",
            lambda s, h, sql, params: guarded(lambda: session().pipeline(tx_id(s, h), sql, params)),
        )
        i.add_func("[method]transaction.commit", lambda s, h: guarded(lambda: session().commit(tx_id(s, h))))
        i.add_func(
            "[method]transaction.query-then-commit",
            lambda s, h, sql, params: guarded(lambda: _rows(session().query_then_commit(tx_id(s, h), sql, params))),
        )

    def now_ms(_store: Any) -> int:
        # The store's own clock when it has one (a database server's, which
        # every machine sharing it agrees on), else the system clock.
        own = session().backend.now_ms()
        return own if own is not None else time.time_ns() // 1_000_000

    with root.add_instance(CLOCK) as i:
        i.add_func("now-ms", now_ms)
        i.add_func("store-clock", lambda _s: session().backend.keeps_clock())
