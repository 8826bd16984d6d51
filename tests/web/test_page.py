"""The page carries the player's settings and latest game, as the API answers them,
and a new player's first deal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.play.errors import Unavailable
from bonanza.session import Session
from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.page import embedded_json
from bonanza.web.page_words import WORDS
from bonanza.web.players import COOKIE
from bonanza.web.responses import encode
from bonanza.web.service import GameService

from .test_settings_api import DEFAULTS

DATA = re.compile(r'<script type="application/json" id="page-data">(.*?)</script>', re.S)
LOCAL = "this-machines-player"
VOLATILE = {"elapsed", "idle_cap"}
"""Changes between two answers about the same game: the clock runs (the idle
time left falls too, by a tenth of a second on a loaded machine)."""


async def unreadable(self: GameService, player: str, **_options: object) -> None:
    raise Unavailable("the game store is not answering")


NAVIGATION = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}
"""What a browser says when it opens the page to show it."""
STANDARD_RULES = {
    "draw": 1, "passes": None, "empty_column": "king", "recall": True,
    "partial_runs": True, "thoughtful": False, "scoring": "standard",
}
"""The rules of a new player's first deal: the page script's default (saved_rules.js)."""


def page_data(
    client: TestClient, path: str = "/", headers: dict[str, str] | None = None
) -> dict[str, Any]:
    page = client.get(path, headers=headers)
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert "etag" not in page.headers and "last-modified" not in page.headers
    found = DATA.search(page.text)
    assert found is not None
    data: dict[str, Any] = json.loads(found[1])
    assert data.pop("words") == json.loads(encode(WORDS))  # every page carries the words
    return data


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
    assert "history" not in data["current"]  # the page does not read it; it grows
    assert current.pop("history") == ["sw"]
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


def test_a_new_players_page_carries_their_first_deal_as_the_api_answers_it(
    client: TestClient,
) -> None:
    data = page_data(client, headers=NAVIGATION)
    started = data.pop("started")
    assert data == {"settings": DEFAULTS, "current": None}
    assert COOKIE in client.cookies  # issued with the page, which holds the player's game
    assert started["status"] == "playing" and started["moves"] == 0
    assert started["rules"] == STANDARD_RULES and started["announce"] == "New deal"
    current = client.get("/api/games/current").json()  # the same game, told no news
    told = without_clock(started)
    del told["announce"]
    assert without_clock(current) == told
    assert set(client.post("/api/games", json={}).json()) == set(started)  # the API's own answer
    client.cookies.clear()
    assert page_data(client, headers=NAVIGATION)["started"]["id"] != started["id"]


def no_game_dealt(client: TestClient, path: str, headers: dict[str, str]) -> bool:
    """Whether a new player's page at ``path`` comes without a deal, and none is stored."""
    client.cookies.clear()
    data = page_data(client, path, headers)
    return data == {"settings": DEFAULTS, "current": None} and (
        client.get("/api/games/current").status_code == 204
    )


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/", {}),  # no browser navigation: a crawler, a script
        ("/", {**NAVIGATION, "Sec-Purpose": "prefetch"}),
        ("/", {**NAVIGATION, "Sec-Purpose": "prefetch;prerender"}),
        ("/", {**NAVIGATION, "Purpose": "prefetch"}),
        ("/", {**NAVIGATION, "X-Moz": "prefetch"}),
        ("/", {"Sec-Fetch-Dest": "iframe", "Sec-Fetch-Mode": "navigate"}),
        ("/?deal=12345", NAVIGATION),  # the page starts the deal the link names
        ("/?share=abc", NAVIGATION),
    ],
)
def test_no_deal_comes_with_a_page_the_player_may_not_play(
    client: TestClient, path: str, headers: dict[str, str]
) -> None:
    assert no_game_dealt(client, path, headers)


def test_a_head_request_deals_nothing(client: TestClient) -> None:
    head = client.head("/", headers=NAVIGATION)
    assert head.status_code == 200 and head.headers["cache-control"] == "no-store"
    assert client.get("/api/games/current").status_code == 204


def test_first_deals_count_against_the_addresss_new_games_with_the_apis(
    tmp_path: Path,
) -> None:
    limits = ServerLimits(new_games_per_minute=3)
    with TestClient(create_app(SQLiteStorage(tmp_path / "games.db"), limits=limits)) as test:
        assert "started" in page_data(test, headers=NAVIGATION)
        assert test.post("/api/games", json={}).status_code == 201
        test.cookies.clear()
        assert "started" in page_data(test, headers=NAVIGATION)  # the third new game
        assert no_game_dealt(test, "/", NAVIGATION)  # a fourth: the page asks the API...
        assert test.post("/api/games", json={}).status_code == 429  # ...which refuses it


def test_a_deal_that_fails_leaves_the_page_to_ask(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def refused(self: GameService, player: str, rules: Any, **how: Any) -> None:
        raise Unavailable("the game store is not answering")

    monkeypatch.setattr(GameService, "new_game", refused)
    assert page_data(client, headers=NAVIGATION) == {"settings": DEFAULTS, "current": None}


def test_a_returning_players_page_reads_their_game_once_and_shows_it_as_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The latest game's row is read once: no second read of it, nor of its version,
    whether this process has it cached, another process changed it, or it is not cached."""
    reads: list[str] = []
    for name in ("get_game", "game_now", "game_version"):
        original = getattr(SQLiteStorage, name)

        def counted(self: SQLiteStorage, *args: Any, _f: Any = original, _n: str = name) -> Any:
            reads.append(_n)
            return _f(self, *args)

        monkeypatch.setattr(SQLiteStorage, name, counted)
    path = tmp_path / "games.db"
    with TestClient(create_app(SQLiteStorage(path), local_player=LOCAL)) as local:
        game = local.post("/api/games", json={}).json()
        local.post(f"/api/games/{game['id']}/moves", json={"move": "sw"})
        reads.clear()
        assert page_data(local)["current"]["moves"] == 1  # cached here
        other = SQLiteStorage(path)  # another process plays a move of it
        record = other.get_game(game["id"])
        assert record is not None
        changed = Session.from_json(record.state, trusted=True)
        changed.play("sw", 0.0)
        record.update(changed, 0.0)
        record.version += 1
        other.update_game(record)
        other.close()
        reads.clear()
        shown = page_data(local)["current"]
        assert shown["moves"] == 2 and reads == []
        assert local.post(f"/api/games/{game['id']}/undo", json={}).json()["moves"] == 1
    reads.clear()
    with TestClient(create_app(SQLiteStorage(path), local_player=LOCAL)) as again:
        assert page_data(again)["current"]["moves"] == 1  # not cached: the row read once
        assert reads == []
