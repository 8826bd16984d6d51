"""Crash test: simulated players keep playing while server processes are killed.

Two ``bonanza serve`` processes (``--servers``) share one store; ``--players``
simulated players play random legal moves on them, each move acknowledged (200)
or not; every few seconds one process is killed with SIGKILL and started again
(a player whose server is gone moves to another), ``--kills`` times. Then a fresh
server reads every game back, and each acknowledged move is compared with what
the store holds::

    python benchmarks/crash.py --db sqlite --kills 50
    python benchmarks/crash.py --db postgres --kills 50

It prints the moves acknowledged, those lost (the target is 0), those stored whose
answer was lost in a kill, and the store's integrity: SQLite's ``PRAGMA
integrity_check``, and on both backends every stored game's moves replayed by the
engine to its stored state. PostgreSQL is a throwaway server (as the tests start
one, with its durable defaults), removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from http_client import Connection
from server import NEW_GAMES_PER_MINUTE, load, servers_module

BACKENDS = ("sqlite", "postgres")
DEFAULT_KILLS = 50
DEFAULT_PLAYERS = 50
DEFAULT_SERVERS = 2
DEFAULT_INTERVAL = 3.0
"""Mean seconds between kills."""
DEFAULT_THINK = 0.2
"""Mean seconds a player waits between moves."""
MOVES_PER_GAME = 150
"""A player starts a new game after this many moves (or when the game ends)."""
RECONNECT_SECONDS = 0.1
STARTUP_SECONDS = 60.0
MAX_PLAYERS = 500
MAX_SERVERS = 8
CREATED = 201
OK = 200
STOCK = 7
"""The stock's pile number in a move: moves that do not touch it are preferred."""
USEFUL_SHARE = 0.6
CONNECTION_ERRORS = (OSError, asyncio.IncompleteReadError, ValueError)
"""What a request to a server killed under it raises (refused, reset or closed before
answering, an answer cut short)."""


@dataclass
class Acknowledged:
    """One acknowledged move: its game's history length then, and a hash of that history."""

    length: int
    digest: int


@dataclass
class Tally:
    acknowledged: int = 0
    connection_errors: collections.Counter[str] = field(default_factory=collections.Counter)
    """Requests cut short (a server killed under them, or down), by error."""
    statuses: collections.Counter[int] = field(default_factory=collections.Counter)
    """Answers other than 200 to moves, by status."""
    kills: int = 0


@dataclass
class Player:
    cookie: str = ""
    games: dict[str, list[Acknowledged]] = field(default_factory=dict)


def digest(history: list[str]) -> int:
    return hash(tuple(history))


def moves_made(answer: dict[str, Any]) -> list[str]:
    """The texts of the moves an action's answer made: the player's and any automatic
    ones after it (its ``steps``, then ``last``); an answer lists no whole history."""
    steps = [step["last"]["text"] for step in answer.get("steps", []) if step.get("last")]
    return [*steps, answer["last"]["text"]] if "last" in answer else steps


