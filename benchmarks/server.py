"""Benchmark the web server over loopback with simulated players.

Either on a server that runs already, for example ``bonanza serve --port 8000 --db
/tmp/bench.db --new-games-per-minute 1000000`` (new games are counted per client
address, and every simulated player comes from 127.0.0.1), then::

    python benchmarks/server.py --url http://127.0.0.1:8000 --players 50 200

or on one it starts itself, on any store and with any number of worker processes::

    python benchmarks/server.py --db /tmp/bench.db --workers 2
    python benchmarks/server.py --db postgresql://bonanza@127.0.0.1/bonanza --workers 2
    python benchmarks/server.py --start-postgres --workers 2

(``--start-postgres``: a throwaway PostgreSQL in a temporary folder, as the tests start
one, with its durable defaults; stopped and removed afterwards.)

Each simulated player starts a game and plays ``--moves`` legal moves (mostly
non-draw moves, some undos), waiting ``--think`` seconds on average between
moves, like a person (use ``--think 0`` for a saturation run). It prints
moves/s and p50/p99 latency per player count, and the first page load size
(HTML + JS + CSS, uncompressed). Loops are bounded and only loopback
addresses are accepted.

For a server it starts, it prints the server's CPU time per move (per move with its
check with ``--progress``), then per request by type: the same players make
``--requests-per-type`` requests of one type each, a type at a time, the CPU time of the
server's processes (and of PostgreSQL's) read from /proc before and after (``proc_cpu``).
The types: a move off the stock, a draw (or the waste's recycle once the stock is empty),
an undo, a returning player's page (``GET /``, which carries their game: the browser asks
no more), a new game.
As the page does, a move is followed by ``GET /api/games/{id}/progress`` unless its answer
carries the check (its ``progress`` field). ``--new-connection-per-request``: a new TCP
connection for each request, as a load balancer without sticky routing spreads them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from http_client import NAVIGATION, Connection, page_data
from proc_cpu import postgres_cpu_seconds, server_cpu_seconds

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
REPOSITORY = Path(__file__).resolve().parents[1]
MAX_WORKERS = 64
NEW_GAMES_PER_MINUTE = 1_000_000
"""For a server started here: every simulated player comes from 127.0.0.1, and the
server counts new games per client address (``--new-games-per-minute``)."""
SEARCHES_FROM_HERE_PER_MINUTE = 1_000_000
ADDRESS_LIMIT_OPTION = "--searches-per-address-per-minute"
STARTUP_SECONDS = 60.0
"""How long a server started here may take to answer (a loaded machine, several workers)."""
SERVER_PID: list[int] = []
"""The process of the server this script started, if it started one."""
POSTGRES_PID: list[int] = []
"""The postmaster of the PostgreSQL this script started, if it started one."""
STOCK = 7
"""The stock's pile number in a move (``source``: a draw; ``dest``: a recycle)."""
KINDS = ("move+check", "draw", "undo", "page", "new game")
"""The request types whose CPU time is measured one at a time."""


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    checks: int = 0
    """Progress checks asked after a move (its answer did not carry the check)."""
    new_games: int = 0
    requests: int = 0
    """Requests of one type's run (a move and its check count as one)."""
    reasons: Counter[str] = field(default_factory=Counter)
    """What went wrong, by HTTP status or exception, with counts."""

    def error(self, reason: str) -> None:
        self.reasons[reason] += 1

    @property
    def errors(self) -> int:
        return sum(self.reasons.values())


