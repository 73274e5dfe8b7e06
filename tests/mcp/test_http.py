"""MCP over Streamable HTTP on `tasklists serve`: each agent known by its
token (pinned), tokens shared by every server on one database, revocation
at once, the board only for a person's token, and the limits: oversized
bodies, slow clients and floods answered promptly with bounded memory."""

from __future__ import annotations

import json
import socket
import time
from collections import Counter
from urllib.parse import urlparse

import anyio
import httpx2
import pytest
from conftest import all_tasks, call, refused
from httpserver import HEADERS, INIT, Server, http_client, rss_kib, token_command


def find_request(n: int = 2) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": n,
        "method": "tools/call",
        "params": {"name": "task_lists", "arguments": {"action": "find"}},
    }


# A `tools/call` of `find`, as bytes.
FIND = json.dumps(find_request()).encode()


def post(url: str, token: str | None, body: object, timeout: float = 30) -> httpx2.Response:
    headers = dict(HEADERS)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return httpx2.post(url, json=body, headers=headers, timeout=timeout)


@pytest.fixture
def server(db):
    s = Server(db)
    yield s
    s.stop()


@pytest.mark.anyio
async def test_agents_are_their_tokens_and_private_lists_stay_private(server):
    async with http_client(server.mcp, server.token("ann-bot")) as ann, http_client(server.mcp, server.token("bob-bot")) as bob:
        mine = (await call(ann, "task_lists", "create", name="Ann's", visibility="private"))["list"]
        assert mine["created_by_agent_id"] == "ann-bot", "the token's name is the agent"
        # Another agent's token neither sees nor reads it, whatever it claims to be.
        assert (await call(bob, "task_lists", "find"))["lists"] == []
        assert (await refused(bob, "task_lists", "get", list_id=mine["id"]))["code"] == "forbidden"
        error = await refused(bob, "task_lists", "get", list_id=mine["id"], agent_id="ann-bot")
        assert error["code"] == "forbidden" and "pinned" in error["message"]
        # Its own name is fine; the audit log names who did what.
        shared = (await call(bob, "task_lists", "create", name="Team", agent_id="bob-bot"))["list"]
        await call(ann, "task_items", "create", list_id=shared["id"], title="from ann")
        events = (await call(bob, "task_audit", "get", list_id=shared["id"]))["events"]
        assert {e["agent_id"] for e in events} == {"ann-bot", "bob-bot"}


@pytest.mark.anyio
async def test_two_servers_on_one_database_share_tokens_and_hand_out_each_task_once(db):
    first, second = Server(db), Server(db)
    try:
        planner = first.token("planner")
        async with http_client(first.mcp, planner) as client:
            list_id = (await call(client, "task_lists", "create", name="Race"))["list"]["id"]
            await call(client, "task_items", "add_many", list_id=list_id, tasks=[{"title": f"t{i}"} for i in range(40)])
        claimed: list[tuple[str, str]] = []

        async def work(server: Server, agent: str) -> None:
            # The token was made once, for the database: both servers know it.
            token = first.token(agent)
            async with http_client(server.mcp, token) as client:
                while True:
                    result = await call(client, "task_claims", "claim_next", list_id=list_id)
                    if result["task"] is None:
                        return
                    claimed.append((result["task"]["id"], agent))
                    await call(
                        client, "task_items", "update", task_id=result["task"]["id"], status="done",
                        outcome=f"done by {agent}", claim_token=result["claim"]["token"],
                    )

        async with anyio.create_task_group() as tg:
            for i, server in enumerate([first, second, first, second]):
                tg.start_soon(work, server, f"agent-{i}")
        assert len(claimed) == 40
        assert max(Counter(task for task, _ in claimed).values()) == 1, "no task handed out twice"
        async with http_client(second.mcp, planner) as client:
            tasks = await all_tasks(client, list_id)
            assert all(t["status"] == "done" for t in tasks)
        # Revoked through the database: both servers refuse it at once.
        assert token_command(db, "revoke", "agent-0").returncode == 0
        for server in (first, second):
            assert post(server.mcp, first.tokens["agent-0"], find_request()).status_code == 401
            assert post(server.mcp, first.tokens["agent-1"], find_request()).status_code == 200
    finally:
        first.stop()
        second.stop()


