"""The player's settings over the API: every setting, its default, bad values, kept per player."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.storage import SQLiteStorage
from bonanza.storage.player_settings import CARD_BACKS, CARD_SIZES, THEMES, safe_home
from bonanza.web.app import create_app

from .test_api import new_game

CARDS_JS = Path(__file__).parents[2] / "src/bonanza/web/static/js/cards.js"

DEFAULTS = {
    "card_back": "classic",
    "theme": "green",
    "left_handed": False,
    "card_size": "medium",
    "one_tap": True,
    "safe_home": False,
    "sound": True,
    "volume": 80,
}

GOOD = [
    *(("card_back", back) for back in CARD_BACKS),
    *(("theme", theme) for theme in THEMES),
    *(("card_size", size) for size in CARD_SIZES),
    ("left_handed", True),
    ("one_tap", False),
    ("safe_home", True),
    ("sound", False),
    ("volume", 0),
    ("volume", 37),
    ("volume", 100),
]

BAD = [
    ("card_back", "purple"),
    ("card_back", 1),
    ("theme", "Dark"),
    ("theme", ""),
    ("card_size", "huge"),
    ("card_size", ["small"]),
    ("left_handed", "yes"),
    ("left_handed", 1),
    ("one_tap", None),
    ("safe_home", 0),
    ("sound", "off"),
    ("volume", -1),
    ("volume", 101),
    ("volume", 50.5),
    ("volume", True),
    ("volume", "50"),
]


def settings(client: TestClient) -> Any:
    response = client.get("/api/settings")
    assert response.status_code == 200, response.text
    return response.json()


def test_a_new_player_has_every_setting_at_its_default(client: TestClient) -> None:
    assert settings(client) == DEFAULTS


@pytest.mark.parametrize(("name", "value"), GOOD)
def test_each_setting_is_kept_and_only_it_changes(
    client: TestClient, name: str, value: Any
) -> None:
    response = client.post("/api/settings", json={name: value})
    assert response.status_code == 200, response.text
    assert response.json() == {**DEFAULTS, name: value}
    assert settings(client) == {**DEFAULTS, name: value}


@pytest.mark.parametrize(("name", "value"), BAD)
def test_a_bad_value_is_a_422_that_names_the_setting_and_changes_nothing(
    client: TestClient, name: str, value: Any
) -> None:
    client.post("/api/settings", json={"theme": "dark"})
    response = client.post("/api/settings", json={"volume": 10, name: value})
    assert response.status_code == 422, response.text
    assert repr(name) in response.json()["error"]
    assert settings(client) == {**DEFAULTS, "theme": "dark"}  # the good volume was not kept


@pytest.mark.parametrize("body", [{"colour": "blue"}, {"theme": "dark", "Theme": "dark"}])
def test_an_unknown_setting_is_a_422_that_names_it(client: TestClient, body: Any) -> None:
    response = client.post("/api/settings", json=body)
    assert response.status_code == 422
    unknown = next(name for name in body if name not in DEFAULTS)
    assert f"unknown setting {unknown!r}" in response.json()["error"]
    assert settings(client) == DEFAULTS


@pytest.mark.parametrize(
    ("body", "status"),
    [(b"{}", 422), (b"[]", 422), (b'"dark"', 422), (b"", 400), (b"{theme", 400)],
)
def test_a_body_that_is_no_settings_object_is_a_clear_4xx(
    client: TestClient, body: bytes, status: int
) -> None:
    response = client.post(
        "/api/settings", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == status
    assert response.json()["error"]


def test_several_settings_change_at_once(client: TestClient) -> None:
    change = {"theme": "high-contrast", "card_size": "large", "left_handed": True, "volume": 5}
    assert client.post("/api/settings", json=change).json() == {**DEFAULTS, **change}


def test_settings_are_the_players_own_and_outlive_the_server(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with TestClient(create_app(SQLiteStorage(db))) as first:
        first.post("/api/settings", json={"theme": "dark", "one_tap": False, "safe_home": True})
        cookies = dict(first.cookies)
        assert settings(TestClient(first.app)) == DEFAULTS  # no cookie: another player
    with TestClient(create_app(SQLiteStorage(db)), cookies=cookies) as again:
        assert settings(again) == {**DEFAULTS, "theme": "dark", "one_tap": False, "safe_home": True}
    storage = SQLiteStorage(db)
    try:
        assert safe_home(storage, cookies["bonanza_player"])  # what the terminal game reads
    finally:
        storage.close()


def test_safe_home_among_others_still_switches_the_game_in_play(client: TestClient) -> None:
    state = new_game(client, "3")
    assert state["safe_home"] is False
    client.post("/api/settings", json={"safe_home": True, "theme": "dark"})
    assert client.get(f"/api/games/{state['id']}").json()["safe_home"] is True


def test_a_stored_value_no_longer_offered_reads_as_the_default(client: TestClient) -> None:
    client.post("/api/settings", json={"card_back": "red"})
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    player = client.cookies["bonanza_player"]
    storage.set_setting(f"player:{player}:card_back", "tartan")  # an older version's back
    storage.set_setting(f"player:{player}:volume", "400")
    assert settings(client) == DEFAULTS


def test_the_server_offers_the_card_backs_the_page_draws() -> None:
    text = CARDS_JS.read_text()
    found = re.search(r"export const CARD_BACKS\b(.*?)\]\)?;", text, re.DOTALL)
    assert found, "cards.js exports no CARD_BACKS list"
    ids = re.findall(r"""\bid:\s*["']([\w-]+)["']""", found.group(1))
    assert tuple(ids) == CARD_BACKS
