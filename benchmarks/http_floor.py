"""The floor under a request's server CPU: what an HTTP request costs a server that does
nothing, beside what ``bonanza serve``'s cheapest request costs, back to back and paced.

It starts two servers on loopback: a bare ASGI callable on uvicorn with httptools
(one ``send`` of a two-byte answer, no access log) and ``bonanza serve`` on a new
SQLite file, whose ``GET /healthz`` is its cheapest request (the access log, the
middleware, the app). Then for each it sends ``--requests`` requests over 100
keep-alive connections, with no pause (requests are answered in bursts) and with each
connection pausing about ``--think`` seconds between requests (each request arrives
alone, as players' moves do), and prints the server's CPU time per request from /proc.
A request that arrives alone costs several times one in a burst: the event loop wakes
for it alone, and its code and data are out of the caches by then::

    python benchmarks/http_floor.py
    python benchmarks/http_floor.py --requests 6000 --think 0.5 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from http_client import Connection
from proc_cpu import server_cpu_seconds

HOST = "127.0.0.1"
CONNECTIONS = 100
STARTUP_SECONDS = 30.0
BARE_ANSWER = b"{}"
LIMITS = ("--new-games-per-minute", "1000000", "--searches-per-address-per-minute", "1000000")


async def bare_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An ASGI app that answers every request ``{}`` and does nothing else."""
    if scope["type"] != "http":
        return
    headers = [(b"content-type", b"application/json"), (b"content-length", b"2")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": BARE_ANSWER})


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def started(command: list[str], port: int, log: Path) -> Iterator[int]:
    """Run ``command`` (a server on ``port``) until it answers; its process id."""
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not asyncio.run(answers(port)):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: {log.read_text()}")
            time.sleep(0.2)
        yield process.pid
    finally:
        process.terminate()
        process.wait(10)


async def answers(port: int) -> bool:
    try:
        status, _ = await Connection(HOST, port).request("GET", "/healthz")
    except OSError:
        return False
    return status == 200


async def client(port: int, path: str, count: int, think: float, seed: int) -> None:
    rng = random.Random(seed)
    conn = Connection(HOST, port)
    try:
        for _ in range(count):
            if think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            status, _ = await conn.request("GET", path)
            if status != 200:
                raise SystemExit(f"GET {path} answered {status}")
    finally:
        conn.close()


async def cpu_per_request(pid: int, port: int, path: str, requests: int, think: float) -> float:
    """The server's CPU microseconds per request over ``requests`` of ``path``."""
    each = max(1, requests // CONNECTIONS)
    await asyncio.gather(*(client(port, path, 2, 0, i) for i in range(CONNECTIONS)))  # warm
    before = server_cpu_seconds(pid)
    await asyncio.gather(*(client(port, path, each, think, i) for i in range(CONNECTIONS)))
    return (server_cpu_seconds(pid) - before) * 1e6 / (each * CONNECTIONS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="per measurement")
    parser.add_argument("--think", type=float, nargs="+", default=[0.5], help="paced runs")
    parser.add_argument("--serve-bare", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        import uvicorn

        uvicorn.run(bare_app, host=HOST, port=args.serve_bare, http="httptools",
                    access_log=False, log_level="warning")  # fmt: skip
        return
    folder = Path(tempfile.mkdtemp(prefix="bonanza-floor-"))
    bare_port, ours_port = free_port(), free_port()
    servers = {
        "bare ASGI app on uvicorn, GET /x": (
            [sys.executable, __file__, "--serve-bare", str(bare_port)], bare_port, "/x"
        ),
        "bonanza serve, GET /healthz": (
            [sys.executable, "-m", "bonanza", "serve", "--port", str(ours_port),
             "--db", str(folder / "floor.db"), *LIMITS],
            ours_port, "/healthz",
        ),
    }  # fmt: skip
    for name, (command, port, path) in servers.items():
        with started(command, port, folder / f"{port}.log") as pid:
            for think in (0.0, *args.think):
                micros = asyncio.run(cpu_per_request(pid, port, path, args.requests, think))
                pace = "back to back" if not think else f"think {think:g} s"
                load = ' '.join(f'{x:.2f}' for x in os.getloadavg())
                print(f"{name}, {pace}: {micros:.0f} µs server CPU per request "
                      f"(load {load})", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
