"""Winnable deals from the stock, and the daily deal, through the API."""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bonanza.core import Deal, Rules
from bonanza.core.notation import format_move
from bonanza.play.deal_stock import DealStock, stock_key
from bonanza.session import Status
from bonanza.solver import solve
from bonanza.solver.grading import Grade, GradedDeal
from bonanza.storage import SQLiteStorage
from bonanza.storage.records import rules_key
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.service import GameService

DAY = 86_400.0
NOON = 1_764_590_400.0  # 2025-12-01 12:00 UTC
WINNABLE_DRAW_1 = (0, 4, 7, 9, 16, 34, 2, 3, 5, 6, 10, 11, 12, 13, 14, 15, 19, 21, 22, 23)
"""Deals the solver wins with draw 1 (and quickly): the fake finder deals them in turn."""
PER_GRADE = 2
WAIT = 30.0


class FakeFinder:
    """Graded deals without a search: known winnable deals, grades in turn."""

    def __init__(self, numbers: tuple[int, ...] = WINNABLE_DRAW_1, *, found: bool = True) -> None:
        self.numbers = itertools.cycle(numbers)
        self.grades = itertools.cycle(Grade)
        self.found = found
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, rules: Rules, stopping: Callable[[], bool]) -> GradedDeal | None:
        with self.lock:
            self.calls += 1
            if not self.found:
                time.sleep(0.01)
                return None
            return GradedDeal(Deal.from_number(next(self.numbers)), next(self.grades), 0.5, 1)


class Clock:
    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_client(
    tmp_path: Path, clock: Clock, finder: Any, *, per_grade: int = PER_GRADE
) -> TestClient:
    limits = ServerLimits(new_games_per_minute=1000)
    app = create_app(SQLiteStorage(tmp_path / "games.db"), clock=clock, limits=limits)
    svc: GameService = app.state.service
    svc.stock = DealStock(svc.storage, clock, finder=finder, per_grade=per_grade, first_delay=0)
    return TestClient(app)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with make_client(tmp_path, clock, FakeFinder()) as test_client:
        yield test_client


def stock_of(client: TestClient) -> DealStock:
    svc: GameService = client.app.state.service  # type: ignore[attr-defined]
    return svc.stock


