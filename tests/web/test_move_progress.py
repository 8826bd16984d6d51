"""A move's answer carries the progress check, so that a move is one request."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from . import deals

PROGRESS_KEYS = {"progress", "auto_finish"}
SHARE_AT_HAND = 0.9
"""Of random play's move answers, at least this share carry the check (the quick
first try decides nearly all of them; the rest are left to the page to ask)."""


def move(client: TestClient, game_id: str, text: str) -> Any:
    response = client.post(f"/api/games/{game_id}/moves", json={"move": text})
    assert response.status_code == 200, response.text
    return response.json()


def asked(client: TestClient, game_id: str) -> Any:
    response = client.get(f"/api/games/{game_id}/progress")
    assert response.status_code == 200, response.text
    return response.json()


def test_move_answers_carry_what_the_progress_check_says(client: TestClient) -> None:
    pytest.importorskip("bonanza.solver.progress")
    rng = random.Random(32)
    answers = carried = 0
    for _game in range(4):
        state = client.post("/api/games", json={}).json()
        while state["status"] == "playing" and state["has_moves"] and state["moves"] < 60:
            state = move(client, state["id"], rng.choice(state["position"]["legal"])["text"])
            answers += 1
            if "progress" in state:
                carried += 1
                assert set(state["progress"]) <= PROGRESS_KEYS | {"unavailable"}
                assert state["progress"] == asked(client, state["id"])
    assert answers > 100 and carried >= SHARE_AT_HAND * answers


def test_the_move_after_which_nothing_helps_says_so_in_its_answer(client: TestClient) -> None:
    pytest.importorskip("bonanza.solver.progress")
    number, line = deals.stuck()
    state = client.post(
        "/api/games", json={"deal": number, "rules": deals.NO_RECALL.to_dict()}
    ).json()
    for text in deals.texts(line[:-1]):
        state = move(client, state["id"], text)
    assert state["progress"]["progress"] is not False  # progress was still possible
    state = move(client, state["id"], deals.texts(line)[-1])
    assert state["has_moves"] and state["progress"] == {"progress": False, "auto_finish": False}


def test_a_finished_game_needs_no_check(client: TestClient) -> None:
    number, moves = deals.winning()
    state = client.post("/api/games", json={"deal": number}).json()
    for text in deals.texts(moves):
        state = move(client, state["id"], text)
    assert state["won"] and state["progress"] == {"progress": None, "auto_finish": False}
