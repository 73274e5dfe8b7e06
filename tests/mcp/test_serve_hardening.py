"""`tasklists serve` under the attacks the third hardening round found:
request bodies whose parse would cost far more than their bytes, floods of
connections that send nothing and of event streams, and credentials that
travel further than they should (the board's cookie, the printed token at
`/mcp`, sign-in links from other sites, a TLS key others can read)."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from pathlib import Path

import httpx2
import pytest
from httpserver import HEADERS, INIT, Server, token_command
from test_exposure import certificate, serve_fails


def find_request(n: int = 2, **arguments: object) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": n,
        "method": "tools/call",
        "params": {"name": "task_lists", "arguments": {"action": "find", **arguments}},
    }


def bearer(token: str) -> dict[str, str]:
    return HEADERS | {"Authorization": f"Bearer {token}"}


def peak_kib(pid: int) -> int:
    """The peak resident memory of process `pid` since it started, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def zeros(n: int) -> bytes:
    """A tools/call whose arguments hold an array of `n` zeros."""
    head = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_lists","arguments":{"action":"find","x":['
    return head + b",".join([b"0"] * n) + b"]}}}"


@pytest.fixture
def server(db):
    s = Server(db)
    yield s
    s.stop()


def test_oversized_and_value_dense_bodies_keep_memory_bounded_and_pages_served(server, tmp_path):
    """Item 1: sixteen concurrent bodies that would cost gigabytes once
    parsed (16 MiB of zeros, announced or chunked; 4 MiB of zeros, within
    the size bound), sent by other processes, are refused; the server's
    peak memory stays under 300 MiB, and a board page answers within
    200 ms meanwhile."""
    tokens = [server.token("flood-a"), server.token("flood-b")]
    huge, dense = tmp_path / "huge.json", tmp_path / "dense.json"
    huge.write_bytes(zeros(8 << 20))
    dense.write_bytes(zeros(2 << 20))
    assert huge.stat().st_size > 16_000_000 and dense.stat().st_size < (4 << 20) + (64 << 10)

    def curl(i: int) -> subprocess.Popen[str]:
        body = huge if i % 4 < 2 else dense
        extra = ["-H", "Transfer-Encoding: chunked"] if i % 4 == 1 else []
        return subprocess.Popen(
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "120",
             "-H", f"Authorization: Bearer {tokens[i % 2]}", "-H", "Content-Type: application/json",
             "-H", "Accept: application/json, text/event-stream", *extra,
             "--data-binary", f"@{body}", server.mcp],
            stdout=subprocess.PIPE, text=True,
        )

    page = {"Authorization": f"Bearer {server.owner_token}"}
    with httpx2.Client(headers=page, timeout=10) as browser:
        assert browser.get(server.url).status_code == 200
        attackers = [curl(i) for i in range(16)]
        slowest = 0.0
        while any(a.poll() is None for a in attackers):
            started = time.monotonic()
            assert browser.get(server.url).status_code == 200
            slowest = max(slowest, time.monotonic() - started)
            time.sleep(0.02)
    statuses = [a.communicate()[0] for a in attackers]
    # A body refused before it was all sent may see its connection close (000).
    assert set(statuses) <= {"413", "503", "000"}, statuses
    assert statuses.count("413") >= 8, statuses
    peak = peak_kib(server.pid())
    assert peak < 300 * 1024, f"the server peaked at {peak // 1024} MiB"
    assert slowest < 0.2, f"a page took {slowest * 1000:.0f} ms during the flood"
    # A real call still works, and one just over the params bound (within
    # the body's) gets the contract's own answer.
    assert httpx2.post(server.mcp, json=find_request(), headers=bearer(tokens[0])).status_code == 200
    over = find_request(params={"name": "z" * ((4 << 20) + 1000)})
    answer = httpx2.post(server.mcp, json=over, headers=bearer(tokens[0]), timeout=60).json()
    assert answer["result"]["structuredContent"]["error"]["code"] == "invalid_params"


