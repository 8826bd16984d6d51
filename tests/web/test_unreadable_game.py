"""A game in play whose stored state cannot be read back (a damaged row) never blocks
a new game: the start ends it from its row, lost once it counts, and the new game plays."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from bonanza.storage import SQLiteStorage
from bonanza.web.app import create_app

from .test_api import new_game, play


def damage(db: Path, game_id: str) -> None:
    """Make the stored state of ``game_id`` unreadable, as another process's write
    (its version moves on, so a cached copy is read again)."""
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
            ('{"format": "bonanza-session", "version": 1, "game": {"deal": 5}}', game_id),
        )


def test_a_new_game_ends_an_unreadable_game_in_play_and_counts_it_lost(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with TestClient(create_app(SQLiteStorage(db))) as client:
        gid = new_game(client, "0")["id"]
        play(client, gid, "sw")  # it counts
        damage(db, gid)
        refused = client.post(f"/api/games/{gid}/moves", json={"move": "sw"})
        assert refused.status_code == 409 and "start a new one" in refused.json()["error"]
        fresh: Any = new_game(client, "1")  # before: 409 "cannot be read back" again
        assert fresh["id"] != gid and fresh["status"] == "playing"
        assert client.get("/api/games/current").json()["id"] == fresh["id"]
        (group,) = client.get("/api/stats").json()["chosen"]
        assert (group["played"], group["won"]) == (1, 0)  # the damaged game: lost


def test_an_untouched_unreadable_game_ends_abandoned_not_counted(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with TestClient(create_app(SQLiteStorage(db))) as client:
        gid = new_game(client, "0")["id"]
        damage(db, gid)
        new_game(client, "1")
        assert client.get("/api/stats").json()["chosen"] == []
