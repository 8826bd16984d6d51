"""The daily deal played again, through the API: a replay is still the day's daily deal
(its label), counts as a replay and never enters the leaderboard nor the daily statistics,
however the deal was first given (the daily deal, or its code typed)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from .test_daily_api import Clock, stored_deal
from .test_leaderboard_api import (
    BOARD,
    DAILY,
    client,  # noqa: F401 (a fixture)
    clock_of,
    new_player,
    start,
    win,
)


def fastest(server: TestClient) -> list[tuple[float, bool]]:
    """Today's board of draw 1 by time: each entry's time and whether it is the asker's."""
    board = server.get(f"{BOARD}?draw=1").json()
    return [(row["elapsed"], row["you"]) for row in board["fastest"]]


def first_daily(server: TestClient) -> tuple[Clock, dict[str, Any]]:
    """A new player wins today's daily deal of draw 1, a move every 2 s: the clock, the game."""
    clock = clock_of(server)
    new_player(server)
    return clock, win(server, clock, start(server, DAILY), pace=2.0)


def test_a_daily_game_played_again_is_still_the_daily_deal_and_a_replay(
    client: TestClient,  # noqa: F811 (the imported fixture)
) -> None:
    clock, first = first_daily(client)
    assert (first["daily"], first["origin"]) == ("2025-12-01", "shared")
    again = start(client, {"replay": first["id"]})  # "play again"
    assert (again["daily"], again["origin"]) == ("2025-12-01", "replay")
    assert again["grade"] == first["grade"]
    replay = win(client, clock, again, pace=0.5)
    assert replay["elapsed"] < first["elapsed"]
    assert fastest(client) == [(first["elapsed"], True)]
    stats = client.get("/api/daily?draw=1").json()["stats"]
    assert (stats["played"], stats["won"], stats["best_time"]) == (1, 1, first["elapsed"])


def test_the_daily_deal_typed_as_its_code_first_is_a_replay_off_the_board(
    client: TestClient,  # noqa: F811 (the imported fixture)
) -> None:
    clock, ann = first_daily(client)
    code = stored_deal(client, ann["id"]).code  # what a finished game shows
    new_player(client)
    practice = win(client, clock, start(client, {"deal": code}), pace=0.1)
    assert practice["typed"] == code and practice["deal"] == stored_deal(client, ann["id"]).id
    daily = win(client, clock, start(client, DAILY), pace=0.1)
    assert daily["origin"] == "replay"
    assert fastest(client) == [(ann["elapsed"], False)]
