"""Pipelining without reading: the server's memory stays bounded (it stops
reading stdin while too many answers wait for stdout), and a client that
writes a whole batch before reading still gets every answer."""

from __future__ import annotations

import itertools
import json
import sqlite3
import threading
import time
from pathlib import Path

from rawclient import RawServer

# `task_help all` answers are about 45 KB on the wire (the text block and
# structuredContent): 10,000 of them unread would be about 450 MB, seven
# times what the server may hold (it stops reading after about 5,800).
FLOOD = 10_000
# What the server may grow to meanwhile: it holds at most 64 MiB for the
# client (requests counted with their overhead, answers not yet written).
MAX_RSS_MB = 300


def rss_mb(pid: int, field: str) -> float:
    """VmRSS (now) or VmHWM (peak) of a process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no {field} for {pid}")


def help_call(id: int) -> dict:
    return {"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "task_help", "arguments": {"action": "all"}}}


class Writer(threading.Thread):
    """Writes requests 1..n as fast as the pipe takes them, reading nothing."""

    def __init__(self, server: RawServer, requests):
        super().__init__(daemon=True)
        self.server, self.requests, self.written = server, requests, 0

    def run(self) -> None:
        for request in self.requests:
            self.server.send(request)
            self.written += 1


def stalled(writer: Writer, quiet: float) -> bool:
    """Waits until the writer is done or has made no progress for `quiet` s."""
    last, since = writer.written, time.monotonic()
    while writer.is_alive():
        time.sleep(0.1)
        if writer.written != last:
            last, since = writer.written, time.monotonic()
        elif time.monotonic() - since > quiet:
            return True
    return False


def test_a_client_that_never_reads_keeps_the_server_small(db):
    with RawServer(db) as server:
        server.initialize()
        writer = Writer(server, (help_call(i) for i in range(1, FLOOD + 1)))
        writer.start()
        # The server stops reading once its bounds are reached: the client's
        # writes block instead of the server's memory growing.
        assert stalled(writer, quiet=3.0), "the server read everything without anyone reading its answers"
        held = writer.written
        peak = rss_mb(server.proc.pid, "VmHWM")
        print(f"\nflood of {FLOOD} unread task_help calls: the server stopped reading after {held}, peak RSS {peak:.0f} MB")
        assert held < FLOOD
        assert peak < MAX_RSS_MB, f"peak RSS {peak:.0f} MB"
        # Reading again lets everything through, in order, nothing lost.
        ids = [server.receive()["id"] for _ in range(FLOOD)]
        writer.join(30)
        assert not writer.is_alive()
        assert ids == list(range(1, FLOOD + 1))
        assert rss_mb(server.proc.pid, "VmHWM") < MAX_RSS_MB
        assert server.close() == 0


def test_a_batch_written_whole_before_reading_is_answered(db):
    # 6,000 requests, far more than the pipes hold (a few MB of answers,
    # under the 64 MiB the server may hold), with answers of every size;
    # the client reads only once it has written the last one.
    calls = []
    for i in range(1, 6001):
        if i % 60 == 0:
            calls.append(help_call(i))
        else:
            arguments = {"action": "create", "params": {"name": f"list {i}"}} if i % 2 else {"action": "find", "params": {"limit": 2}}
            calls.append({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "task_lists", "arguments": arguments}})
    with RawServer(db) as server:
        server.initialize()
        writer = Writer(server, calls)
        writer.start()
        writer.join(120)
        assert not writer.is_alive(), f"deadlocked after {writer.written} requests"
        server.proc.stdin.close()
        answers = [server.receive() for _ in calls]
        # Every request answered exactly once, each a success. JSON-RPC
        # lets a server write answers in any order (rmcp writes each one
        # from a task of its own), so the order that matters is checked
        # below: the calls ran in the order they came.
        assert sorted(a["id"] for a in answers) == list(range(1, 6001))
        assert all("result" in a and not a["result"].get("isError") for a in answers)
        by_id = {a["id"]: a["result"]["structuredContent"] for a in answers}
        for i in range(2, 6001, 2):
            if i % 60 == 0:
                continue
            # find (limit 2) saw only lists made by earlier calls, and as
            # many as there were (call 2 sees exactly list 1): no call ran
            # before one that came ahead of it, nor after one behind it.
            names = [lst["name"] for lst in by_id[i]["lists"]]
            made = [int(n.split()[1]) for n in names]
            assert all(j < i for j in made), f"call {i} saw {names}, made after it"
            assert len(made) == min(2, i // 2), f"call {i} saw {names}"
        assert server.proc.wait(20) == 0


# The reused-id flood: each call carries 64 KiB the server keeps until the
# call has run; 4,000 of them would be 256 MB.
REUSED_FLOOD = 4_000
PAD = "x" * (64 * 1024)
# The server's 64 MiB of calls and requests, plus what it is made of.
MAX_FLOOD_RSS_MB = 200


class Flood(Writer):
    """Writes the same raw line `count` times, reading nothing."""

    def __init__(self, server: RawServer, line: bytes, count: int):
        super().__init__(server, itertools.repeat(line, count))

    def run(self) -> None:
        for line in self.requests:
            self.server.send_line(line)
            self.written += 1


class Drain(threading.Thread):
    """Reads and counts every answer until stdout closes."""

    def __init__(self, server: RawServer):
        super().__init__(daemon=True)
        self.server, self.answers = server, 0

    def run(self) -> None:
        while self.server.proc.stdout.readline():
            self.answers += 1


def watch_rss(server: RawServer, writer: Flood, seconds: float) -> float:
    """The server's peak VmRSS while `writer` floods it, in MB; stops early
    (killing the server, so a failing run stays small) past the bound."""
    peak, until = 0.0, time.monotonic() + seconds
    while time.monotonic() < until and writer.is_alive():
        peak = max(peak, rss_mb(server.proc.pid, "VmRSS"))
        if peak > MAX_FLOOD_RSS_MB:
            server.proc.kill()
            break
        time.sleep(0.05)
    return peak


def test_calls_that_reuse_one_id_are_each_counted(db):
    """JSON-RPC ids should be unique, but a client that reuses one while
    calls with it are queued must not grow the server: every call counts
    against its bound, whatever its id. The worker is held up by a lock on
    the database (one call waits for the store's busy budget, 5 s) while
    the client floods it with calls under one id."""
    with RawServer(db) as server:
        server.initialize()
        created = server.call(1, "tools/call", {"name": "task_lists", "arguments": {"action": "create", "params": {"name": "first"}}})
        assert created["result"]["isError"] is False
        lock = sqlite3.connect(db, isolation_level=None, timeout=0)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            server.request(2, "tools/call", {"name": "task_lists", "arguments": {"action": "create", "params": {"name": "held"}}})
            flood = json.dumps(
                {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "task_help", "arguments": {"action": "workflow", "pad": PAD}}}
            ).encode()
            writer = Flood(server, flood, REUSED_FLOOD)
            writer.start()
            peak = watch_rss(server, writer, seconds=4.0)
            held = writer.written
        finally:
            lock.rollback()
            lock.close()
        print(f"\nflood of {REUSED_FLOOD} calls with one id: {held} written while the worker was held, peak RSS {peak:.0f} MB")
        assert peak < MAX_FLOOD_RSS_MB, f"peak RSS {peak:.0f} MB after {held} calls"
        assert held < REUSED_FLOOD, "the server read every call while none could run"
        # Once the worker runs again, the rest goes through.
        drain = Drain(server)
        drain.start()
        writer.join(120)
        assert not writer.is_alive()
        server.proc.stdin.close()
        assert server.proc.wait(120) == 0
        drain.join(10)
        assert drain.answers > 0


def test_a_flood_of_oversized_lines_keeps_the_server_small(db):
    """Each line over 16 MiB is answered and skipped, never held whole."""
    line = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "task_help", "arguments": {"action": "x" * (17 << 20)}}}).encode()
    with RawServer(db) as server:
        server.initialize()
        drain_answers: list[dict] = []

        def drain() -> None:
            for _ in range(20):
                drain_answers.append(server.receive())

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        writer = Flood(server, line, 20)
        writer.start()
        peak = watch_rss(server, writer, seconds=60.0)
        writer.join(60)
        reader.join(60)
        assert peak < MAX_FLOOD_RSS_MB, f"peak RSS {peak:.0f} MB"
        assert [a["id"] for a in drain_answers] == [7] * 20
        assert all(a["error"]["code"] == -32600 for a in drain_answers)
        assert rss_mb(server.proc.pid, "VmHWM") < MAX_FLOOD_RSS_MB
        assert server.close() == 0