@dataclass
class Player:
    """A simulated player: its connection (and its cookie), and its game as last answered."""

    conn: Connection
    rng: random.Random
    state: dict[str, Any] = field(default_factory=dict)

    async def new_game(self, results: Results) -> bool:
        status, data = await self.conn.request("POST", "/api/games", {})
        if status != 201:
            results.error(f"new game {status}")
            return False
        results.new_games += 1
        self.state = json.loads(data)
        return True

    async def act(self, action: str, body: Any, results: Results, check: bool) -> bool:
        """``POST .../moves`` or ``.../undo`` on the game, timed; after a move, with
        ``check``, the progress check, as the page asks it: unless the answer has it."""
        path = f"/api/games/{self.state['id']}/{action}"
        start = time.perf_counter()
        status, data = await self.conn.request("POST", path, body)
        results.latencies.append(time.perf_counter() - start)
        if status != 200:
            results.error(f"{'move' if action == 'moves' else action} {status}")
            return False
        self.state = json.loads(data)
        if check and action == "moves" and "progress" not in self.state:
            results.checks += 1
            status, _ = await self.conn.request("GET", f"/api/games/{self.state['id']}/progress")
            if status != 200:
                results.error(f"progress {status}")
        return True

    async def one(self, kind: str, results: Results) -> bool:
        """One request of ``kind`` (of ``KINDS``); False when the game offers none now."""
        playing = self.state["status"] == "playing"
        legal = self.state["position"]["legal"] if playing else []
        if kind == "new game":
            await self.new_game(results)
        elif kind == "page":  # a returning player's: the page, their game inside it
            status, data = await self.conn.request("GET", "/", headers=NAVIGATION)
            current = page_data(data).get("current") if status == 200 else None
            if current is None:  # the browser would ask GET /api/games/current: an error here
                results.error(f"page {status}{'' if status != 200 else ' without the game'}")
            else:
                self.state = current
        elif kind == "undo":
            if not (playing and self.state["can_undo"]):
                return False
            await self.act("undo", {}, results, check=True)
        else:  # a draw (else the recycle when the stock is empty), or a move off the stock
            drawn = [m for m in legal if m["source"] == STOCK]
            choices = (
                drawn or [m for m in legal if m["dest"] == STOCK]
                if kind == "draw"
                else [m for m in legal if STOCK not in (m["source"], m["dest"])]
            )
            if not choices:
                return False
            await self.act("moves", {"move": self.rng.choice(choices)["text"]}, results, check=True)
        return True


async def player(
    someone: Player, moves: int, think: float, results: Results, check_progress: bool
) -> None:
    rng = someone.rng
    try:
        await asyncio.sleep(rng.random() * max(think, 0.01))  # players do not all start at once
        if not await someone.new_game(results):
            return
        for _ in range(moves):
            if think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            state = someone.state
            legal = state["position"]["legal"]
            if state["status"] != "playing" or not legal:
                await someone.new_game(results)
                continue
            if state["can_undo"] and rng.random() < 0.05:
                action, body = "undo", {}
            else:
                useful = [m for m in legal if m["source"] != STOCK and m["dest"] != STOCK]
                move = rng.choice(useful if useful and rng.random() < 0.6 else legal)
                action, body = "moves", {"move": move["text"]}
            if await someone.act(action, body, results, check_progress):
                results.moves += 1
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        results.error(type(error).__name__)  # the connection failed: this player stops
        someone.conn.close()


async def typed(someone: Player, kind: str, count: int, think: float, results: Results) -> None:
    """``count`` requests of ``kind``, or fewer if the player's game offers no more."""
    try:
        for _ in range(count):
            await asyncio.sleep(someone.rng.uniform(0.5, 1.5) * think)
            if not await someone.one(kind, results):
                return
            results.requests += 1
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        results.error(f"{kind}: {type(error).__name__}")  # this player stops this type
        someone.conn.close()


def cpu() -> tuple[float, float]:
    """CPU seconds so far of the server started here, and of its PostgreSQL (or 0)."""
    server = server_cpu_seconds(SERVER_PID[0]) if SERVER_PID else 0.0
    return server, postgres_cpu_seconds(POSTGRES_PID[0]) if POSTGRES_PID else 0.0


def per(before: tuple[float, float], after: tuple[float, float], count: int) -> str:
    """The CPU time per request from ``before`` to ``after``: the server's, and PostgreSQL's."""
    server, database = ((b - a) * 1000 / max(count, 1) for a, b in zip(before, after, strict=True))
    return f"{server:.3f} ms" + (f" + {database:.3f} ms in PostgreSQL" if POSTGRES_PID else "")


