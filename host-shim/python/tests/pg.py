"""Fresh PostgreSQL databases for the tests, on the server whose admin URL
is $TASKLISTS_TEST_PG (CI's cluster); without it those tests skip."""

from __future__ import annotations

import os
import subprocess
import uuid
from contextlib import contextmanager
from typing import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

ADMIN = os.environ.get("TASKLISTS_TEST_PG", "")
needs_pg = pytest.mark.skipif(not ADMIN, reason="TASKLISTS_TEST_PG is not set (an admin URL such as postgresql://postgres@127.0.0.1:54329/postgres)")


def _psql(sql: str) -> None:
    subprocess.run(["psql", ADMIN, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True, capture_output=True)


@contextmanager
def fresh_database() -> Iterator[str]:
    """The URL of a new database, dropped afterwards whatever happened."""
    name = f"py_{uuid.uuid4().hex[:16]}"
    _psql(f"CREATE DATABASE {name}")
    try:
        yield urlunsplit(urlsplit(ADMIN)._replace(path=f"/{name}"))
    finally:
        _psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
