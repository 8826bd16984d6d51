"""The cost of checking a cached game against the store, per request (issue 15).

Before the server answers from a game it holds in memory, it reads the game's stored
version (``Storage.game_version``, a primary-key read): on SQLite on the event loop, on
PostgreSQL in a worker thread. This prints what one check costs, on a store of
``--games`` games::

    python benchmarks/version_check.py
    python benchmarks/version_check.py --backend sqlite --checks 20000

SQLite: the check as the server makes it, and for comparison ``PRAGMA data_version``
(which would only say whether anything changed). PostgreSQL (a throwaway server, as the
tests start one): the check in the calling thread, and as the server makes it, handed to
a worker thread from an event loop and back.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio.to_thread

from bonanza.core import Deal, Rules
from bonanza.session import Session
from bonanza.storage import SQLiteStorage, Storage
from bonanza.storage.records import GameRecord
from server import servers_module

BACKENDS = ("sqlite", "postgres")
DEFAULT_GAMES = 2_000
DEFAULT_CHECKS = 5_000
ROUNDS = 5
"""Timed rounds of ``checks / ROUNDS`` calls each; the median round is printed."""
MICROSECONDS = 1e6
NOW = 1_000.0


def fill(storage: Storage, games: int) -> list[str]:
    """Store ``games`` games in play; their IDs."""
    session = Session.new(Deal.from_number(7), Rules.preset("klondike"), NOW)
    ids = [f"game-{n:06}" for n in range(games)]
    for game_id in ids:
        storage.insert_game(GameRecord.of(game_id, "player", session, NOW))
    return ids


def per_call(call: Callable[[str], Any], ids: list[str], checks: int) -> float:
    """Microseconds per ``call(id)``, the median of ``ROUNDS`` rounds, IDs drawn at random."""
    rounds = []
    per_round = max(1, checks // ROUNDS)
    for _ in range(ROUNDS):
        chosen = random.choices(ids, k=per_round)
        started = time.perf_counter()
        for game_id in chosen:
            call(game_id)
        rounds.append((time.perf_counter() - started) / per_round * MICROSECONDS)
    return statistics.median(rounds)


def through_a_thread(storage: Storage, ids: list[str], checks: int) -> float:
    """Microseconds per check handed from an event loop to a worker thread and back."""

    async def run() -> float:
        per_round = max(1, checks // ROUNDS)
        rounds = []
        for _ in range(ROUNDS):
            chosen = random.choices(ids, k=per_round)
            started = time.perf_counter()
            for game_id in chosen:
                await anyio.to_thread.run_sync(storage.game_version, game_id)
            rounds.append((time.perf_counter() - started) / per_round * MICROSECONDS)
        return statistics.median(rounds)

    return asyncio.run(run())


def sqlite_costs(games: int, checks: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bonanza-version-") as folder:
        storage = SQLiteStorage(Path(folder) / "games.db", synchronous="NORMAL")
        ids = fill(storage, games)
        check = per_call(storage.game_version, ids, checks)
        writer = storage._db  # the writing connection, on which data_version would be read
        pragma = per_call(lambda _id: writer.execute("PRAGMA data_version").fetchone(), ids, checks)
        storage.close()
    print(f"sqlite: version check {check:.1f} us on the event loop;", end=" ")
    print(f"PRAGMA data_version {pragma:.1f} us")


def postgres_costs(games: int, checks: int) -> None:
    import psycopg

    from bonanza.storage.postgres import PostgresStorage

    with servers_module().throwaway_postgres() as server:
        storage = PostgresStorage(server.new_store())
        ids = fill(storage, games)
        direct = per_call(storage.game_version, ids, checks)
        threaded = through_a_thread(storage, ids, checks)
        storage.close()
        with psycopg.connect(server.new_store(), autocommit=True) as db:  # no pool: a floor
            db.execute("CREATE TABLE games (id TEXT PRIMARY KEY, version INTEGER)")
            db.cursor().executemany("INSERT INTO games VALUES (%s, 0)", [(i,) for i in ids])
            query = "SELECT version FROM games WHERE id=%s"
            bare = per_call(lambda i: db.execute(query, (i,)).fetchone(), ids, checks)
    print(
        f"postgres: version check {direct:.1f} us in the calling thread,"
        f" {threaded:.1f} us from the event loop through a worker thread"
        f" (the bare SELECT on one connection, no pool: {bare:.1f} us)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="both")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
    parser.add_argument("--checks", type=int, default=DEFAULT_CHECKS)
    options = parser.parse_args()
    if options.backend in ("sqlite", "both"):
        sqlite_costs(options.games, options.checks)
    if options.backend in ("postgres", "both"):
        postgres_costs(options.games, options.checks)


if __name__ == "__main__":
    main()