async def run(
    host: str, port: int, players: int, moves: int, think: float, seed: int, progress: bool,
    fresh: bool = False, per_type: int = 0,
) -> None:  # fmt: skip
    results = Results()
    rng = random.Random(seed)
    seeds = [rng.random() for _ in range(players)]
    crowd = [Player(Connection(host, port, fresh), random.Random(number)) for number in seeds]
    mode = "a new connection per request" if fresh else "sticky connections"
    try:
        cpu_before = cpu()
        start = time.perf_counter()
        await asyncio.gather(*(player(p, moves, think, results, progress) for p in crowd))
        seconds = time.perf_counter() - start
        cpu_after = cpu()
        lat = sorted(results.latencies)
        if not lat:
            print(f"{players:4d} players: no moves made ({results.errors} errors; {mode})")
            return
        p50 = statistics.median(lat) * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        print(
            f"{players:4d} players, think {think:g} s, {mode}: {results.moves} moves in "
            f"{seconds:.1f} s = {results.moves / seconds:.0f} moves/s; latency p50 {p50:.2f} ms, "
            f"p99 {p99:.2f} ms, max {lat[-1] * 1000:.1f} ms; errors {results.errors}; load {load()}"
        )
        if results.reasons:
            reasons = results.reasons.most_common()
            print("      errors: " + ", ".join(f"{why} x{n}" for why, n in reasons))
        if not SERVER_PID:  # else a server this script started: its own CPU, per move
            return
        what = "per move with its check" if progress else "per move"
        print(f"      server CPU {what}: {per(cpu_before, cpu_after, results.moves)}"
              f" ({cpu_after[0] - cpu_before[0]:.2f} s for {results.moves} moves,"
              f" {results.checks} checks and {results.new_games} new games; {mode};"
              f" load {load()})")  # fmt: skip
        if per_type:
            await by_type(crowd, per_type, think, mode)
    finally:
        for someone in crowd:
            someone.conn.close()


async def by_type(crowd: list[Player], count: int, think: float, mode: str) -> None:
    """The server's CPU time per request of each type: ``count`` requests of it for
    each player, a type at a time, the CPU read before and after each."""
    costs, made = [], []
    errors: Counter[str] = Counter()
    for kind in KINDS:
        results = Results()
        before = cpu()
        await asyncio.gather(*(typed(p, kind, count, think, results) for p in crowd))
        costs.append(f"{kind} {per(before, cpu(), results.requests)}")
        checks = f" ({results.checks} checks)" if results.checks else ""
        made.append(f"{kind} {results.requests}{checks}")
        errors.update(results.reasons)
    said = f" {dict(errors)}" if errors else ""
    print(f"      server CPU per request: {', '.join(costs)} ({mode}; load {load()})")
    print(f"      requests: {', '.join(made)}; errors {errors.total()}{said}")


def load() -> str:
    """The machine's load averages (1, 5 and 15 minutes): figures on a busy machine are noisy."""
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def servers_module() -> Any:
    """``tests/servers.py``, which starts ``bonanza serve`` and a throwaway PostgreSQL."""
    if str(REPOSITORY) not in sys.path:
        sys.path.insert(0, str(REPOSITORY))
    import tests.servers

    return tests.servers


def takes_option(option: str) -> bool:
    """Whether the ``bonanza serve`` that would be started knows ``option``."""
    import subprocess

    shown = subprocess.run([sys.executable, "-m", "bonanza", "serve", "--help"],
                           capture_output=True, text=True, check=False)  # fmt: skip
    return option in shown.stdout


