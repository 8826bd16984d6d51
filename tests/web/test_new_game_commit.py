"""A new game ends the player's unfinished game and is stored in one commit (one fsync,
not one per write), and the two stay together (issue 32): one write, ``start_game``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from bonanza.storage import SQLiteStorage
from bonanza.web.app import create_app


def names(writes: Sequence[Callable[[], Any]]) -> list[str]:
    """The store methods a batch of writes calls."""
    return [
        write.func.__name__ if isinstance(write, functools.partial) else repr(write)
        for write in writes
    ]


def test_a_new_game_ends_the_old_one_in_the_commit_that_stores_it(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    batches: list[list[str]] = []
    commit = storage.write_batch

    def recording(writes: Sequence[Callable[[], Any]]) -> list[Any]:
        batches.append(names(writes))
        return commit(writes)

    storage.write_batch = recording  # type: ignore[method-assign]
    with TestClient(create_app(storage)) as client:
        first = client.post("/api/games", json={"deal": "7"}).json()
        assert client.post(f"/api/games/{first['id']}/moves", json={"move": "sw"}).is_success
        batches.clear()
        second = client.post("/api/games", json={"deal": "8"})
        assert second.status_code == 201, second.text
        old = client.get(f"/api/games/{first['id']}").json()
        stored = storage.get_game(second.json()["id"])
    assert old["status"] == "lost"  # a game with a move counts, and ends lost
    together = [batch for batch in batches if "start_game" in batch]
    assert together == [["start_game"]], batches  # the old game's end and the insert
    assert stored is not None and stored.status.value == "playing"
