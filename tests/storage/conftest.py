"""A real PostgreSQL server for the storage tests: ``initdb`` and ``pg_ctl`` in a temporary
folder, on a free port, for the whole session, stopped afterwards.

Without the server binaries (or psycopg) the PostgreSQL tests are skipped, except
in CI (``CI`` or ``BONANZA_REQUIRE_POSTGRES`` set), where they fail.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bonanza.storage import SQLiteStorage
from tests.servers import PostgresServer, PostgresUnavailable, throwaway_postgres

OPENERS = 4
"""Processes' worth of stores opening one database at once."""


def postgres_required() -> bool:
    """Whether a missing PostgreSQL fails the tests (CI) instead of skipping them."""
    return bool(os.environ.get("CI") or os.environ.get("BONANZA_REQUIRE_POSTGRES"))


def unavailable(reason: str) -> None:
    """Skip the test, or fail it in CI."""
    if postgres_required():
        pytest.fail(f"PostgreSQL tests cannot run: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session (skipped without one, except in CI)."""
    try:
        with throwaway_postgres() as server:
            yield server
    except PostgresUnavailable as error:
        unavailable(str(error))
    except RuntimeError as error:
        pytest.fail(str(error))


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """An empty store, on SQLite and on the session's PostgreSQL server in turn."""
    if request.param == "sqlite":
        opened: Any = SQLiteStorage(tmp_path / "games.db")
    else:
        from bonanza.storage.postgres import PostgresStorage

        server: PostgresServer = request.getfixturevalue("postgres_server")
        opened = PostgresStorage(server.new_store())
    yield opened
    opened.close()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty store on the session's server."""
    return postgres_server.new_store()


def open_at_once(open_store: Callable[[], Any], count: int = OPENERS) -> list[Any]:
    """``count`` stores opened by as many threads at once (one database starting in
    several processes); every one must open."""
    opened: list[Any] = []
    failed: list[BaseException] = []
    start = threading.Barrier(count)

    def open_one() -> None:
        start.wait()
        try:
            opened.append(open_store())
        except BaseException as error:
            failed.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == [] and len(opened) == count
    return opened