def test_a_revoked_token_is_refused_on_its_next_request(server, db):
    token = server.token("ci-runner")
    assert post(server.mcp, token, INIT).status_code == 200
    assert post(server.mcp, token, find_request()).json()["result"]["isError"] is False
    listed = token_command(db, "list")
    assert "ci-runner" in listed.stdout and "agent" in listed.stdout
    assert token_command(db, "revoke", "ci-runner").returncode == 0
    refused_now = post(server.mcp, token, find_request())
    assert refused_now.status_code == 401
    assert refused_now.headers["www-authenticate"] == "Bearer"
    # No token, a wrong one, a cookie instead of the header: all refused.
    assert post(server.mcp, None, find_request()).status_code == 401
    assert post(server.mcp, "0" * 64, find_request()).status_code == 401
    cookie = {"Cookie": f"tasklists-{urlparse(server.url).port}={server.owner_token}"}
    assert httpx2.post(server.mcp, json=find_request(), headers=HEADERS | cookie).status_code == 401
    again = token_command(db, "revoke", "ci-runner")
    assert again.returncode == 1 and "holds no token" in again.stderr


@pytest.mark.anyio
async def test_an_agent_token_cannot_open_the_board_or_approve_a_plan(server):
    agent = server.token("planner-bot")
    person = server.token("ann", person=True)
    async with http_client(server.mcp, agent) as client:
        created = await call(client, "task_lists", "create", name="Plan", requires_approval=True)
        list_id = created["list"]["id"]
        await call(client, "task_items", "create", list_id=list_id, title="step")
        # No tool approves, and the agent's token gets no person's action.
        waiting = await call(client, "task_claims", "claim_next", list_id=list_id)
        assert waiting["task"] is None and waiting["waiting"]["approval"]["state"] == "pending"
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    approve = f"action=approve&target={list_id}&return=%2F"
    for token in (agent,):
        auth = {"Authorization": f"Bearer {token}"}
        board = httpx2.get(server.url, headers=auth)
        assert board.status_code == 403 and "--person" in board.text
        act = httpx2.post(server.url + "act", content=approve, headers=auth | form)
        assert act.status_code == 403
        assert httpx2.get(server.url + f"?token={token}").status_code == 403
    async with http_client(server.mcp, agent) as client:
        still = await call(client, "task_claims", "claim_next", list_id=list_id)
        assert still["task"] is None, "the plan is still unapproved"
    # A person's token opens the board and approves, as the person.
    auth = {"Authorization": f"Bearer {person}"}
    assert httpx2.get(server.url, headers=auth).status_code == 200
    act = httpx2.post(server.url + "act", content=approve, headers=auth | form)
    assert act.status_code == 303, act.text
    async with http_client(server.mcp, agent) as client:
        task = (await call(client, "task_claims", "claim_next", list_id=list_id))["task"]
        assert task is not None and task["title"] == "step"
        events = (await call(client, "task_audit", "get", list_id=list_id))["events"]
        approved = [e for e in events if e["kind"] == "approved"]
        assert approved and approved[0]["agent_id"] == "ann"


