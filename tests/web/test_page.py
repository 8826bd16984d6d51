"""The page carries the player's settings and latest game, as the API answers them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.errors import ApiError
from bonanza.web.page import embedded_json
from bonanza.web.service import GameService

from .test_settings_api import DEFAULTS

DATA = re.compile(r'<script type="application/json" id="page-data">(.*?)</script>', re.S)
LOCAL = "this-machines-player"
VOLATILE = {"elapsed", "idle_cap"}
"""Changes between two answers about the same game: the clock runs (the idle
time left falls too, by a tenth of a second on a loaded machine)."""


async def unreadable(self: GameService, player: str) -> None:
    raise ApiError(503, "the game store is not answering")


def page_data(client: TestClient) -> Any:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    found = DATA.search(page.text)
    assert found is not None
    return json.loads(found[1])


def without_clock(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key not in VOLATILE}


def test_a_new_player_gets_the_default_settings_and_no_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(GameService, "current", unreadable)  # the store is not asked
    assert page_data(client) == {"settings": DEFAULTS, "current": None}
    assert "bonanza_player" in client.cookies  # issued with the page


def test_the_local_player_gets_their_game_without_a_cookie(tmp_path: Path) -> None:
    app = create_app(SQLiteStorage(tmp_path / "games.db"), local_player=LOCAL)
    with TestClient(app) as local:
        game = local.post("/api/games", json={}).json()
        local.cookies.clear()
        assert page_data(local)["current"]["id"] == game["id"]


def test_a_returning_player_gets_their_settings_and_game_as_the_api_answers(
    client: TestClient,
) -> None:
    client.post("/api/settings", json={"theme": "dark", "volume": 40})
    game = client.post("/api/games", json={}).json()
    client.post(f"/api/games/{game['id']}/moves", json={"move": "sw"})
    data = page_data(client)
    assert data["settings"] == client.get("/api/settings").json()
    assert data["settings"]["theme"] == "dark"
    current = client.get("/api/games/current").json()
    assert current["id"] == game["id"] and current["moves"] == 1
    assert without_clock(data["current"]) == without_clock(current)


def test_what_cannot_be_read_is_left_out_for_the_page_to_ask(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.get("/api/settings")  # a player with a cookie
    monkeypatch.setattr(GameService, "current", unreadable)
    assert page_data(client) == {"settings": DEFAULTS}


def test_the_data_cannot_end_its_script_element() -> None:
    text = embedded_json({"typed": "</script><script>alert(1)</script>", "note": "<!-- & -->"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["typed"] == "</script><script>alert(1)</script>"