async def play(
    player: Player,
    ports: list[int],
    rng: random.Random,
    think: float,
    tally: Tally,
    stop: asyncio.Event,
    spread: bool,
) -> None:
    """Play until ``stop``, moving to another server whenever one is gone (with
    ``spread``, to a server chosen at random for every request)."""
    conn = Connection("127.0.0.1", rng.choice(ports))
    kept = {conn.port: conn}
    game_id: str | None = None
    state: dict[str, Any] | None = None
    """The game as last seen (None: to be read again)."""
    played = 0
    known: list[str] = []
    """The game's moves as last seen: from its view, then the moves acknowledged since."""
    while not stop.is_set():
        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        if spread:
            port = rng.choice(ports)
            conn = kept.setdefault(port, Connection("127.0.0.1", port))
        conn.cookie = player.cookie
        try:
            over = state is not None and state["status"] != "playing"
            if game_id is None or over or played >= MOVES_PER_GAME:
                status, data = await conn.request("POST", "/api/games", {})
                if status != CREATED:
                    tally.statuses[status] += 1
                    continue
                state, played, known = json.loads(data), 0, []
                game_id = state["id"]
                player.games[game_id] = []
            elif state is None:
                status, data = await conn.request("GET", f"/api/games/{game_id}")
                state = json.loads(data) if status == OK else None
                known = state["history"] if state is not None else known
            else:
                legal = state["position"]["legal"]
                useful = [m for m in legal if STOCK not in (m["source"], m["dest"])]
                move = rng.choice(useful if useful and rng.random() < USEFUL_SHARE else legal)
                path = f"/api/games/{game_id}/moves"
                status, data = await conn.request("POST", path, {"move": move["text"]})
                if status == OK:
                    state, played = json.loads(data), played + 1
                    known = [*known, *moves_made(state)]
                    if len(known) != state["moves"]:  # not the game last seen: read it again
                        state = None
                        continue
                    player.games[game_id].append(Acknowledged(len(known), digest(known)))
                    tally.acknowledged += 1
                else:
                    tally.statuses[status] += 1
                    state = None
        except CONNECTION_ERRORS as error:
            tally.connection_errors[type(error).__name__] += 1
            conn.close()
            kept[conn.port] = Connection("127.0.0.1", conn.port)  # to reconnect next time
            others = [other for other in ports if other != conn.port] or ports
            port = rng.choice(others)
            conn = kept.setdefault(port, Connection("127.0.0.1", port))
            state = None
            await asyncio.sleep(RECONNECT_SECONDS)
        finally:
            if conn.cookie:
                player.cookie = conn.cookie
    for open_connection in kept.values():
        open_connection.close()


async def kill_and_restart(servers: list[Any], kills: int, interval: float,
                           rng: random.Random, tally: Tally) -> None:
    """Kill a server with SIGKILL every ``interval`` seconds or so, and start it again."""
    for count in range(kills):
        await asyncio.sleep(rng.uniform(0.5, 1.5) * interval)
        victim = servers[count % len(servers)]
        victim.kill()
        tally.kills += 1
        await asyncio.to_thread(victim.start, STARTUP_SECONDS)


async def run_players(servers: list[Any], args: argparse.Namespace, tally: Tally) -> list[Player]:
    rng = random.Random(args.seed)
    players = [Player() for _ in range(args.players)]
    stop = asyncio.Event()
    ports = [server.port for server in servers]
    tasks = [
        asyncio.create_task(
            play(player, ports, random.Random(rng.random()), args.think, tally, stop, args.spread)
        )
        for player in players
    ]
    await kill_and_restart(servers, args.kills, args.interval, rng, tally)
    stop.set()
    await asyncio.gather(*tasks)
    return players


@dataclass
class Comparison:
    lost: int = 0
    """Acknowledged moves the store does not hold as acknowledged."""
    unacknowledged: int = 0
    """Moves stored beyond a game's last acknowledged one (answers lost in a kill)."""
    games: int = 0
    unreadable: list[str] = field(default_factory=list)


async def compare(players: list[Player], port: int) -> Comparison:
    """Each acknowledged move against the store, read back through a fresh server."""
    result = Comparison()
    for player in players:
        conn = Connection("127.0.0.1", port)
        conn.cookie = player.cookie
        try:
            for game_id, acknowledged in player.games.items():
                status, data = await conn.request("GET", f"/api/games/{game_id}")
                if status != OK:
                    result.unreadable.append(f"{game_id}: {status}")
                    result.lost += len(acknowledged)
                    continue
                result.games += 1
                history = json.loads(data)["history"]
                for ack in acknowledged:
                    if digest(history[: ack.length]) != ack.digest:
                        result.lost += 1
                last = acknowledged[-1].length if acknowledged else 0
                result.unacknowledged += max(0, len(history) - last)
        finally:
            conn.close()
    return result


def replay_problems(rows: list[tuple[str, str, int, str]]) -> list[str]:
    """Games whose stored moves do not replay through the engine to their stored state."""
    from bonanza.session import Session

    problems = []
    for game_id, state, moves, status in rows:
        try:
            session = Session.from_json(json.loads(state))
        except Exception as error:  # any fault in a stored game is what this looks for
            problems.append(f"{game_id}: does not load ({error})")
            continue
        if session.game.move_count != moves:
            problems.append(f"{game_id}: {moves} moves stored, {session.game.move_count} replay")
        if str(session.status) != status:
            problems.append(f"{game_id}: status {status} stored, {session.status} replays")
    return problems


GAMES_QUERY = "SELECT id, state, moves, status FROM games"


