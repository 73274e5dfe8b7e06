"""Shared fixtures of the Python host's tests. They run against the
package in `src/` (a checkout), or, with TASKLISTS_PY_INSTALLED=1, the
installed wheel (CI's clean environment)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
if not os.environ.get("TASKLISTS_PY_INSTALLED"):
    sys.path.insert(0, str(HERE.parent / "src"))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh database path (the file does not exist yet)."""
    return tmp_path / "tasks.db"


@pytest.fixture(autouse=True)
def _no_user_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # A test must not pick up the developer's own identity or database.
    monkeypatch.setenv("TASKLISTS_AGENT_ID", "")
    monkeypatch.setenv("TASKLISTS_DB", "")
