"""Two game services on one store, in this process (issue 15): two apps, each with its own
store object and cache, as two server processes would be, serving one player's game
(one cookie). Every acknowledged request is stored, in order; a request that lost the race
is played on the game as stored or refused with 409, never a 5xx, never a lost move.

SQLite: one app writes on its event loop (``--sync normal``), the other in its writer
thread (``full``); PostgreSQL: two stores on one database.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bonanza.core import Deal, Game, Position, format_move, parse_move
from bonanza.core.view import PlayerView
from bonanza.session import Hint, Session
from bonanza.storage import SQLiteStorage, StaleGameError, Storage
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.players import COOKIE
from tests.web import deals

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's suggestion of httpx2
    from starlette.testclient import TestClient

TURNS = 16
"""Moves of the winning line played with the two apps taking turns."""
DRAWS = 25
"""Draws each of two threads asks for at once, one thread per app."""
CONFLICT = 409
REFUSALS = (CONFLICT, 422)
"""A draw asked for once the stock is out, or a turn-over while it is not: refused."""
STOCK = 24
"""Cards in a new deal's stock."""


class DrawingAdvisor:
    """Hints and progress checks without the solver: the first legal move, always progress."""

    def hint(self, view: PlayerView) -> Hint:
        move = next(iter(view.legal_moves()), None)
        return Hint(move, "a hint")

    def progress(self, position: Position) -> bool | None:
        return True


@dataclass
class Pair:
    """Two apps on one store, and a client of each with the same player's cookie."""

    first: TestClient
    second: TestClient
    stores: tuple[Storage, Storage]

    def new_game(self, deal: str) -> str:
        started = self.first.post("/api/games", json={"deal": deal})
        assert started.status_code == 201, started.text
        game_id: str = started.json()["id"]
        return game_id

    def stored_history(self, game_id: str) -> list[str]:
        record = self.stores[1].get_game(game_id)
        assert record is not None
        return [format_move(move) for move in Session.from_json(record.state).game.history]


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[int], Storage]:
    """Opens one more store object on the same new database (``n``: the how-many-th)."""
    if request.param == "sqlite":
        path = tmp_path / "games.db"
        return lambda n: SQLiteStorage(path, synchronous="NORMAL" if n == 0 else "FULL")
    from bonanza.storage.postgres import PostgresStorage

    url: str = request.getfixturevalue("postgres_url")
    return lambda n: PostgresStorage(url)


def pair_of_apps(
    open_store: Callable[[int], Storage], limits: ServerLimits | None = None
) -> Iterator[Pair]:
    stores = (open_store(0), open_store(1))
    apps = [
        create_app(store, limits=limits, advisor=DrawingAdvisor()) for store in stores
    ]  # each app closes its store at its shutdown
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        first.get("/api/settings")  # the player's cookie, which the second app gets too
        second.cookies.set(COOKIE, first.cookies[COOKIE])
        yield Pair(first, second, stores)


@pytest.fixture
def pair(open_store: Callable[[int], Storage]) -> Iterator[Pair]:
    yield from pair_of_apps(open_store)


def play(client: TestClient, game_id: str, move: str) -> Any:
    return client.post(f"/api/games/{game_id}/moves", json={"move": move})


def line_texts() -> tuple[str, list[str]]:
    """A deal and its winning line, as move texts."""
    number, line = deals.winning()
    return number, [format_move(move) for move in line]


def test_taking_turns_each_app_serves_the_others_moves(pair: Pair) -> None:
    number, line = line_texts()
    game_id = pair.new_game(number)
    clients = (pair.first, pair.second)
    for n, move in enumerate(line[:TURNS]):
        mover, other = clients[n % 2], clients[(n + 1) % 2]
        answer = play(mover, game_id, move)
        assert answer.status_code == 200, answer.text
        assert answer.json()["moves"] == n + 1 and answer.json()["last"]["text"] == line[n]
        # the other app's cache holds the game as it was: it reads it again
        assert other.get(f"/api/games/{game_id}").json()["history"] == line[: n + 1]
        assert other.get("/api/games/current").json()["history"] == line[: n + 1]
    assert pair.stored_history(game_id) == line[:TURNS]
    undone = pair.second.post(f"/api/games/{game_id}/undo", json={})
    assert undone.status_code == 200 and undone.json()["moves"] == TURNS - 1
    assert pair.stored_history(game_id) == line[: TURNS - 1]
    redone = pair.first.post(f"/api/games/{game_id}/redo", json={})  # its cache: before the undo
    assert redone.status_code == 200 and redone.json()["last"]["text"] == line[TURNS - 1]
    assert pair.stored_history(game_id) == line[:TURNS]