def test_a_connection_flood_keeps_token_holders_served(db):
    """Item 2: 600 raw connections that send nothing, reopened as soon as
    the server closes them, never keep a token holder's page or `/mcp`
    call out; nor do event streams opened by the hundred."""
    server = Server(db)
    stop = threading.Event()
    host, port = "127.0.0.1", server.port
    try:
        agent = server.token("busy-bot")
        held: list[socket.socket] = []
        lock = threading.Lock()

        def flood() -> None:
            while not stop.is_set():
                with lock:
                    alive = []
                    for s in held:
                        try:
                            s.setblocking(False)
                            if s.recv(1) == b"":
                                s.close()
                                continue
                        except BlockingIOError:
                            pass
                        except OSError:
                            s.close()
                            continue
                        alive.append(s)
                    held[:] = alive
                    while len(held) < 600:
                        try:
                            held.append(socket.create_connection((host, port), timeout=2))
                        except OSError:
                            break
                time.sleep(0.05)

        flooder = threading.Thread(target=flood, daemon=True)
        flooder.start()
        time.sleep(2)
        with lock:
            assert len(held) >= 500, len(held)
        page = {"Authorization": f"Bearer {server.owner_token}"}
        for _ in range(8):
            assert httpx2.get(server.url, headers=page, timeout=10).status_code == 200
            answer = httpx2.post(server.mcp, json=find_request(), headers=bearer(agent), timeout=10)
            assert answer.status_code == 200 and answer.json()["result"]["isError"] is False
        stop.set()
        flooder.join()
        for s in held:
            s.close()
        # Event streams: one token holds at most 32, whatever it asks.
        streams = []
        statuses = []
        for _ in range(40):
            s = socket.create_connection((host, port), timeout=5)
            s.sendall(
                b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n\r\n"
                % (port, server.owner_token.encode())
            )
            statuses.append(s.recv(12))
            streams.append(s)
        assert statuses.count(b"HTTP/1.1 200") == 32, statuses
        assert statuses.count(b"HTTP/1.1 429") == 8, statuses
        # Another person's page and an agent's call are served meanwhile.
        bob = server.token("bob", person=True)
        assert httpx2.get(server.url, headers={"Authorization": f"Bearer {bob}"}, timeout=10).status_code == 200
        assert httpx2.post(server.mcp, json=find_request(), headers=bearer(agent), timeout=10).status_code == 200
        for s in streams:
            s.close()
    finally:
        stop.set()
        server.stop()


def sign_in(server: Server, token: str, **headers: str) -> httpx2.Response:
    return httpx2.get(f"{server.url}?token={token}", headers=headers, timeout=10)


def session_cookie(answer: httpx2.Response, port: int) -> tuple[str, str]:
    name, _, rest = answer.headers["set-cookie"].partition("=")
    assert name in (f"tasklists-{port}", f"__Host-tasklists-{port}"), name
    return name, rest.split(";", 1)[0]


def test_the_board_cookie_is_a_session_not_the_token(server, db):
    """Item 3: signing in sets a fresh secret, not the token; the secret
    opens the board and nothing at `/mcp`; `token revoke` ends the
    sessions of that token; a restarted server knows none."""
    signed = sign_in(server, server.owner_token)
    assert signed.status_code == 303
    name, secret = session_cookie(signed, server.port)
    assert server.owner_token not in signed.headers["set-cookie"]
    assert len(secret) == 64 and secret != server.owner_token
    cookie = {"Cookie": f"{name}={secret}"}
    assert httpx2.get(server.url, headers=cookie).status_code == 200
    # The session is no credential at /mcp, by cookie or as a bearer.
    assert httpx2.post(server.mcp, json=INIT, headers=HEADERS | cookie).status_code == 401
    assert httpx2.post(server.mcp, json=INIT, headers=bearer(secret)).status_code == 401
    assert httpx2.get(server.url, headers={"Authorization": f"Bearer {secret}"}).status_code == 401
    # Each sign-in is its own session.
    _, again = session_cookie(sign_in(server, server.owner_token), server.port)
    assert again != secret
    # A stored person's token: revoked, its sessions end at once.
    ann = server.token("ann", person=True)
    _, ann_secret = session_cookie(sign_in(server, ann), server.port)
    ann_cookie = {"Cookie": f"{name}={ann_secret}"}
    assert httpx2.get(server.url, headers=ann_cookie).status_code == 200
    assert token_command(db, "revoke", "ann").returncode == 0
    assert httpx2.get(server.url, headers=ann_cookie).status_code == 401
    # Stopping the server ends every session: a new one on the same port
    # does not know the old cookie.
    port = server.port
    server.stop()
    again_server = Server(db, listen=f"127.0.0.1:{port}")
    try:
        assert httpx2.get(again_server.url, headers=cookie).status_code == 401
    finally:
        again_server.stop()