def wait_until(ready: Callable[[], bool], timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert time.monotonic() < deadline, "the stock never filled"
        time.sleep(0.02)


def full(client: TestClient, rules: Rules, per_grade: int = PER_GRADE) -> bool:
    return all(count == per_grade for count in stock_of(client).counts(rules).values())


def stored_deal(client: TestClient, game_id: str) -> Deal:
    record = stock_of(client).storage.get_game(game_id)
    assert record is not None
    return Deal.parse(record.deal)


def win(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    """Play the solver's line for the stored deal (the test knows what the page cannot)."""
    rules = Rules.from_dict(state["rules"])
    for move in solve(stored_deal(client, state["id"]), rules).moves:
        answer = client.post(f"/api/games/{state['id']}/moves", json={"move": format_move(move)})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    assert state["won"]
    return state


def test_a_winnable_deal_comes_at_once_from_the_stock_and_the_stock_refills(
    client: TestClient,
) -> None:
    client.get("/api/games/current")  # the first request starts the filler
    stock = stock_of(client)
    wait_until(lambda: full(client, Rules()) and full(client, Rules(draw=3)))
    searched = stock.searched
    started = time.perf_counter()
    answer = client.post("/api/games", json={"rules": Rules().to_dict(), "grade": "hard"})
    assert time.perf_counter() - started < 1.0
    assert answer.status_code == 201, answer.text
    state = answer.json()
    assert state["grade"] == "hard" and state["announce"] == "New winnable deal, hard"
    assert state["origin"] == "winnable"  # the player picked its grade: it counts apart
    # The filler was idle with the stock full: the take woke it, and it refilled.
    wait_until(lambda: full(client, Rules()) and stock.searched > searched)
    # Scoring and thoughtful play change no verdict: they share the stock (passes do not).
    timed = Rules.from_dict({"scoring": "timed", "thoughtful": True})
    assert stock_key(timed) == stock_key(Rules()) != stock_key(Rules.preset("vegas-1"))


def test_an_empty_grade_falls_back_to_the_nearest(client: TestClient) -> None:
    client.get("/api/games/current")
    wait_until(lambda: full(client, Rules()))
    stock_of(client).stop()  # no refill: easy runs out of stock
    for _ in range(PER_GRADE):
        assert client.post("/api/games", json={"grade": "easy"}).json()["grade"] == "easy"
    state = client.post("/api/games", json={"grade": "easy"}).json()
    assert state["grade"] == "medium"
    assert state["announce"] == "No easy deal was ready: this winnable deal is medium"


def test_an_empty_stock_says_so_plainly(tmp_path: Path, clock: Clock) -> None:
    finder = FakeFinder(found=False)
    with make_client(tmp_path, clock, finder) as empty:
        three = Rules(draw=3).to_dict()
        answer = empty.post("/api/games", json={"rules": three, "grade": "medium"})
        assert answer.status_code == 409
        assert answer.json()["error"].startswith("No winnable deal is ready for these rules yet")
        daily = empty.post("/api/games", json={"daily": "today", "draw": 1})
        assert daily.status_code == 409
        assert "daily deal of 2025-12-01 is not ready yet" in daily.json()["error"]
        wait_until(lambda: finder.calls > 0)  # it is looking, in the background


def test_an_unusual_rule_set_gets_a_stock_of_its_own(client: TestClient) -> None:
    odd = Rules(draw=2, recall=False)
    first = client.post("/api/games", json={"rules": odd.to_dict(), "grade": "easy"})
    assert first.status_code == 409  # asked for the first time: none found yet
    wait_until(lambda: full(client, odd))
    again = client.post("/api/games", json={"rules": odd.to_dict(), "grade": "easy"})
    assert again.status_code == 201 and again.json()["rules"]["draw"] == 2


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"grade": "brutal"}, "grade 'brutal' is not one of easy, medium, hard"),
        ({"grade": 3}, "field 'grade' has the wrong type"),
        ({"grade": "easy", "deal": "7"}, "takes no deal, share or replay"),
        ({"daily": "yesterday", "draw": 1}, "is not 'today' nor a date"),
        ({"daily": "2025-12-02", "draw": 1}, "the daily deal of 2025-12-02 is not out yet"),
        ({"daily": "2025-10-01", "draw": 1}, "the calendar goes back 30 days"),
        ({"daily": "today", "draw": 2}, "draw 1 or draw 3"),
        ({"daily": "today"}, "field 'draw' is missing"),
        ({"daily": "today", "rules": {"draw": 3}}, "field 'draw' is missing"),
    ],
)
def test_bad_winnable_and_daily_requests_are_named(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422, answer.text
    assert words in answer.json()["error"]


def test_the_daily_page_refuses_a_bad_draw(client: TestClient) -> None:
    answer = client.get("/api/daily?draw=2")
    assert answer.status_code == 422 and "draw 1 or 3" in answer.json()["error"]


def test_the_deal_check_says_plainly_what_is_wrong(client: TestClient) -> None:
    for text in ("hello", "7H 8H", "12345678901234567890123"):
        answer = client.post("/api/deals/check", json={"deal": text})
        assert answer.status_code == 422
        assert answer.json()["error"] == "That is not a deal number, code or share link"
    code = Deal.from_number(7).code
    for text in ("7", code, " 7 "):
        assert client.post("/api/deals/check", json={"deal": text}).json() == {"valid": True}
    assert client.post("/api/deals/check", json={}).status_code == 422


def test_the_daily_deal_is_the_same_for_everyone_on_a_date(
    client: TestClient, clock: Clock
) -> None:
    client.get("/api/games/current")
    wait_until(lambda: full(client, Rules()))
    first = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
    assert first["daily"] == "2025-12-01" and first["grade"] in {"easy", "medium", "hard"}
    assert first["origin"] == "shared"  # everyone has it: a chosen deal in the main statistics
    assert "deal" not in first
    client.cookies.clear()  # another player
    clock.now += 3600
    second = client.post("/api/games", json={"daily": "2025-12-01", "draw": 1}).json()
    assert stored_deal(client, second["id"]) == stored_deal(client, first["id"])
    assert second["position"] == first["position"]
    other_draw = client.post("/api/games", json={"daily": "today", "draw": 3}).json()
    assert other_draw["rules"]["draw"] == 3
    clock.now += DAY  # the next day, another deal
    tomorrow = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
    assert tomorrow["daily"] == "2025-12-02"
    assert stored_deal(client, tomorrow["id"]) != stored_deal(client, first["id"])
    # Yesterday's is still yesterday's, from the calendar.
    again = client.post("/api/games", json={"daily": "2025-12-01", "draw": 1}).json()
    assert stored_deal(client, again["id"]) == stored_deal(client, first["id"])


def test_daily_statistics_and_streak(client: TestClient, clock: Clock) -> None:
    client.get("/api/games/current")
    wait_until(lambda: full(client, Rules()))
    for _ in range(2):  # two days won in a row
        state = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
        clock.now += 30
        win(client, state)
        clock.now += DAY
    page = client.get("/api/daily?draw=1").json()
    assert page["today"] == "2025-12-03"
    assert page["stats"]["played"] == 2 and page["stats"]["won"] == 2
    assert page["stats"]["current_streak"] == 2 and page["stats"]["best_streak"] == 2
    assert page["stats"]["best_time"] is not None
    assert [day["result"] for day in page["days"][:3]] == [None, "won", "won"]
    # Today's deal, lost: the streak ends; a replay won later that day counts nowhere.
    today = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
    client.post(f"/api/games/{today['id']}/moves", json={"move": "sw"})
    replay = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
    assert replay["origin"] == "replay"
    win(client, replay)
    stats = client.get("/api/daily?draw=1").json()["stats"]
    assert (stats["played"], stats["won"], stats["current_streak"]) == (3, 2, 0)
    # A past day from the calendar is a chosen deal and leaves the daily figures alone.
    past = client.post("/api/games", json={"daily": "2025-11-20", "draw": 1}).json()
    assert past["origin"] == "shared" and past["daily"] == "2025-11-20"
    win(client, past)
    assert client.get("/api/daily?draw=1").json()["stats"] == stats
    assert client.get("/api/daily?draw=3").json()["stats"]["played"] == 0
    headline = client.get("/api/stats").json()
    assert headline["groups"] == []  # daily games are chosen deals there


def test_the_filler_starts_with_the_first_request_and_stops_at_shutdown(
    tmp_path: Path, clock: Clock
) -> None:
    with make_client(tmp_path, clock, FakeFinder()) as test:
        stock = stock_of(test)
        assert not stock.running  # not before the first request
        test.get("/api/games/current")
        wait_until(lambda: full(test, Rules()))
        assert stock.running
    assert not stock.running  # the app's shutdown stopped it


def test_the_stock_is_kept_across_a_restart(tmp_path: Path, clock: Clock) -> None:
    with make_client(tmp_path, clock, FakeFinder()) as first:
        first.get("/api/games/current")
        wait_until(lambda: full(first, Rules()))
    finder = FakeFinder()
    with make_client(tmp_path, clock, finder) as second:
        assert full(second, Rules())  # before any search of its own
        assert second.post("/api/games", json={"grade": "medium"}).status_code == 201


def test_stocked_deals_are_proven_winnable_by_the_solver(tmp_path: Path, clock: Clock) -> None:
    """With the real finder: a stocked deal, given up, is shown; the solver wins it."""
    with make_client(tmp_path, clock, None, per_grade=1) as real:  # the real finder
        real.get("/api/games/current")
        stock = stock_of(real)
        daily_key = rules_key(Rules())

        def ready() -> bool:  # today's daily deal comes first, then the stock
            made = stock.storage.daily_deal("2025-12-01", daily_key) is not None
            return made and any(stock.counts(Rules()).values())

        wait_until(ready, timeout=180)
        state = real.post("/api/games", json={"grade": "medium"}).json()
        assert state["grade"] in {"easy", "medium", "hard"}
        real.post(f"/api/games/{state['id']}/moves", json={"move": "sw"})
        real.post("/api/games", json={})  # the winnable game ends, lost
        over = real.get(f"/api/games/{state['id']}").json()
        assert over["status"] == "lost"
        assert solve(Deal.parse(over["deal"]), Rules(), time_limit=30).result == "solved"


def test_leaving_the_daily_deal_to_see_it_and_winning_it_again_wins_nothing(
    client: TestClient, clock: Clock
) -> None:
    """Issue 31: start today's deal twice; the first ends abandoned and shows the
    deal; solved offline and played in the second, it counted as won in 0.7 s."""
    client.get("/api/games/current")
    wait_until(lambda: full(client, Rules()))
    first = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
    second = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
    left = client.get(f"/api/games/{first['id']}").json()
    assert left["status"] == "lost"  # a daily game counts from the deal
    clock.now += 0.7
    win(client, second)
    stats = client.get("/api/daily?draw=1").json()["stats"]
    assert (stats["played"], stats["won"], stats["best_time"]) == (1, 0, None)
    assert stats["current_streak"] == 0


def test_no_other_game_shows_a_daily_deal_while_its_counted_game_is_in_play(
    client: TestClient, clock: Clock
) -> None:
    """The day's counted game in play elsewhere (the terminal, say): a finished web
    game of the same deal shows neither its deal, nor its code, nor a review."""
    client.get("/api/games/current")
    wait_until(lambda: full(client, Rules()))
    storage = stock_of(client).storage
    counted = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
    assert isinstance(storage, SQLiteStorage) and storage.get_game(counted["id"]) is not None
    # As if started in the terminal, and still in play there (a game's client is its
    # insert's, which no update of the store changes: written here by hand).
    with contextlib.closing(sqlite3.connect(storage.path)) as db, db:
        db.execute(
            "UPDATE games SET client='terminal', version=version+1 WHERE id=?", (counted["id"],)
        )
    record = storage.get_game(counted["id"])
    assert record is not None and record.client == "terminal"
    other = client.post("/api/games", json={"daily": "today", "draw": 1}).json()
    client.post(f"/api/games/{other['id']}/moves", json={"move": "sw"})
    client.post("/api/games", json={})  # the web game ends, lost
    over = client.get(f"/api/games/{other['id']}").json()
    assert over["status"] == "lost"
    assert "deal" not in over and "deal_code" not in over
    review = client.get(f"/api/games/{other['id']}/review")
    assert review.status_code == 409 and "still in play" in review.json()["error"]
    exported = client.get("/api/stats/export").json()["games"]
    assert [game["deal"] for game in exported if game["id"] == other["id"]] == [None]
    record.status = Status.LOST  # the counted game ends: now the deal may show
    record.version += 1
    storage.update_game(record)
    assert "deal_code" in client.get(f"/api/games/{other['id']}").json()
