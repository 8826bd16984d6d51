"""Two ``bonanza serve`` processes on one store, one player in two tabs playing across both,
each process killed by SIGKILL and restarted mid-game: every acknowledged move is kept, in
order, on SQLite and on PostgreSQL."""

from __future__ import annotations

import itertools
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.servers import Server, free_port
from tests.web import deals

ALTERNATING_MOVES = 24
"""Moves of the winning line played first, the tabs taking turns, one at a time."""
INTERLEAVED_ACKS = 60
"""Moves the two tabs get acknowledged while playing at once (and through the kills)."""
KILL_AFTER = (15, 35)
"""After this many interleaved acknowledgements, kill the first server, then the second."""
TIMEOUT = 10.0
RETRY_SECONDS = 0.05
"""A tab whose server is down waits this long before trying again."""
RUN_SECONDS = 240.0
"""The interleaved phase gives up after this long (a hung server)."""
SERVER_ERROR = 500
SEED = 15


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    if request.param == "sqlite":
        return tmp_path / "games.db"
    url: str = request.getfixturevalue("postgres_url")
    return url


@dataclass
class Tab:
    """One browser tab: the player's cookie, talking to one server (or the other while
    its own is down)."""

    servers: list[Server]
    home: int
    cookies: dict[str, str]
    acknowledged: list[tuple[int, str]] = field(default_factory=list)
    """What each acknowledged move's answer said: the game's moves then, and the last."""
    server_errors: list[str] = field(default_factory=list)

    def post(self, path: str, body: Any) -> httpx.Response | None:
        """``body`` to ``path`` on this tab's server, else the other; None if neither
        answered (both down, or the connection died with the server)."""
        for index in (self.home, 1 - self.home):
            try:
                response = httpx.post(
                    self.servers[index].url + path, json=body, cookies=self.cookies,
                    timeout=TIMEOUT,
                )
            except httpx.HTTPError:
                continue
            if response.status_code >= SERVER_ERROR:
                self.server_errors.append(f"{response.status_code} {response.text}")
            return response
        return None

    def get(self, path: str) -> httpx.Response | None:
        for index in (self.home, 1 - self.home):
            try:
                return httpx.get(self.servers[index].url + path, cookies=self.cookies,
                                 timeout=TIMEOUT)
            except httpx.HTTPError:
                continue
        return None


def play_interleaved(tab: Tab, game_id: str, total: list[int], done: threading.Event,
                     rng: random.Random) -> None:
    """Play random legal moves from the last state this tab saw until ``done``."""
    state: dict[str, Any] | None = None
    while not done.is_set():
        if state is None:
            answer = tab.get(f"/api/games/{game_id}")
            if answer is None or answer.status_code != 200:
                time.sleep(RETRY_SECONDS)
                continue
            state = answer.json()
        legal = state["position"]["legal"]
        if state["status"] != "playing" or not legal:
            return
        move = rng.choice(legal)["text"]
        answer = tab.post(f"/api/games/{game_id}/moves", {"move": move})
        if answer is None:
            state = None
            time.sleep(RETRY_SECONDS)
            continue
        if answer.status_code != 200:  # the other tab moved first: look again
            state = None
            continue
        state = answer.json()
        assert state is not None
        tab.acknowledged.append((state["moves"], state["last"]["text"]))
        total[0] += 1


def test_one_game_in_two_tabs_on_two_servers_survives_sigkills(
    store: str | Path, tmp_path: Path
) -> None:
    number, line = deals.winning()
    texts = deals.texts(line)
    servers = [
        Server(store, free_port(), log_path=tmp_path / f"server{index}.log") for index in (0, 1)
    ]
    for server in servers:
        server.start()
    try:
        created = httpx.post(servers[0].url + "/api/games", json={"deal": number}, timeout=TIMEOUT)
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        cookies = dict(created.cookies)
        tabs = [Tab(servers, home, cookies) for home in (0, 1)]

        # The tabs take turns: each move's answer counts the whole line so far.
        for count, (tab, text) in enumerate(
            zip(itertools.cycle(tabs), texts[:ALTERNATING_MOVES], strict=False), 1
        ):
            answer = tab.post(f"/api/games/{game_id}/moves", {"move": text})
            assert answer is not None and answer.status_code == 200, (count, answer and answer.text)
            said = (answer.json()["moves"], answer.json()["last"]["text"])
            assert said == (count, texts[count - 1]), f"move {count} on server {tab.home}"
            tab.acknowledged.append(said)

        # Both at once, while each server in turn is killed and started again.
        total = [0]
        done = threading.Event()
        rng = random.Random(SEED)
        threads = [
            threading.Thread(
                target=play_interleaved,
                args=(tab, game_id, total, done, random.Random(rng.random())),
            )
            for tab in tabs
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + RUN_SECONDS
        try:
            for victim, after in enumerate(KILL_AFTER):
                while total[0] < after and time.monotonic() < deadline:
                    time.sleep(RETRY_SECONDS)
                servers[victim].kill()
                servers[victim].start()
            while total[0] < INTERLEAVED_ACKS and time.monotonic() < deadline:
                time.sleep(RETRY_SECONDS)
        finally:
            done.set()
            for thread in threads:
                thread.join(TIMEOUT * 2)
        assert total[0] >= INTERLEAVED_ACKS, f"only {total[0]} moves acknowledged"

        stored = [
            httpx.get(f"{server.url}/api/games/{game_id}", cookies=cookies, timeout=TIMEOUT).json()
            for server in servers
        ]
    finally:
        for server in servers:
            server.stop()
    assert stored[0]["history"] == stored[1]["history"], "the two servers disagree"
    history = stored[0]["history"]
    assert stored[0]["moves"] == len(history)
    # Every acknowledged move is stored where its answer put it: nothing acknowledged was
    # lost, reordered or played on a position the player never saw.
    acknowledged = sorted(said for tab in tabs for said in tab.acknowledged)
    for count, text in acknowledged:
        assert history[count - 1 : count] == [text], f"acknowledged move {count} lost or changed"
    # Beyond the last acknowledged move, at most the moves in flight at the kills.
    assert len(history) - acknowledged[-1][0] <= len(tabs)
    assert [error for tab in tabs for error in tab.server_errors] == []
