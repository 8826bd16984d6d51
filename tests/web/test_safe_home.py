"""Safe auto-play on the web: the player's setting, the automatic moves, one undo."""

from __future__ import annotations

import random
from typing import Any

from starlette.testclient import TestClient

from .test_api import new_game


def random_moves_until_steps(client: TestClient, state: Any, seed: int) -> tuple[Any, Any]:
    """Play random legal moves until an answer carries automatic moves."""
    rng = random.Random(seed)
    for _ in range(300):
        before = state
        legal = state["position"]["legal"]
        home = [m for m in legal if m["dest"] >= 9 and m["source"] < 9]
        move = rng.choice(home if home and rng.random() < 0.5 else legal)
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": move["text"]})
        assert response.status_code == 200, response.text
        state = response.json()
        if state.get("steps") or state["status"] != "playing":
            return before, state
    raise AssertionError("no automatic move came")


def test_the_setting_is_the_players_and_off_by_default(client: TestClient) -> None:
    assert client.get("/api/settings").json()["safe_home"] is False
    state = new_game(client, "3")
    assert state["safe_home"] is False
    assert client.post("/api/settings", json={"safe_home": True}).json()["safe_home"] is True
    assert client.get(f"/api/games/{state['id']}").json()["safe_home"] is True  # in play too
    assert new_game(client, "4")["safe_home"] is True
    assert client.post("/api/settings", json={"safe_home": "yes"}).status_code == 422
    assert client.post("/api/settings", json={}).status_code == 422


def test_safe_cards_go_home_each_shown_and_one_undo_takes_them_back(client: TestClient) -> None:
    client.post("/api/settings", json={"safe_home": True})
    state = new_game(client, "11")
    before, state = random_moves_until_steps(client, state, 1)
    assert state["status"] == "playing"
    steps = state["steps"]
    homes = [state["last"], *(step["last"] for step in steps[1:])]
    assert all(move["dest"] >= 9 for move in homes)  # each automatic move went home
    assert state["position"]["home"] == before["position"]["home"] + len(steps) + (
        steps[0]["last"]["dest"] >= 9
    )
    assert "sent home safely" in state["announce"]
    undone = client.post(f"/api/games/{state['id']}/undo", json={}).json()
    assert undone["moves"] == before["moves"] and undone["position"] == before["position"]
    redone = client.post(f"/api/games/{state['id']}/redo", json={}).json()
    assert redone["position"] == state["position"]


def test_with_the_setting_off_no_move_is_followed(client: TestClient) -> None:
    state = new_game(client, "11")
    rng = random.Random(1)
    for _ in range(80):
        move = rng.choice(state["position"]["legal"])
        state = client.post(f"/api/games/{state['id']}/moves", json={"move": move["text"]}).json()
        assert "steps" not in state
        if state["status"] != "playing":
            break
