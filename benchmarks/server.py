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
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
REPOSITORY = Path(__file__).resolve().parents[1]
MAX_WORKERS = 64
NEW_GAMES_PER_MINUTE = 1_000_000
SEARCHES_FROM_HERE_PER_MINUTE = 1_000_000
ADDRESS_LIMIT_OPTION = "--searches-per-address-per-minute"
SERVER_PID: list[int] = []
"""The process of the server this script started, if it started one."""
PPID_FIELD, UTIME_FIELD, STIME_FIELD = 1, 11, 12
"""Fields of /proc/PID/stat after the command's closing parenthesis."""


def takes_option(option: str) -> bool:
    """Whether the ``bonanza serve`` that would be started knows ``option``."""
    import subprocess

    shown = subprocess.run([sys.executable, "-m", "bonanza", "serve", "--help"],
                           capture_output=True, text=True, check=False)  # fmt: skip
    return option in shown.stdout
"""For a server started here: every simulated player comes from 127.0.0.1, and the
server counts new games per client address (``--new-games-per-minute``)."""
STARTUP_SECONDS = 60.0
"""How long a server started here may take to answer (a loaded machine, several workers)."""


class Connection:
    """A tiny keep-alive HTTP/1.1 client: cheap enough to leave the CPU to the server."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.cookie = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(payload)}\r\n"
        )
        if payload:
            head += "Content-Type: application/json\r\n"
        if self.cookie:
            head += f"Cookie: {self.cookie}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection before answering")
        status = int(status_line.split()[1])
        length = 0
        closing = chunked = False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                self.cookie = value.strip().split(";", 1)[0]
            elif name == "connection" and value.strip().lower() == "close":
                closing = True
            elif name == "transfer-encoding" and value.strip().lower() == "chunked":
                chunked = True
        data = await self.read_chunks() if chunked else await self.reader.readexactly(length)
        if closing:  # the server ends the connection: the next request opens another
            self.close()
        return status, data

    async def read_chunks(self) -> bytes:
        """A chunked body, whole (the page comes in chunks, with no Content-Length)."""
        assert self.reader is not None
        parts = []
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                await self.reader.readline()  # the blank line after the last chunk
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readline()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    """What went wrong, by HTTP status or exception, with counts."""

    def error(self, reason: str) -> None:
        self.reasons[reason] += 1

    @property
    def errors(self) -> int:
        return sum(self.reasons.values())


async def player(
    host: str,
    port: int,
    moves: int,
    think: float,
    rng: random.Random,
    results: Results,
    check_progress: bool,
) -> None:
    conn = Connection(host, port)
    try:
        await asyncio.sleep(rng.random() * max(think, 0.01))  # players do not all start at once
        status, data = await conn.request("POST", "/api/games", {})
        if status != 201:
            results.error(f"new game {status}")
            return
        state = json.loads(data)
        for _ in range(moves):
            if think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            legal = state["position"]["legal"]
            if state["status"] != "playing" or not legal:
                status, data = await conn.request("POST", "/api/games", {})
                state = json.loads(data)
                continue
            if state["can_undo"] and rng.random() < 0.05:
                path, body = f"/api/games/{state['id']}/undo", {}
            else:
                useful = [m for m in legal if m["source"] != 7 and m["dest"] != 7]
                move = rng.choice(useful if useful and rng.random() < 0.6 else legal)
                path, body = f"/api/games/{state['id']}/moves", {"move": move["text"]}
            start = time.perf_counter()
            status, data = await conn.request("POST", path, body)
            results.latencies.append(time.perf_counter() - start)
            if status != 200:
                results.error(f"move {status}")
                continue
            results.moves += 1
            state = json.loads(data)
            if check_progress and path.endswith("/moves"):
                # As the page does after each move: ask whether progress is still possible.
                await conn.request("GET", f"/api/games/{state['id']}/progress")
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        results.error(type(error).__name__)  # the connection failed: this player stops
    finally:
        conn.close()


def server_cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) of the server's process and its live worker
    processes, read from /proc: what the server spent, whatever else the machine ran."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(entry.name) == pid or (int(fields[PPID_FIELD]) == pid and is_worker(entry)):
            total += int(fields[UTIME_FIELD]) + int(fields[STIME_FIELD])
    return total / ticks


def is_worker(process: Path) -> bool:
    """Whether a child of the server serves requests: not the deal stock's search
    process (a multiprocessing child at the lowest priority, whose background
    searches are not the requests' cost)."""
    try:
        command = (process / "cmdline").read_bytes()
    except OSError:
        return False
    return b"multiprocessing" not in command


async def run(
    host: str, port: int, players: int, moves: int, think: float, seed: int, progress: bool
) -> None:
    results = Results()
    rng = random.Random(seed)
    cpu_before = server_cpu_seconds(SERVER_PID[0]) if SERVER_PID else 0.0
    start = time.perf_counter()
    await asyncio.gather(
        *(
            player(host, port, moves, think, random.Random(rng.random()), results, progress)
            for _ in range(players)
        )
    )
    seconds = time.perf_counter() - start
    lat = sorted(results.latencies)
    if not lat:
        print(f"{players:4d} players: no moves made ({results.errors} errors)")
        return
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    print(
        f"{players:4d} players, think {think:g} s: {results.moves} moves in {seconds:.1f} s = "
        f"{results.moves / seconds:.0f} moves/s; latency p50 {p50:.2f} ms, p99 {p99:.2f} ms, "
        f"max {lat[-1] * 1000:.1f} ms; errors {results.errors}; load {load()}"
    )
    if results.reasons:
        reasons = results.reasons.most_common()
        print("      errors: " + ", ".join(f"{why} x{n}" for why, n in reasons))
    if SERVER_PID:  # a server this script started: its own CPU, per move
        spent = server_cpu_seconds(SERVER_PID[0]) - cpu_before
        what = "per move with its check" if progress else "per move"
        print(f"      server CPU {what}: {spent / results.moves * 1000:.3f} ms"
              f" ({spent:.2f} s for {results.moves} moves and {players} new games)")  # fmt: skip


def load() -> str:
    """The machine's load averages (1, 5 and 15 minutes): figures on a busy machine are noisy."""
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def servers_module() -> Any:
    """``tests/servers.py``, which starts ``bonanza serve`` and a throwaway PostgreSQL."""
    if str(REPOSITORY) not in sys.path:
        sys.path.insert(0, str(REPOSITORY))
    import tests.servers

    return tests.servers


@contextlib.contextmanager
def started_server(db: str | None, start_postgres: bool, workers: int) -> Iterator[str]:
    """``bonanza serve --workers N`` on ``db`` (or a throwaway PostgreSQL): its URL."""
    from bonanza.storage import redacted

    servers = servers_module()
    folder = Path(tempfile.mkdtemp(prefix="bonanza-bench-"))
    with contextlib.ExitStack() as stack:
        if start_postgres:
            db = stack.enter_context(servers.throwaway_postgres(durable=True)).url()
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
        "--progress", action="store_true", help="also ask for the stuck check after each move"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.moves <= 1000 or not all(1 <= p <= 1000 for p in args.players):
        parser.error("--moves and --players must be from 1 to 1000")
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
        weight = asyncio.run(page_weight(host, port))
        print(f"first page load (HTML + JS + CSS, uncompressed): {weight / 1024:.1f} KB")
        for players in args.players:
            asyncio.run(run(host, port, players, args.moves, args.think, args.seed, args.progress))
    return 0


if __name__ == "__main__":
    sys.exit(main())
