"""A move's cost in the web app itself, in one process, without the network.

One player plays seeded random games through the whole ASGI app (its middleware, the
hot path, the game, the view, the progress check and the store's writer thread) on a
SQLite file, one move request at a time, and this prints the CPU time per move of the
event loop's thread and of the whole process (the writer's commits included). With no
sockets, HTTP parsing or other players, it shows what the app's own code costs (with
``--sync FULL``, also a writer thread's hand-off and fsync per commit), and
under ``valgrind --tool=callgrind`` its instruction count does not depend on the
machine's load (run it at two sizes and take the difference per move)::

    python benchmarks/app_move.py --moves 2000
    valgrind --tool=callgrind python benchmarks/app_move.py --moves 600
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from pathlib import Path
from typing import Any

from bonanza.core import Deal
from bonanza.storage import SQLiteStorage
from bonanza.web.app import create_app

HOST = b"127.0.0.1:8000"
ORIGIN = b"http://" + HOST
LONGEST_GAME = 150
"""Moves after which the player starts a new game (random play rarely ends one)."""
DEAL_NUMBERS = 1_000_000

Message = MutableMapping[str, Any]
App = Callable[
    [Message, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
    Coroutine[Any, Any, None],
]


async def start(app: App) -> asyncio.Queue[Message]:
    """Run the app's lifespan startup; the queue that takes its shutdown message."""
    inbox: asyncio.Queue[Message] = asyncio.Queue()
    outbox: asyncio.Queue[Message] = asyncio.Queue()
    await inbox.put({"type": "lifespan.startup"})
    scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    asyncio.get_running_loop().create_task(app(scope, inbox.get, outbox.put))
    started = await outbox.get()
    if started["type"] != "lifespan.startup.complete":
        raise SystemExit(f"the app did not start: {started}")
    return inbox


async def request(
    app: App, method: str, path: str, body: Any = None, cookie: bytes | None = None
) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """One request from the page's own origin: its status, headers and body."""
    headers = [(b"host", HOST), (b"origin", ORIGIN), (b"sec-fetch-site", b"same-origin")]
    data = b"" if body is None else json.dumps(body).encode()
    if body is not None:
        headers += [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data))]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": headers, "client": ("127.0.0.1", 5555),
        "server": ("127.0.0.1", 8000), "state": {},
    }  # fmt: skip
    sent = False
    answer: dict[str, Any] = {"status": 0, "headers": [], "body": b""}

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer["status"], answer["headers"] = message["status"], message["headers"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return answer["status"], answer["headers"], answer["body"]


async def play(moves: int, synchronous: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        deals = random.Random(seed)
        app: App = create_app(
            SQLiteStorage(Path(folder) / "games.db", synchronous=synchronous),
            random_deals=lambda: Deal.from_number(deals.randrange(1, DEAL_NUMBERS)),
        )
        shutdown = await start(app)
        _, headers, _ = await request(app, "GET", "/api/settings")
        cookie = next(value for name, value in headers if name == b"set-cookie").split(b";")[0]
        rng = random.Random(seed)

        async def new_game() -> dict[str, Any]:
            status, _, body = await request(app, "POST", "/api/games", {}, cookie)
            if status != 201:
                raise SystemExit(f"a new game failed: {status} {body!r}")
            game: dict[str, Any] = json.loads(body)
            return game

        state = await new_game()
        played, thread, process = 0, 0.0, 0.0
        while played < moves:
            legal = state["position"]["legal"]
            if state["status"] != "playing" or not legal or state["moves"] > LONGEST_GAME:
                state = await new_game()
                continue
            move = rng.choice(legal)["text"]
            path = f"/api/games/{state['id']}/moves"
            thread_before, process_before = time.thread_time(), time.process_time()
            status, _, body = await request(app, "POST", path, {"move": move}, cookie)
            thread += time.thread_time() - thread_before
            process += time.process_time() - process_before
            if status != 200:
                raise SystemExit(f"a move failed: {status} {body!r}")
            state.update(json.loads(body))
            played += 1
        await shutdown.put({"type": "lifespan.shutdown"})
        print(
            f"{played} moves: {thread / played * 1e6:.0f} µs of the event loop's thread's CPU "
            f"and {process / played * 1e6:.0f} µs of the process's per move "
            f"(SQLite synchronous={synchronous})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument(
        "--sync", choices=["FULL", "NORMAL"], default="NORMAL",
        help="SQLite's durability; NORMAL is `bonanza serve`'s default (its writes on the loop)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()
    asyncio.run(play(arguments.moves, arguments.sync, arguments.seed))


if __name__ == "__main__":
    main()