def integrity(db: str) -> list[str]:
    """The store's integrity problems (none: an empty list)."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db) as postgres:
            rows = postgres.execute(GAMES_QUERY).fetchall()
        return replay_problems(rows)
    connection = sqlite3.connect(db)
    try:
        (verdict,) = connection.execute("PRAGMA integrity_check").fetchone()
        rows = connection.execute(GAMES_QUERY).fetchall()
    finally:
        connection.close()
    problems = [] if verdict == "ok" else [f"PRAGMA integrity_check: {verdict}"]
    return problems + replay_problems(rows)


@contextlib.contextmanager
def store(backend: str, folder: Path) -> Iterator[str]:
    """A new store on ``backend``: a SQLite file, or a throwaway PostgreSQL's URL."""
    if backend == "sqlite":
        yield str(folder / "crash.db")
        return
    with servers_module().throwaway_postgres(durable=True) as postgres:
        yield postgres.url()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=BACKENDS, default="sqlite", help="the store's backend")
    parser.add_argument("--kills", type=int, default=DEFAULT_KILLS, help="SIGKILLs (1-1000)")
    parser.add_argument("--players", type=int, default=DEFAULT_PLAYERS)
    parser.add_argument("--servers", type=int, default=DEFAULT_SERVERS,
                        help="server processes on the store, killed in turn")
    parser.add_argument("--interval", type=float, default=DEFAULT_INTERVAL,
                        help="mean seconds between kills")
    parser.add_argument("--think", type=float, default=DEFAULT_THINK,
                        help="mean seconds a player waits between moves")
    parser.add_argument(
        "--spread",
        action="store_true",
        help="send each request to a server chosen at random (a balancer without sticky"
        " sessions), not to one server until it is killed",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.kills <= 1000:
        parser.error("--kills must be from 1 to 1000")
    if not 1 <= args.players <= MAX_PLAYERS or not 1 <= args.servers <= MAX_SERVERS:
        parser.error(f"--players must be 1-{MAX_PLAYERS}, --servers 1-{MAX_SERVERS}")
    if not (args.interval > 0 and args.think >= 0):
        parser.error("--interval must be above 0, --think at least 0")
    servers = servers_module()
    folder = Path(tempfile.mkdtemp(prefix="bonanza-crash-"))
    with store(args.db, folder) as db:
        options = ("--new-games-per-minute", str(NEW_GAMES_PER_MINUTE))  # players share 127.0.0.1
        running = [
            servers.Server(
                db, servers.free_port(), args=options, log_path=folder / f"server{index}.log"
            )
            for index in range(args.servers)
        ]
        print(f"{args.servers} servers on {args.db}, logs in {folder}; load {load()}", flush=True)
        tally = Tally()
        began = time.monotonic()
        try:
            for server in running:
                server.start(STARTUP_SECONDS)
            players = asyncio.run(run_players(running, args, tally))
        finally:
            for server in running:
                server.stop()
        seconds = time.monotonic() - began
        reader = servers.Server(db, servers.free_port(), log_path=folder / "reader.log")
        reader.start(STARTUP_SECONDS)
        try:
            comparison = asyncio.run(compare(players, reader.port))
        finally:
            reader.stop()
        problems = integrity(db)
    statuses = ", ".join(f"{n} x {s}" for s, n in sorted(tally.statuses.items())) or "none"
    print(
        f"{tally.kills} kills in {seconds:.0f} s, {args.players} players:"
        f" {tally.acknowledged} moves acknowledged ({tally.acknowledged / seconds:.0f}/s),"
        f" {comparison.lost} lost, {comparison.unacknowledged} stored without an answer"
        f" (in flight at a kill); {comparison.games} games read back"
    )
    cut = ", ".join(f"{n} x {name}" for name, n in tally.connection_errors.most_common()) or "none"
    print(f"refused moves and new games: {statuses}; requests cut short: {cut}")
    for line in comparison.unreadable[:10]:
        print(f"unreadable game {line}")
    print(f"integrity: {'ok' if not problems else f'{len(problems)} problems'}; load {load()}")
    for problem in problems[:10]:
        print(f"  {problem}")
    return 0 if comparison.lost == 0 and not problems and not comparison.unreadable else 1


if __name__ == "__main__":
    sys.exit(main())
