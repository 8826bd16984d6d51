"""The server's limits, each named, with a default a small host can live with."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Final

SYNC_CHOICES = ("normal", "full")
"""The store's durability (``ServerLimits.sync``): SQLite's ``synchronous`` in WAL mode."""
MOST_CONNECTIONS: Final = 1_000_000
"""The most ``max_connections`` may be: about the most open files Linux lets one process
have (``fs.nr_open``, 1,048,576 by default), each connection being one."""
MOST_SECONDS: Final = 3600
"""The most a limit in seconds may be: an hour, far past any client worth waiting for
(a huge one would overflow the event loop's timers)."""
MOST_SEARCH_WORKERS: Final = 256
"""The most searches that may run at once: far past the cores of any host, and with
``search_processes`` each may be a process of its own."""
MOST_BODY_BYTES: Final = 16 * 2**20
"""The most ``max_body_bytes`` may be: every request of the game is under a kilobyte,
and a body is held in memory whole."""
MOST_JSON_DEPTH: Final = 512
"""The most ``max_json_depth`` may be: below the interpreter's recursion limit, which
a deeper document would reach as it is read."""
UPPER_BOUNDS: Final[dict[str, int]] = {
    "search_workers": MOST_SEARCH_WORKERS,
    "max_body_bytes": MOST_BODY_BYTES,
    "max_json_depth": MOST_JSON_DEPTH,
    "max_connections": MOST_CONNECTIONS,
    "header_timeout": MOST_SECONDS,
    "body_timeout": MOST_SECONDS,
    "keep_alive_timeout": MOST_SECONDS,
    "search_deadline": MOST_SECONDS,
}
"""The limits ``bonanza serve`` caps, by field, and the most each may be."""


def _cores() -> int:
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """What one server process allows each client, and itself.

    Every field can be set in configuration (``bonanza serve`` options); the
    defaults keep one player from slowing another on a two-core machine.
    """

    max_body_bytes: int = 8 * 1024
    """A request body above this is refused (413)."""
    max_json_depth: int = 32
    """JSON nested deeper than this is refused (400)."""
    max_history_moves: int = 5_000
    """A game refuses moves beyond this many (409), so no game grows without bound."""
    new_games_per_minute: int = 30
    """New games one client address may start in any 60 seconds (429 beyond), counted in
    the store: every process on it holds the limit together, whatever cookie is sent."""
    searches_per_minute: int = 60
    """Hints and progress checks one player may run in any 60 seconds (429 beyond)."""
    searches_per_address_per_minute: int = 240
    """Searches all the players of one client address may run in any 60 seconds (429
    beyond): cookies are free, so the player's own limit alone stops no flood."""
    search_workers: int = field(default_factory=_cores)
    """Searches that run at once, in worker threads (the rest wait their turn)."""
    search_processes: bool = False
    """Run searches in worker processes rather than threads: they then use every
    core without taking the event loop's interpreter lock, and an abandoned
    search is stopped at once; but each search pays about 4 ms to go there and
    back, more than most hints and progress checks cost, so threads are the
    default."""
    search_deadline: float = 10.0
    """Seconds after which a search's client gets 503 and the search is abandoned."""
    search_cache_size: int = 4096
    """Positions whose hint and progress answers are kept."""
    game_cache_size: int = 2048
    """Live games kept in memory (storage stays the truth)."""
    body_timeout: float = 10.0
    """Seconds a client may take to send a request body (408 beyond)."""
    header_timeout: float = 10.0
    """Seconds a connection may take to send its request headers before it is closed."""
    keep_alive_timeout: float = 5.0
    """Seconds an idle keep-alive connection stays open."""
    max_connections: int = 4000
    """Connections served at once; beyond, new ones get 503. (Each is an open file:
    ``bonanza serve`` raises the process's open-file limit to fit, up to the
    system's hard limit.)"""
    sync: str = "normal"
    """The store's durability: "normal" keeps every answered write through a crash or a
    kill of the server, "full" also through a power cut or an OS crash, at the cost of
    an fsync per commit (a slower, longer tail of answers)."""

    def __post_init__(self) -> None:
        if self.sync not in SYNC_CHOICES:
            raise ValueError(f"sync must be one of {', '.join(SYNC_CHOICES)}, not {self.sync!r}")
