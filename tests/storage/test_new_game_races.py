"""New games of one player started at once (a double click, two tabs, a retry), on two
apps that share one store as two server processes would: afterwards one game is in play
on the front end, and at most one game of today's daily deal has the first game's origin,
on SQLite and on PostgreSQL (found by an attack on the web API)."""

from __future__ import annotations

import random
import secrets
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bonanza.play.daily import DAILY_KEY, daily_rules, day_text, utc_day
from bonanza.session import Origin, Status
from bonanza.storage import SQLiteStorage, Storage
from bonanza.storage.protocol import DailyDeal
from bonanza.storage.records import GameRecord, rules_key
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.players import COOKIE

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's suggestion of httpx2
    from starlette.testclient import TestClient

TRIALS = 12
"""Players, each starting ``AT_ONCE`` games at once after a first one."""
AT_ONCE = 4
"""New games asked for at once: half on each app."""
DAILY_DEAL = "7"
"""Today's daily deal of draw 1, stored before the races (no stock needed)."""
NEW_GAMES_PER_MINUTE = 10_000
CREATED = 201
CONFLICT = 409
TOKEN_BYTES = 18
"""Random bytes in a player's token, as the server makes them."""
SEED = 37


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Storage, Storage]:
    """Two store objects on one new database: SQLite (one written on the event loop, one
    by its writer thread) or PostgreSQL."""
    if request.param == "sqlite":
        path = tmp_path / "games.db"
        return SQLiteStorage(path, synchronous="NORMAL"), SQLiteStorage(path)
    from bonanza.storage.postgres import PostgresStorage

    url: str = request.getfixturevalue("postgres_url")
    return PostgresStorage(url), PostgresStorage(url)


@pytest.fixture
def apps(stores: tuple[Storage, Storage]) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on the store (each closes its store at its shutdown), today's daily deal set."""
    today = day_text(utc_day(time.time()))
    stores[0].set_daily_deal(DailyDeal(today, rules_key(daily_rules(1)), DAILY_DEAL, "medium"))
    limits = ServerLimits(new_games_per_minute=NEW_GAMES_PER_MINUTE)
    with (
        TestClient(create_app(stores[0], limits=limits)) as first,
        TestClient(create_app(stores[1], limits=limits)) as second,
    ):
        yield first, second


def start(client: TestClient, player: str, body: dict[str, Any]) -> Any:
    return client.post("/api/games", json=body, headers=as_player(player))


def as_player(player: str) -> dict[str, str]:
    """The headers of a request of ``player`` (the test clients' own jars stay empty)."""
    return {"cookie": f"{COOKIE}={player}"}


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released together; their results."""
    results: list[Any] = [None] * len(calls)
    go = threading.Barrier(len(calls))

    def run(index: int) -> None:
        go.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def player_games(store: Storage, player: str) -> list[GameRecord]:
    """The player's games, in play and finished (a new game left at once is abandoned,
    which ``finished_games`` leaves out: every game is read by its ID)."""
    ids = {game.id for game in store.playing_games(player)} | {
        game.id for game in store.finished_games(player)
    }
    return [game for game in map(store.get_game, ids) if game is not None]


def test_new_games_started_at_once_leave_one_in_play_and_one_first_daily_game(
    apps: tuple[TestClient, TestClient], stores: tuple[Storage, Storage]
) -> None:
    shuffle = random.Random(SEED).shuffle
    daily: dict[str, Any] = {"daily": "today", "draw": 1}
    failures: list[str] = []
    for trial in range(TRIALS):
        player = secrets.token_urlsafe(TOKEN_BYTES)
        first = start(apps[0], player, {"deal": "5"})
        assert first.status_code == CREATED, first.text
        bodies: list[dict[str, Any]] = [daily, daily, {}, {"deal": "9"}][:AT_ONCE]
        shuffle(bodies)
        answers = at_once(
            [partial(start, apps[n % 2], player, body) for n, body in enumerate(bodies)]
        )
        statuses = [answer.status_code for answer in answers]
        assert set(statuses) <= {CREATED, CONFLICT}, [a.text for a in answers]
        assert CREATED in statuses
        playing = stores[1].playing_games(player)
        first_daily = [
            game for game in player_games(stores[1], player)
            if DAILY_KEY in game.extra and game.origin is Origin.SHARED
        ]  # fmt: skip
        if len(playing) != 1 or len(first_daily) > 1:
            failures.append(f"trial {trial}: {len(playing)} in play, {len(first_daily)} first")
            continue
        # The game in play is the latest: the one the page resumes.
        current = apps[1].get("/api/games/current", headers=as_player(player)).json()
        assert current["id"] == playing[0].id and current["status"] == str(Status.PLAYING)
    assert failures == [], f"{len(failures)} of {TRIALS} trials failed"
