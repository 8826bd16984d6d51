"""A store that fails (PostgreSQL stopped, a full disk) is a 503 JSON error on every
route that reads it, never a 500: a host saw ``GET /api/stats`` answer 500 with a
traceback in the log while PostgreSQL was down, where the moves answered 503."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from bonanza.storage import SQLiteStorage, StorageError
from bonanza.web import create_app

DOWN = "the game store failed: couldn't get a connection after 10.00 sec"


def failing(*args: Any, **kwargs: Any) -> Any:
    raise StorageError(DOWN)


@pytest.fixture
def down(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A player with a game, then a store whose every read of games fails."""
    storage = SQLiteStorage(tmp_path / "games.db")
    app = create_app(storage)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.post("/api/games", json={"deal": "0"}).status_code == 201
        for name in ("finished_games", "archive_finished_games", "playing_games"):
            monkeypatch.setattr(storage, name, failing)
        yield client


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/stats"), ("DELETE", "/api/stats"), ("GET", "/api/stats/export")],
)
def test_the_statistics_answer_503_while_the_store_is_down(
    down: TestClient, method: str, path: str
) -> None:
    response = down.request(method, path)
    assert response.status_code == 503, response.text
    assert response.json() == {
        "error": "the game store is not answering: try again shortly",
        "status": 503,
    }


FULL = "the game store failed: database or disk is full"


def test_a_failing_write_is_logged_with_its_cause_once_not_per_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A host whose disk filled up saw every move answer 503 and nothing in the log
    saying why (the health check reads, so it said ok)."""
    storage = SQLiteStorage(tmp_path / "games.db")
    with TestClient(create_app(storage), raise_server_exceptions=False) as client:
        game_id = client.post("/api/games", json={"deal": "0"}).json()["id"]

        def full(*args: Any, **kwargs: Any) -> Any:
            raise StorageError(FULL)

        monkeypatch.setattr(storage, "update_game", full)
        with caplog.at_level("WARNING", logger="bonanza.web"):
            for _ in range(3):
                moved = client.post(f"/api/games/{game_id}/moves", json={"move": "sw"})
                assert moved.status_code == 503, moved.text
        monkeypatch.undo()
        assert client.post(f"/api/games/{game_id}/moves", json={"move": "sw"}).status_code == 200
    lines = [record.getMessage() for record in caplog.records if record.name == "bonanza.web"]
    assert lines == [f"a write to the game store failed: {FULL}"]
