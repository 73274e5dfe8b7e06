"""What value-dense request bodies cost `tasklists serve`, beside the board's
page latency, for one or more binaries in the same run.

    .venv/bin/python tests/mcp/bench_bodies.py [BINARY …]

(`bash scripts/python-env` makes `.venv`; the default binary is
`$TASKLISTS_BIN`, else `target/release/tasklists`. Give an older build too
to compare before and after in one session.)

For each binary: a fresh `serve` and database, two agent tokens, then 16
`curl` processes POST to `/mcp` at once: four a 16 MiB array of zeros
announced by `Content-Length`, four the same body chunked, eight a 4 MiB
array of zeros (two million values, within the size bound). Meanwhile the
board's page is read every 20 ms. Prints the server's resident memory at
the start and its peak (`VmHWM`), the slowest page, and the HTTP statuses
the attackers got.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

REPO = Path(__file__).resolve().parents[2]


def zeros(n: int) -> bytes:
    """A tools/call whose arguments hold an array of `n` zeros."""
    head = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_lists","arguments":{"action":"find","x":['
    return head + b",".join([b"0"] * n) + b"]}}}"


def peak_mib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    raise RuntimeError("no VmHWM")


def run(binary: str, work: Path) -> str:
    db = work / "tasks.db"
    env = os.environ | {"TASKLISTS_PERSON": "ann", "TASKLISTS_AGENT_ID": "", "TASKLISTS_DB": ""}
    tokens = [
        subprocess.run([binary, "--db", str(db), "token", "add", f"flood-{i}"], env=env, capture_output=True, text=True, check=True).stdout.split()[-1]
        for i in range(2)
    ]
    server = subprocess.Popen([binary, "--db", str(db), "serve", "--listen", "127.0.0.1:0"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().split()[2]
        base, owner = url.split("?")[0], url.split("token=")[1]
        huge, dense = work / "huge.json", work / "dense.json"
        huge.write_bytes(zeros(8 << 20))
        dense.write_bytes(zeros(2 << 20))
        start = peak_mib(server.pid)
        attackers = [
            subprocess.Popen(
                ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "120",
                 "-H", f"Authorization: Bearer {tokens[i % 2]}", "-H", "Content-Type: application/json",
                 "-H", "Accept: application/json, text/event-stream",
                 *(["-H", "Transfer-Encoding: chunked"] if i % 4 == 1 else []),
                 "--data-binary", f"@{huge if i % 4 < 2 else dense}", base + "mcp"],
                stdout=subprocess.PIPE, text=True,
            )
            for i in range(16)
        ]
        pages: list[float] = []
        with httpx2.Client(headers={"Authorization": f"Bearer {owner}"}, timeout=30) as browser:
            while any(a.poll() is None for a in attackers) or len(pages) < 5:
                started = time.monotonic()
                browser.get(base)
                pages.append(time.monotonic() - started)
                time.sleep(0.02)
        statuses = sorted({a.communicate()[0] for a in attackers})
        return (
            f"{binary}: start {start} MiB, peak {peak_mib(server.pid)} MiB, "
            f"slowest page {max(pages) * 1000:.0f} ms of {len(pages)}, statuses {', '.join(statuses)}"
        )
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    binaries = sys.argv[1:] or [os.environ.get("TASKLISTS_BIN", str(REPO / "target" / "release" / "tasklists"))]
    for binary in binaries:
        with tempfile.TemporaryDirectory() as work:
            print(run(binary, Path(work)), flush=True)


if __name__ == "__main__":
    main()
