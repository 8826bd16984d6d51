"""The storage contract's tests (this folder) run every operation of
``bonanza.storage.Storage`` (and ``write_batch``) on SQLite and on PostgreSQL (a real
server, ``tests/storage/conftest.py``): the store they open, and game records to store."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bonanza.core import Deal, Rules
from bonanza.session import Session
from bonanza.session.status import Status
from bonanza.storage import SQLiteStorage
from bonanza.storage.records import GameRecord
from tests.servers import PostgresServer

NOW = 1000.0
KLONDIKE = Rules.preset("klondike")
TAKERS = 8
"""Threads taking stocked deals at once."""
STOCKED = 40
"""Deals those threads share."""
Opener = Callable[[], Any]


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens the same (new, empty) store again at each call; all are closed afterwards."""
    opened: list[Any] = []
    if request.param == "sqlite":
        path = tmp_path / "games.db"

        def open_store() -> Any:
            opened.append(SQLiteStorage(path))
            return opened[-1]
    else:
        from bonanza.storage.postgres import PostgresStorage

        server: PostgresServer = request.getfixturevalue("postgres_server")
        url = server.new_store()

        def open_store() -> Any:
            opened.append(PostgresStorage(url))
            return opened[-1]

    yield open_store
    for store in opened:
        store.close()


@pytest.fixture
def store(opener: Opener) -> Any:
    return opener()


def record(game_id: str, player: str = "ann", deal: int = 3, **changes: Any) -> GameRecord:
    session = Session.new(Deal.from_number(deal), Rules.preset("klondike"), NOW)
    return dataclasses.replace(GameRecord.of(game_id, player, session, NOW), **changes)


def finished(game_id: str, at: float, status: Status = Status.WON, **changes: Any) -> GameRecord:
    return record(game_id, status=status, finished_at=at, **changes)