def test_the_printed_token_at_mcp_is_the_started_agent_pinned_or_nothing(db):
    """Item 3: without --agent-id the printed token is refused at /mcp;
    with it, it is that agent, pinned: naming another agent is forbidden."""
    bare = Server(db)
    try:
        refused = httpx2.post(bare.mcp, json=INIT, headers=bearer(bare.owner_token))
        assert refused.status_code == 403 and "--agent-id" in refused.text
        # Another agent's private list is not read by naming it.
        bob = bare.token("bob-bot")
        made = httpx2.post(
            bare.mcp,
            json={"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "task_lists", "arguments": {
                "action": "create", "params": {"name": "Bob's", "visibility": "private"}}}},
            headers=bearer(bob),
        ).json()
        assert made["result"]["isError"] is False
    finally:
        bare.stop()
    pinned = Server(db, "--agent-id", "owner-bot")
    try:
        auth = bearer(pinned.owner_token)
        mine = httpx2.post(pinned.mcp, json=find_request(), headers=auth).json()
        assert mine["result"]["isError"] is False and mine["result"]["structuredContent"]["lists"] == []
        other = httpx2.post(pinned.mcp, json=find_request(params={"agent_id": "bob-bot"}), headers=auth).json()
        error = other["result"]["structuredContent"]["error"]
        assert error["code"] == "forbidden" and "pinned" in error["message"], error
    finally:
        pinned.stop()


def test_a_sign_in_link_from_another_site_is_confirmed_first(server):
    """Item 3: a sign-in link another site (or another port of this host)
    sent the browser to never replaces the live session silently: the
    component's page asks, and its button sends the link again from the
    board's own page."""
    _, ann_secret = session_cookie(sign_in(server, server.owner_token), server.port)
    name = f"tasklists-{server.port}"
    bob = server.token("bob", person=True)
    for site in ("cross-site", "same-site"):
        asked = sign_in(server, bob, **{"Sec-Fetch-Site": site, "Cookie": f"{name}={ann_secret}"})
        assert asked.status_code == 200 and "set-cookie" not in asked.headers
        assert "Switch to @bob?" in asked.text and "Stay @" in asked.text, asked.text
        assert f'value="{bob}"' in asked.text and 'method="get"' in asked.text
    # The live session is untouched.
    assert httpx2.get(server.url, headers={"Cookie": f"{name}={ann_secret}"}).status_code == 200
    # From the board's own page (the button), or typed: signed in.
    confirmed = sign_in(server, bob, **{"Sec-Fetch-Site": "same-origin"})
    assert confirmed.status_code == 303 and "set-cookie" in confirmed.headers
    typed = sign_in(server, bob, **{"Sec-Fetch-Site": "none"})
    assert typed.status_code == 303


def test_a_tls_key_others_can_read_is_refused(db, tmp_path):
    chain, key, _ = certificate(tmp_path)
    key.chmod(0o644)
    exposed = serve_fails(db, "--tls-cert", str(chain), "--tls-key", str(key))
    assert "can be read by other users" in exposed.stderr and "chmod 600" in exposed.stderr, exposed.stderr
    key.chmod(0o600)
    server = Server(db, "--tls-cert", str(chain), "--tls-key", str(key))
    try:
        assert server.url.startswith("https://")
    finally:
        server.stop()
