"""A database the server cannot use: task_help still answers (it needs no
database), every other call says what is wrong, and once the file is
fixed the same server picks it up, with no restart."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from conftest import READ_TIMEOUT_SECONDS, call, refused, server_params
from mcp import Client
from mcp.client.stdio import StdioServerParameters

# Root writes to read-only files anyway: the permission tests run the
# server as `nobody` then.
NOBODY = 65534


@pytest.mark.anyio
async def test_task_help_answers_without_a_database(tmp_path):
    # The database's directory would have to be made inside a regular file:
    # nothing can create it, whoever runs the server.
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file, not a directory\n")
    db = blocker / "tasks.db"
    async with Client(server_params(db, "builder-1"), read_timeout_seconds=READ_TIMEOUT_SECONDS) as client:
        assert len((await client.list_tools()).tools) == 5
        for action in ["all", "workflow", "schemas", "examples"]:
            assert await call(client, "task_help", action)
        error = await refused(client, "task_lists", "find")
        assert error["code"] == "storage"
        assert str(blocker) in error["message"]
        assert "the next call tries again" in error["hint"]
        # Still answering afterwards, still from the component alone.
        assert "workflow" in await call(client, "task_help", "workflow")
    assert blocker.read_text() == "a file, not a directory\n"


def as_unprivileged(params: StdioServerParameters, home: Path) -> StdioServerParameters:
    """`params` run as `nobody` when the tests run as root (root ignores
    file modes), else unchanged."""
    if os.geteuid() != 0:
        return params
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot drop privileges to test file modes")
    os.chown(home, NOBODY, NOBODY)
    env = params.env | {"TASKLISTS_CACHE_DIR": str(home / "cache")}
    args = [f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--", params.command, *params.args]
    return StdioServerParameters(command=setpriv, args=args, env=env)


@asynccontextmanager
async def unprivileged(db: Path, agent: str):
    params = as_unprivileged(server_params(db, agent), db.parent)
    async with Client(params, read_timeout_seconds=READ_TIMEOUT_SECONDS) as client:
        yield client


def modes(directory: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in directory.iterdir() if p.name.startswith("tasks.db")}


@pytest.fixture
def home():
    """A directory `nobody` can reach (pytest's own are private to root)."""
    path = Path(tempfile.mkdtemp(prefix="tasklists-ro-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.anyio
async def test_a_read_only_database_made_writable_again_is_picked_up(home):
    db = home / "tasks.db"
    async with unprivileged(db, "builder-1") as client:
        await call(client, "task_lists", "create", name="Before")
    db.chmod(0o444)
    async with unprivileged(db, "builder-1") as client:
        # Reads work, writes say which files must be writable.
        assert len((await call(client, "task_lists", "find"))["lists"]) == 1
        error = await refused(client, "task_lists", "create", name="Read-only")
        assert error["code"] == "storage"
        for text in (error["message"], error["hint"]):
            assert "-wal" in text and "-shm" in text, text
        # SQLite made the -wal and -shm files with the database's mode.
        assert set(modes(home).values()) == {0o444}, modes(home)
        # The database alone writable is not enough: the message still says so.
        db.chmod(0o644)
        error = await refused(client, "task_lists", "create", name="Half fixed")
        assert "-shm" in error["message"]
        # All of them writable: the same server writes again.
        for name in modes(home):
            (home / name).chmod(0o644)
        created = await call(client, "task_lists", "create", name="After")
        assert created["created"] is True
        names = sorted(item["name"] for item in (await call(client, "task_lists", "find"))["lists"])
        assert names == ["After", "Before"]
