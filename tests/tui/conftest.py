"""Fixtures of the terminal game's tests: the asyncio backend and a real SQLite store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bonanza.storage import SQLiteStorage


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[SQLiteStorage]:
    store = SQLiteStorage(tmp_path / "games.db")
    yield store
    store.close()