def test_oversized_bodies_are_refused_whole_and_memory_stays_bounded(server):
    token = server.token("big")
    # Far over the body limit (the params limit and an envelope): refused
    # before it is read whole.
    blob = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"task_lists","arguments":{"x":"' + b"y" * (17 << 20) + b'"}}}'
    before = rss_kib(server.pid())
    for _ in range(5):
        answer = httpx2.post(server.mcp, content=blob, headers=HEADERS | {"Authorization": f"Bearer {token}"}, timeout=60)
        assert answer.status_code == 413
    grown = rss_kib(server.pid()) - before
    assert grown < 80 * 1024, f"the server grew by {grown} KiB"
    # Over the params limit but within the body's (the limit and an
    # envelope): the contract's answer.
    big = find_request()
    big["params"]["arguments"]["params"] = {"name": "z" * ((4 << 20) + 1000)}
    answer = post(server.mcp, token, big, timeout=60).json()
    assert answer["result"]["isError"] is True
    assert answer["result"]["structuredContent"]["error"]["code"] == "invalid_params"
    assert post(server.mcp, token, find_request()).status_code == 200


def test_slow_clients_are_cut_off_and_the_connection_cap_holds(db):
    # A short body timeout: the slow body below is cut off in 3 s, not 30.
    server = Server(db, "--max-connections", "16", "--body-timeout", "3")
    try:
        token = server.token("patient")
        host, port = urlparse(server.url).hostname, urlparse(server.url).port
        slow = []
        for _ in range(16):
            s = socket.create_connection((host, port))
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
            slow.append(s)
        time.sleep(0.5)
        # Over the cap: a newcomer takes the place of the oldest of those
        # that never finished a request, which is closed at once; the
        # newcomer is served.
        extra = socket.create_connection((host, port))
        extra.settimeout(5)
        slow[0].settimeout(2)
        assert slow[0].recv(1) == b"", "the oldest silent connection was closed"
        extra.sendall(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"
            b"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
            % (port, token.encode(), len(FIND), FIND)
        )
        assert extra.recv(12) == b"HTTP/1.1 200"
        extra.close()
        slow[0].close()
        slow = slow[1:]
        # The slow ones (headers never finished) are cut off after the header timeout.
        started = time.monotonic()
        for s in slow:
            s.settimeout(20)
            try:
                while s.recv(4096):
                    pass
            except ConnectionResetError:
                pass
            s.close()
        assert time.monotonic() - started < 15
        # A slow body (headers done, the body never) gets 408 in bounded time.
        s = socket.create_connection((host, port))
        s.sendall(
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{" % (port, token.encode())
        )
        s.settimeout(45)
        assert s.recv(64).startswith(b"HTTP/1.1 408"), "the body never came"
        s.close()
        # The server still answers.
        assert post(server.mcp, token, find_request()).status_code == 200
    finally:
        server.stop()


@pytest.mark.anyio
async def test_a_flood_is_answered_at_once_with_429_and_503(db):
    server = Server(db, "--max-requests", "12", "--max-requests-per-token", "4")
    try:
        tokens = [server.token(f"flood-{i}") for i in range(6)]
        statuses: Counter[int] = Counter()
        slowest = 0.0
        before = rss_kib(server.pid())
        # A call that holds the queue a little: the flood piles up behind it.
        request = find_request()
        request["params"] = {"name": "task_help", "arguments": {"action": "examples"}}

        async with httpx2.AsyncClient(headers=HEADERS, timeout=60, limits=httpx2.Limits(max_connections=300)) as http:

            async def one(token: str) -> None:
                nonlocal slowest
                started = time.monotonic()
                answer = await http.post(server.mcp, json=request, headers={"Authorization": f"Bearer {token}"})
                statuses[answer.status_code] += 1
                if answer.status_code != 200:
                    slowest = max(slowest, time.monotonic() - started)

            async with anyio.create_task_group() as tg:
                for i in range(240):
                    tg.start_soon(one, tokens[i % len(tokens)])
        assert statuses[200] > 0 and statuses[429] + statuses[503] > 0, statuses
        assert set(statuses) <= {200, 429, 503}, statuses
        assert slowest < 5, f"a refusal took {slowest:.2f} s"
        assert rss_kib(server.pid()) - before < 64 * 1024
        assert post(server.mcp, tokens[0], find_request()).status_code == 200
    finally:
        server.stop()
