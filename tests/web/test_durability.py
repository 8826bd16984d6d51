"""Every acknowledged move survives a SIGKILL of the server."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx

from tests.servers import Server, free_port

from . import deals


def test_sigkill_mid_game_loses_nothing_acknowledged(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.db", free_port()).start()
    number, moves = deals.winning()
    texts = deals.texts(moves)
    acknowledged: list[str] = []
    try:
        with httpx.Client(base_url=server.url, timeout=5) as client:
            state = client.post("/api/games", json={"deal": number}).json()
            gid = state["id"]
            for text in texts[:30]:
                response = client.post(f"/api/games/{gid}/moves", json={"move": text})
                assert response.status_code == 200
                acknowledged.append(text)
            assert client.post(f"/api/games/{gid}/undo").status_code == 200
            undone = acknowledged.pop()
            cookies = dict(client.cookies)

            # Keep playing from a second thread and kill the server while it does.
            stop = threading.Event()

            def keep_playing() -> None:
                with httpx.Client(base_url=server.url, timeout=2, cookies=cookies) as player:
                    for text in [undone, *texts[30:60]]:
                        if stop.is_set():
                            return
                        try:
                            response = player.post(f"/api/games/{gid}/moves", json={"move": text})
                        except httpx.HTTPError:
                            return
                        if response.status_code != 200:
                            return
                        acknowledged.append(text)

            worker = threading.Thread(target=keep_playing)
            worker.start()
            while len(acknowledged) < 40 and worker.is_alive():
                threading.Event().wait(0.002)
            server.kill()
            stop.set()
            worker.join(10)
        assert len(acknowledged) >= 30

        server.start()  # same database file, fresh process
        with httpx.Client(base_url=server.url, timeout=5, cookies=cookies) as client:
            state = client.get(f"/api/games/{gid}").json()
            history = state["history"]
            # Everything acknowledged is there; at most the one move in flight at the kill
            # may also have landed (committed, its answer lost).
            assert history[: len(acknowledged)] == acknowledged
            assert len(history) - len(acknowledged) <= 1
            assert state["moves"] == len(history)
            current = client.get("/api/games/current").json()
            assert current["id"] == gid
            undone_state = client.post(f"/api/games/{gid}/undo").json()
            assert undone_state["moves"] == len(history) - 1
            assert client.get(f"/api/games/{gid}").json()["history"] == history[:-1]
            assert client.post(f"/api/games/{gid}/redo").json()["moves"] == len(history)
            assert client.get(f"/api/games/{gid}").json()["history"] == history
            # Another player still cannot see it after the restart.
            assert httpx.get(f"{server.url}/api/games/{gid}").status_code == 404
    finally:
        server.stop()
