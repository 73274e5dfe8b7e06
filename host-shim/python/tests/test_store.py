"""The SQLite store behaves as the native backend: what it creates is the
user's alone, a file that is no database is left untouched, WAL comes with
the first write, and SQL cannot reach around the session's transactions."""

from __future__ import annotations

import os
import stat

import pytest
from tasklists_py.deadline import Deadline
from tasklists_py.errors import StoreError
from tasklists_py.session import Session
from tasklists_py.sqlite_store import SqliteBackend
from tasklists_py import Host


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_what_the_store_creates_is_the_users_alone(tmp_path):
    db = tmp_path / "new" / "deeper" / "tasks.db"
    Host(db, agent_id="a").call("task_lists", {"action": "create", "params": {"name": "x"}})
    assert _mode(tmp_path / "new") == 0o700 and _mode(db.parent) == 0o700
    assert _mode(db) == 0o600


def test_a_file_that_is_no_database_is_refused_untouched(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello, this is not a database\n")
    reply = Host(notes, agent_id="a").reply("task_lists", {"action": "find"})
    assert reply.is_error and reply.data["error"]["code"] == "storage"
    assert "is not a tasklists database" in reply.data["error"]["message"]
    assert notes.read_text() == "hello, this is not a database\n"
    assert not (tmp_path / "notes.txt-wal").exists()


def test_wal_comes_with_the_first_committed_write(db):
    import apsw

    host = Host(db, agent_id="a")
    host.call("task_lists", {"action": "find"})
    host.call("task_lists", {"action": "create", "params": {"name": "x"}})
    mode = apsw.Connection(str(db)).execute("PRAGMA journal_mode").fetchall()[0][0]
    assert mode == "wal"


def _session(db) -> Session:
    session = Session(SqliteBackend(db, 1000, 1 << 20))
    session.begin_call(Deadline())
    return session


def test_a_read_transaction_refuses_a_write(db):
    session = _session(db)
    tx = session.begin(True)
    session.execute(tx, "CREATE TABLE t(x)", [])
    session.commit(tx)
    tx = session.begin(False)
    with pytest.raises(StoreError) as refused:
        session.execute(tx, "INSERT INTO t VALUES (?)", [1])
    assert refused.value.kind == "invalid-state"
    assert session.query(tx, "SELECT count(*) AS n FROM t", []) == (["n"], [[0]])


def test_sql_cannot_end_the_transaction_nor_attach_files(db, tmp_path):
    session = _session(db)
    tx = session.begin(True)
    with pytest.raises(StoreError) as refused:
        session.execute(tx, "COMMIT", [])
    assert refused.value.kind == "invalid-state"
    with pytest.raises(StoreError):
        session.execute(tx, f"ATTACH DATABASE '{tmp_path / 'other.db'}' AS other", [])
    assert not (tmp_path / "other.db").exists()


def test_a_call_that_leaves_a_write_open_is_rolled_back(db):
    session = _session(db)
    tx = session.begin(True)
    session.execute(tx, "CREATE TABLE t(x)", [])
    assert session.end_call() is True
    session.begin_call(Deadline())
    tx = session.begin(False)
    assert session.query(tx, "SELECT count(*) FROM sqlite_schema WHERE name = 't'", [])[1] == [[0]]


def test_values_cross_as_they_are(db):
    session = _session(db)
    tx = session.begin(True)
    session.execute(tx, "CREATE TABLE v(a, b, c, d, e)", [])
    assert session.execute(tx, "INSERT INTO v VALUES (?, ?, ?, ?, ?)", [None, 7, 1.5, "é", b"\x00\x01"]) == 1
    assert session.query(tx, "SELECT * FROM v", [])[1] == [[None, 7, 1.5, "é", b"\x00\x01"]]
    session.commit(tx)
    assert session.write_state == "applied"


def test_text_that_is_not_utf8_is_a_typed_failure_not_a_trap(db):
    # SQLite stores whatever bytes it is given as TEXT (another tool wrote
    # these); the call fails as a corrupt store, worded by the component,
    # and changes nothing.
    host = Host(db, agent_id="a")
    _summary, made = host.call("task_lists", {"action": "create", "params": {"name": "x", "visibility": "shared"}})
    list_id = made["list"]["id"]
    host.call("task_items", {"action": "create", "params": {"list_id": list_id, "title": "readable"}})
    import apsw

    raw = apsw.Connection(str(db))
    raw.execute("UPDATE tasks SET title = CAST(x'ff41' AS TEXT)")
    raw.close()
    reply = host.reply("task_lists", {"action": "get", "params": {"list_id": list_id}})
    assert reply.is_error and reply.data["error"]["code"] == "storage"
    assert "not valid UTF-8" in reply.data["error"]["message"], reply.data
    # The store still serves what it can read.
    assert host.call("task_lists", {"action": "find"})[1]["lists"][0]["id"] == list_id
