"""The daily leaderboard through the API: games played from the daily deal by the server's
checked moves enter it; an assisted game, a replay or a thoughtful game does not; names
are the players' own text, and no answer tells whose an entry is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.core import Rules
from bonanza.core.notation import format_move
from bonanza.play.leaderboard import ANONYMOUS, NAME_LENGTH
from bonanza.solver import solve
from bonanza.web.players import COOKIE

from .test_daily_api import Clock, FakeFinder, full, make_client, stored_deal, wait_until

BOARD = "/api/daily/leaderboard"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A server at noon whose daily deal of draw 1 is ready; its clock: ``clock_of``."""
    with make_client(tmp_path, Clock(), FakeFinder()) as test_client:
        test_client.get("/api/games/current")  # starts the filler
        wait_until(lambda: full(test_client, Rules()))
        yield test_client


def clock_of(client: TestClient) -> Clock:
    clock: Clock = client.app.state.service.clock  # type: ignore[attr-defined]
    return clock


def new_player(client: TestClient) -> str:
    """Become a new player (a new cookie); their token."""
    client.cookies.clear()
    client.get("/api/settings")
    token = client.cookies.get(COOKIE)
    assert token
    return str(token)


def start(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def win(client: TestClient, clock: Clock, state: dict[str, Any], pace: float) -> dict[str, Any]:
    """Play the solver's line for the stored deal, a move every ``pace`` seconds."""
    rules = Rules.from_dict(state["rules"])
    for move in solve(stored_deal(client, state["id"]), rules).moves:
        clock.now += pace
        answer = client.post(f"/api/games/{state['id']}/moves", json={"move": format_move(move)})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    assert state["won"]
    return state


DAILY = {"daily": "today", "draw": 1}


def test_only_daily_games_won_at_the_first_try_unassisted_enter_fastest_first(
    client: TestClient,
) -> None:
    clock = clock_of(client)
    tokens = [new_player(client)]
    ann = win(client, clock, start(client, DAILY), pace=2.0)
    named = client.post("/api/daily/name", json={"name": " <b>Ann</b>\u202e "})
    assert named.status_code == 200 and named.json() == {"name": "<b>Ann</b>"}
    deal = stored_deal(client, ann["id"]).id  # as stored: a code of it passes for another deal
    tokens.append(new_player(client))
    bob = win(client, clock, start(client, DAILY), pace=1.0)
    tokens.append(new_player(client))  # assisted: "still winnable?" asked
    cy = start(client, DAILY)
    assert client.post(f"/api/games/{cy['id']}/winnable", json={}).status_code == 200
    assert win(client, clock, cy, pace=0.1)["assisted"]
    tokens.append(new_player(client))  # a replay: the deal played before
    win(client, clock, start(client, {"deal": deal}), pace=0.1)
    assert win(client, clock, start(client, DAILY), pace=0.1)["origin"] == "replay"
    tokens.append(new_player(client))  # thoughtful: every card face up
    thoughtful = {"deal": deal, "rules": Rules(thoughtful=True).to_dict()}
    win(client, clock, start(client, thoughtful), pace=0.1)
    board = client.get(f"{BOARD}?draw=1")
    assert board.status_code == 200, board.text
    found = board.json()
    assert found["day"] == "2025-12-01" and found["name"] is None
    assert found["fastest"] == [
        {"place": 1, "name": ANONYMOUS, "elapsed": bob["elapsed"], "moves": bob["moves"],
         "you": False},
        {"place": 2, "name": "<b>Ann</b>", "elapsed": ann["elapsed"], "moves": ann["moves"],
         "you": False},
    ]  # fmt: skip
    assert all(token not in board.text for token in tokens)  # nobody's cookie
    assert ann["id"] not in board.text and stored_deal(client, ann["id"]).code not in board.text
    client.cookies.set(COOKIE, tokens[0])
    mine = client.get(f"{BOARD}?draw=1").json()
    assert mine["name"] == "<b>Ann</b>" and [row["you"] for row in mine["fastest"]] == [False, True]
    assert client.get(f"{BOARD}?draw=3").json()["fastest"] == []


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (f"{BOARD}?draw=2", "draw 1 or 3"),
        (f"{BOARD}?draw=1&day=2025-12-02", "not out yet"),
        (f"{BOARD}?draw=1&day=" + "x" * 500, "is not 'today' nor a date"),
    ],
)
def test_a_bad_board_request_is_named(client: TestClient, path: str, words: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 422 and words in answer.json()["error"], answer.text


def test_a_name_too_long_is_refused_and_an_empty_one_is_anonymous(client: TestClient) -> None:
    for name in ("x" * (NAME_LENGTH + 1), "y" * 1000):  # (a far longer body is a 413)
        refused = client.post("/api/daily/name", json={"name": name})
        assert refused.status_code == 422 and str(NAME_LENGTH) in refused.json()["error"]
    assert client.post("/api/daily/name", json={"name": "Zed"}).json() == {"name": "Zed"}
    assert client.post("/api/daily/name", json={"name": ""}).json() == {"name": None}
    assert client.post("/api/daily/name", json={"name": 5}).status_code == 422
