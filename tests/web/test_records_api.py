"""The winning move's answer names the records it sets, computed by the server from stored games."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.core import Deal, Rules
from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits

from . import deals, search

KLONDIKE = Rules.preset("klondike")


@cache
def two_winning() -> list[tuple[int, list[str]]]:
    """Two different winnable draw-1 deals and their winning lines."""
    first, moves = deals.winning()
    second, more = search.find_winnable(KLONDIKE, range(int(first) + 1, 400))
    return [(int(first), deals.texts(moves)), (second, deals.texts(more))]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    numbers = iter(number for number, _line in two_winning())
    app = create_app(
        SQLiteStorage(tmp_path / "games.db"),
        clock,
        ServerLimits(search_processes=False),
        random_deals=lambda: Deal.from_number(next(numbers)),
    )
    with TestClient(app) as test_client:
        yield test_client


def win(
    client: TestClient, clock: Clock, line: list[str], seconds: float, **start: Any
) -> dict[str, Any]:
    """Start a game and play ``line`` to its win in about ``seconds`` of play; the last answer."""
    started = client.post("/api/games", json=start)
    assert started.status_code == 201, started.text
    gid = started.json()["id"]
    gap = seconds / (len(line) - 1)  # the clock starts at the first move
    answer: dict[str, Any] = {}
    for count, text in enumerate(line, 1):
        if count > 1:
            clock.now += gap
        response = client.post(f"/api/games/{gid}/moves", json={"move": text})
        assert response.status_code == 200, response.text
        answer = response.json()
        if count < len(line):
            assert not {"records", "first_win", "in_records"} & set(answer)
    assert answer["won"]
    return answer


def test_the_first_win_then_a_faster_win_sets_best_time_and_streak(
    client: TestClient, clock: Clock
) -> None:
    (_, first_line), (_, second_line) = two_winning()
    first = win(client, clock, first_line, 185.0)
    assert first["origin"] == "random"
    assert first["first_win"] is True and first["records"] == [] and first["in_records"]
    (before,) = client.get("/api/stats").json()["groups"]
    second = win(client, clock, second_line, 151.0)
    assert second["first_win"] is False
    by_name = {r["name"]: r for r in second["records"]}
    assert by_name["best_time"] == {"name": "best_time", "value": 151.0, "previous": 185.0}
    assert by_name["longest_streak"] == {"name": "longest_streak", "value": 2, "previous": 1}
    assert set(by_name) <= {"best_time", "best_score", "fewest_moves", "longest_streak"}
    (after,) = client.get("/api/stats").json()["groups"]
    assert after["best_time"] == 151.0 and after["best_streak"] == 2
    assert before["best_time"] == 185.0
    if "fewest_moves" in by_name:
        assert by_name["fewest_moves"]["previous"] == before["fewest_moves"]
        assert by_name["fewest_moves"]["value"] == after["fewest_moves"] == len(second_line)
    else:
        assert len(second_line) >= len(first_line)


def test_a_typed_deal_won_faster_sets_no_record(client: TestClient, clock: Clock) -> None:
    (_, first_line), (number, second_line) = two_winning()
    win(client, clock, first_line, 185.0)
    typed = win(client, clock, second_line, 40.0, deal=str(number))
    assert typed["origin"] == "typed"
    assert typed["first_win"] is False and typed["records"] == [] and not typed["in_records"]
    (headline,) = client.get("/api/stats").json()["groups"]
    assert headline["best_time"] == 185.0


def test_a_first_win_under_other_rules_is_a_first_win_again(
    client: TestClient, clock: Clock
) -> None:
    (_, first_line), (_, second_line) = two_winning()
    win(client, clock, first_line, 185.0)
    timed = Rules.from_dict({"scoring": "timed"}).to_dict()
    other = win(client, clock, second_line, 60.0, rules=timed)
    assert other["first_win"] is True and other["records"] == []