@contextlib.contextmanager
def started_server(db: str | None, start_postgres: bool, workers: int) -> Iterator[str]:
    """``bonanza serve --workers N`` on ``db`` (or a throwaway PostgreSQL): its URL."""
    from bonanza.storage import redacted

    servers = servers_module()
    folder = Path(tempfile.mkdtemp(prefix="bonanza-bench-"))
    with contextlib.ExitStack() as stack:
        if start_postgres:
            postgres = stack.enter_context(servers.throwaway_postgres(durable=True))
            db = postgres.url()
            # Its postmaster: the first line of the pid file, for its processes' CPU time.
            POSTGRES_PID[:] = [int((postgres.data / "postmaster.pid").read_text().split()[0])]
        assert db is not None
        options: tuple[str, ...] = (
            "--workers", str(workers), "--new-games-per-minute", str(NEW_GAMES_PER_MINUTE),
        )  # fmt: skip
        if takes_option(ADDRESS_LIMIT_OPTION):  # an older server has no such limit
            # Every simulated player comes from this machine's one address.
            options += (ADDRESS_LIMIT_OPTION, str(SEARCHES_FROM_HERE_PER_MINUTE))
        server = servers.Server(db, servers.free_port(), args=options, log_path=folder / "log")
        print(
            f"bonanza serve --workers {workers} on {redacted(db)}, its log in {server.log}",
            flush=True,
        )
        stack.callback(server.stop)
        server.start(STARTUP_SECONDS)
        assert server.process is not None
        SERVER_PID[:] = [server.process.pid]
        yield str(server.url)


async def page_weight(host: str, port: int) -> int:
    """Bytes of the first page load: the HTML and every JS module and stylesheet it pulls in."""
    conn = Connection(host, port)
    try:
        status, html = await conn.request("GET", "/")
        assert status == 200
        total = len(html)
        queue = re.findall(r'(?:href|src)="(/static/[^"]+)"', html.decode())
        seen: set[str] = set()
        while queue:
            path = queue.pop()
            if path in seen:
                continue
            seen.add(path)
            status, data = await conn.request("GET", path)
            total += len(data)
            if path.endswith(".js"):
                base = path.rsplit("/", 1)[0]
                queue += [f"{base}/{n}" for n in re.findall(r'from "\./([\w.]+)"', data.decode())]
        return total
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="a running server's")
    parser.add_argument(
        "--db", help="start a server on this store: a SQLite file or a postgresql:// URL"
    )
    parser.add_argument(
        "--start-postgres",
        action="store_true",
        help="start a server on a throwaway PostgreSQL (as the tests do)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes of the server started (1-64)"
    )
    parser.add_argument("--players", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--moves", type=int, default=30, help="moves per player (at most 1000)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--progress", action="store_true", help="the first run asks the progress check too"
    )
    parser.add_argument(
        "--new-connection-per-request",
        action="store_true",
        help="a new TCP connection for each request, as without sticky routing",
    )
    parser.add_argument(
        "--requests-per-type",
        type=int,
        help="requests of each type per player, for the server CPU per request of a server"
        " started here (default: --moves; 0: none)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.moves <= 1000 or not all(1 <= p <= 1000 for p in args.players):
        parser.error("--moves and --players must be from 1 to 1000")
    per_type = args.moves if args.requests_per_type is None else args.requests_per_type
    if not 0 <= per_type <= 1000:
        parser.error("--requests-per-type must be from 0 to 1000")
    if not 1 <= args.workers <= MAX_WORKERS:
        parser.error(f"--workers must be from 1 to {MAX_WORKERS}")
    if args.db and args.start_postgres:
        parser.error("--db and --start-postgres: choose one")
    with contextlib.ExitStack() as stack:
        address = args.url
        if args.db or args.start_postgres:
            address = stack.enter_context(
                started_server(args.db, args.start_postgres, args.workers)
            )
        url = urlsplit(address)
        if url.hostname not in LOOPBACK or url.port is None:
            parser.error("--url must be a loopback address with a port, like http://127.0.0.1:8000")
        host, port = url.hostname, url.port
        # The simulated players' own collector passes (tens of ms with 1,000 of them)
        # would be timed as the server's latency: this process collects nothing.
        gc.freeze()
        gc.disable()
        weight = asyncio.run(page_weight(host, port))
        print(f"first page load (HTML + JS + CSS, uncompressed): {weight / 1024:.1f} KB")
        for players in args.players:
            asyncio.run(run(host, port, players, args.moves, args.think, args.seed, args.progress,
                            args.new_connection_per_request, per_type))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