def test_hints_and_progress_come_from_the_game_as_stored(pair: Pair) -> None:
    number, line = line_texts()
    game_id = pair.new_game(number)
    hint_url = f"/api/games/{game_id}/hint"
    before = pair.second.get(hint_url).json()  # the game is cached there now
    assert play(pair.first, game_id, line[0]).status_code == 200
    after = pair.first.get(hint_url).json()
    assert (after["source"], after["dest"]) != (before["source"], before["dest"])
    assert pair.second.get(hint_url).json() == after
    progress = pair.second.get(f"/api/games/{game_id}/progress")
    assert progress.status_code == 200 and progress.json()["progress"] is True


def first_move_not_legal_twice(number: str, line: list[str]) -> int:
    """The index of the first move of ``line`` that is not legal again right after it."""
    game = Game(Deal.parse(number), deals.KLONDIKE)
    for n, text in enumerate(line):
        game.play(parse_move(text, game.position))
        try:
            parse_move(text, game.position)
        except ValueError:
            return n
    raise AssertionError("every move of the line could be played twice")


def test_a_request_that_lost_the_race_is_replayed_or_refused_with_409(pair: Pair) -> None:
    number, line = line_texts()
    game_id = pair.new_game(number)
    once = first_move_not_legal_twice(number, line)
    for move in line[:once]:
        assert play(pair.first, game_id, move).status_code == 200
    assert pair.second.get(f"/api/games/{game_id}").json()["history"] == line[:once]
    assert play(pair.first, game_id, line[once]).status_code == 200
    # The second app's cached game does not have that move: there it is legal, but the
    # store refuses its write; read again, the game no longer allows it.
    refused = play(pair.second, game_id, line[once])
    assert refused.status_code == CONFLICT
    error = refused.json()["error"]
    assert "changed elsewhere" in error and line[once] in error and "not legal now" in error
    assert pair.stored_history(game_id) == line[: once + 1]
    # A move still allowed on the game as stored is played on it, from either side.
    moved = play(pair.first, game_id, line[once + 1])  # first's cache is current
    assert moved.status_code == 200
    replayed = play(pair.second, game_id, line[once + 2])  # second's is behind again
    assert replayed.status_code == 200
    assert replayed.json()["moves"] == once + 3
    assert pair.stored_history(game_id) == line[: once + 3]


