"""The limits of a call: the deadline (epoch interruption), the memory cap
(store limits), the size of the arguments. Every failure is worded by the
component, and the call after it runs in a fresh instance."""

from __future__ import annotations

from tasklists_py import Host


def _error(reply):
    assert reply.is_error, reply.text
    return reply.data["error"]


def test_a_call_past_its_deadline_is_stopped_and_worded_by_the_component(db):
    host = Host(db, agent_id="py-1")
    assert not host.reply("task_lists", {"action": "find"}).is_error
    # The instance is live now: the deadline is the call's, not instantiation's.
    host.call_timeout_ms = 0
    error = _error(host.reply("task_lists", {"action": "find"}))
    assert error["code"] == "internal"
    assert "ran past its time limit of 0 ms" in error["message"]
    assert "nothing was changed" in error["message"]
    host.call_timeout_ms = 10_000
    assert not host.reply("task_lists", {"action": "find"}).is_error


def test_a_call_over_the_memory_cap_is_stopped(db):
    host = Host(db, agent_id="py-1", memory_limit_bytes=4 << 20)
    reply = host.reply("task_lists", {"action": "create", "params": {"name": "x" * 3_000_000}})
    error = _error(reply)
    assert "over its limit of 4096 KiB" in error["message"], error
    assert "too much memory" in error["hint"]
    # The next call runs in a fresh instance.
    assert not host.reply("task_lists", {"action": "find"}).is_error


def test_instantiation_has_the_deadline_too(db):
    error = _error(Host(db, call_timeout_ms=0).reply("task_help", {"action": "workflow"}))
    assert "ran past its time limit of 0 ms" in error["message"]


def test_a_cap_below_the_initial_memory_is_worded_too(db):
    error = _error(Host(db, memory_limit_bytes=1 << 20).reply("task_help", {"action": "workflow"}))
    assert "over its limit of 1024 KiB" in error["message"]


def test_arguments_over_the_size_limit_never_reach_the_component(db):
    host = Host(db, agent_id="py-1", max_params_bytes=64)
    error = _error(host.reply("task_lists", {"action": "create", "params": {"name": "x" * 100}}))
    assert error["code"] == "invalid_params"
    assert "over the limit" in error["message"]
    assert not Host(db).reply("task_lists", {"action": "find"}).data["lists"]


def test_a_deadline_stops_a_wait_for_the_lock_as_busy(db, tmp_path):
    import apsw

    host = Host(db, agent_id="py-1", busy_timeout_ms=200)
    host.call("task_lists", {"action": "create", "params": {"name": "held"}})
    other = apsw.Connection(str(db))
    other.execute("BEGIN IMMEDIATE")
    try:
        error = _error(host.reply("task_lists", {"action": "create", "params": {"name": "waits"}}))
        assert error["code"] == "storage"
        assert "locked" in error["message"] or "busy" in error["message"], error
    finally:
        other.execute("ROLLBACK")
    assert not host.reply("task_lists", {"action": "create", "params": {"name": "now"}}).is_error
