"""The hot path answers the requests of play exactly as the app would, and only those
that pass every check; the rest go on to the app."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

import pytest
from starlette.testclient import TestClient

from bonanza.storage import SQLiteStorage
from bonanza.web.app import create_app
from bonanza.web.hot_path import HotPath

COMPARED_HEADERS = ("content-type", "cache-control", "x-content-type-options", "connection")
CHANGING = {"id", "elapsed", "idle_cap"}
"""Fields that differ between two games of one deal played side by side (the clock's)."""
JSON = {"Content-Type": "application/json"}
SAME_ORIGIN = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
ROUNDS = 150


class PostOptions(TypedDict, total=False):
    """Keyword arguments of a test client's ``post``."""

    headers: dict[str, str]
    content: bytes


def hot_path(client: TestClient) -> HotPath:
    """The app's hot path (the outermost of its middleware, built on the first request)."""
    layer: Any = client.app.middleware_stack  # type: ignore[attr-defined]
    while not isinstance(layer, HotPath):
        layer = layer.app
    return layer


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on stores of their own: the second with its hot path passing every request on."""
    fast = TestClient(create_app(SQLiteStorage(tmp_path / "fast.db")))
    slow = TestClient(create_app(SQLiteStorage(tmp_path / "slow.db")))
    with fast, slow:
        for client in (fast, slow):
            client.get("/api/settings")  # a player cookie, and the middleware built
        hot_path(slow).__dict__["_handler"] = lambda scope: None  # every request to the app
        yield fast, slow


def seen(response: Any, game_id: str) -> tuple[int, Any, list[str | None]]:
    """What a client sees of an answer, less what differs between two games."""
    data = json.loads(response.text.replace(game_id, "{id}"))
    if isinstance(data, dict):
        data = {key: value for key, value in data.items() if key not in CHANGING}
    headers = [response.headers.get(name) for name in COMPARED_HEADERS]
    return response.status_code, data, headers


def requests_of(game: str, rng: random.Random, state: Any) -> list[tuple[str, str, Any]]:
    """A round of requests on ``game`` (method, path, keyword arguments)."""
    base = f"/api/games/{game}"
    legal = state["position"]["legal"] if "position" in state else []
    move = rng.choice(legal)["text"] if legal else "sw"
    choices: list[tuple[str, str, Any]] = [
        ("POST", base + "/moves", {"json": {"move": move}}),
        ("POST", base + "/moves", {"json": {"move": move}, "headers": SAME_ORIGIN}),
        ("POST", base + "/undo", {}),
        ("POST", base + "/redo", {"json": {}}),
        ("POST", base + "/auto", {}),
        ("GET", base + "/progress", {}),
        ("GET", base, {}),
        ("GET", "/api/games/current", {}),
        ("POST", base + "/moves", {"json": {"move": "zz"}}),
        ("POST", base + "/moves", {"json": {"move": 5}}),
        ("POST", base + "/moves", {"json": [1]}),
        ("POST", base + "/moves", {"content": b"{", "headers": JSON}),
        ("POST", base + "/moves", {"content": b"", "headers": JSON}),
        ("POST", base + "/moves", {"json": {"source": 99, "dest": 1}}),
        ("POST", base + "/undo", {"content": b"x", "headers": {"Content-Type": "text/plain"}}),
        ("POST", base + "/moves", {"json": {"move": move}, "headers": {"Origin": "http://evil"}}),
        ("POST", "/api/games/nope/moves", {"json": {"move": move}}),
        ("GET", "/api/games/nope/progress", {}),
        ("POST", base + "/moves/", {"json": {"move": move}}),
        ("GET", base + "/moves", {}),
    ]
    return [rng.choice(choices) for _ in range(3)]


def test_the_hot_path_answers_as_the_app_would(pair: tuple[TestClient, TestClient]) -> None:
    fast, slow = pair
    states = [c.post("/api/games", json={"deal": "7"}).json() for c in pair]
    rng = random.Random(32)
    for _round in range(ROUNDS):
        state = states[0]
        if state.get("status", "playing") != "playing":
            break
        for method, path, options in requests_of("{id}", rng, state):
            answers = []
            for index, client in enumerate(pair):
                game_id = states[index]["id"]
                response = client.request(method, path.replace("{id}", game_id), **options)
                answers.append(seen(response, game_id))
                data = response.json()
                if response.status_code == 200 and data.get("id") == game_id:
                    states[index] = data
            assert answers[0] == answers[1], (method, path, options)
    served = hot_path(fast).served
    assert hot_path(slow).served == 0
    assert served >= ROUNDS  # most requests took the hot path: the comparison means something


def test_a_player_with_no_game_yet_gets_204_as_from_the_app(
    pair: tuple[TestClient, TestClient],
) -> None:
    answers = [client.get("/api/games/current") for client in pair]
    assert [a.status_code for a in answers] == [204, 204] and answers[0].content == b""
    assert {name: answers[0].headers.get(name) for name in COMPARED_HEADERS} == {
        name: answers[1].headers.get(name) for name in COMPARED_HEADERS
    }
    assert hot_path(pair[0]).served == 1 and hot_path(pair[1]).served == 0


def test_requests_in_doubt_go_on_to_the_app(client: TestClient) -> None:
    game = client.post("/api/games", json={}).json()["id"]
    hot = hot_path(client)
    before = hot.served
    doubtful: list[PostOptions] = [
        {"headers": {"Origin": "http://evil.example"}},  # refused there: 403
        {"headers": {"Sec-Fetch-Site": "cross-site"}},
        {"headers": {"Content-Type": "text/plain"}, "content": b"{}"},
    ]
    for options in doubtful:
        response = client.post(f"/api/games/{game}/undo", **options)
        assert response.status_code in (400, 403, 409, 415), response.text
    other = TestClient(client.app)  # no cookie: a new player, given one by the app
    assert other.post(f"/api/games/{game}/undo").status_code == 404
    assert hot.served == before
    assert client.post(f"/api/games/{game}/undo").status_code == 409  # nothing to undo
    assert hot.served == before + 1