def test_both_apps_at_once_lose_no_acknowledged_move(pair: Pair) -> None:
    game_id = pair.new_game("7")
    answers: list[Any] = []
    lock = threading.Lock()
    start = threading.Barrier(2)

    def draw(client: TestClient) -> None:
        start.wait()
        stock_left = STOCK
        for _ in range(DRAWS):  # draw, or turn the waste over once the stock is out
            answer = play(client, game_id, "sw" if stock_left else "ws")
            if answer.status_code == 200:
                stock_left = answer.json()["position"]["stock"]["count"]
            with lock:
                answers.append(answer)

    threads = [threading.Thread(target=draw, args=(c,)) for c in (pair.first, pair.second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    refused = [(a.status_code, a.json()["error"]) for a in answers if a.status_code != 200]
    # A draw that lost its race is played on the game as stored, or refused there.
    assert all(status in REFUSALS for status, _error in refused), refused
    acknowledged = sorted(a.json()["moves"] for a in answers if a.status_code == 200)
    stored = pair.stored_history(game_id)
    assert acknowledged == list(range(1, len(stored) + 1))  # each one stored, once, in turn
    assert len(acknowledged) >= DRAWS  # most won their race or were played again


def test_the_new_game_limit_holds_across_apps_and_cookies(
    open_store: Callable[[int], Storage],
) -> None:
    limits = ServerLimits(new_games_per_minute=2)
    for pair in pair_of_apps(open_store, limits):
        assert pair.first.post("/api/games", json={}).status_code == 201
        pair.second.cookies.clear()  # another player, from the same address
        assert pair.second.post("/api/games", json={}).status_code == 201
        refused = pair.first.post("/api/games", json={})
        assert refused.status_code == 429 and "a minute" in refused.json()["error"]
        pair.first.cookies.clear()
        assert pair.first.post("/api/games", json={}).status_code == 429
        assert pair.second.post("/api/games", json={}).status_code == 429


def test_a_request_that_keeps_losing_the_race_is_409_and_changes_nothing(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = pair.new_game("7")
    assert play(pair.first, game_id, "sw").status_code == 200
    store = pair.stores[0]

    def always_behind(record: Any) -> None:  # another process stores first, every time
        raise StaleGameError(record.id, record.version - 1)

    monkeypatch.setattr(store, "update_game", always_behind)
    refused = play(pair.first, game_id, "sw")
    assert refused.status_code == CONFLICT and "reload it" in refused.json()["error"]
    monkeypatch.undo()
    assert pair.stored_history(game_id) == ["sw"]
    assert pair.first.get(f"/api/games/{game_id}").json()["history"] == ["sw"]


def test_a_game_two_processes_take_turns_on_is_checked_before_each_move(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without sticky routing each process finds its copy behind at every move: once it
    has lost one race it reads the game again before the move (on SQLite, on the event
    loop), rather than playing it on the stale copy and losing the write."""
    number, line = line_texts()
    game_id = pair.new_game(number)
    refused_writes: list[str] = []
    reads: list[str] = []  # the threads the second app read the game's row in on SQLite
    for store in pair.stores:
        update = store.update_game

        def counted_update(record: Any, update: Any = update) -> None:
            try:
                update(record)
            except StaleGameError:
                refused_writes.append(record.id)
                raise

        monkeypatch.setattr(store, "update_game", counted_update)
    sqlite = isinstance(pair.stores[1], SQLiteStorage)
    if isinstance(pair.stores[1], SQLiteStorage):
        read = pair.stores[1].game_now

        def counted_read(wanted: str) -> Any:
            reads.append(threading.current_thread().name)
            return read(wanted)

        monkeypatch.setattr(pair.stores[1], "game_now", counted_read)
    clients = (pair.first, pair.second)
    for n, move in enumerate(line[:TURNS]):
        answer = play(clients[n % 2], game_id, move)  # each finds its copy behind
        assert answer.status_code == 200 and answer.json()["moves"] == n + 1
    # Each process checks first after its first lost race: one refused write each.
    assert len(refused_writes) == 2
    if sqlite:
        assert len(reads) >= TURNS // 2 - 1
        assert not any(name.startswith("AnyIO worker") for name in reads)  # on the loop


def test_a_page_shows_what_the_other_process_stored_last(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A returning player's page, served by the second process, carries the settings and
    the latest game the first process stored a moment before (on SQLite, read on the event
    loop: no worker thread, and never an old snapshot)."""
    threads: list[str] = []
    if isinstance(pair.stores[1], SQLiteStorage):
        for name in ("latest_game_now", "get_setting_now"):
            read = getattr(pair.stores[1], name)

            def counted(*args: Any, read: Any = read) -> Any:
                threads.append(threading.current_thread().name)
                return read(*args)

            monkeypatch.setattr(pair.stores[1], name, counted)
    for theme, deal in (("dark", "7"), ("high-contrast", "8"), ("green", "9")):
        assert pair.first.post("/api/settings", json={"theme": theme}).status_code == 200
        game_id = pair.new_game(deal)
        page = pair.second.get("/").text
        data = page.partition('id="page-data">')[2].partition("</script>")[0]
        assert f'"theme":"{theme}"' in data and f'"current":{{"id":"{game_id}"' in data
    if isinstance(pair.stores[1], SQLiteStorage):
        assert threads and not any(name.startswith("AnyIO worker") for name in threads)
