"""SIGHUP to a one-process ``bonanza serve`` (its terminal closed, or a service
manager's reload) stops it as SIGTERM does: a request under way is answered and its
game stored, then the process ends with the signal's status (129).

A host's ssh session dropped while a player's new game was being sent: the server
died at once, the player's request got no answer and the store was not closed."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path

from bonanza.storage import SQLiteStorage
from tests.servers import Server, free_port

BODY = json.dumps({"deal": "0"}).encode()
STOP_SECONDS = 30.0


def test_sighup_answers_the_request_under_way_then_stops(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.db", free_port()).start()
    assert server.process is not None
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=STOP_SECONDS) as sock:
            head = (
                f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(BODY)}\r\n\r\n"
            )
            sock.sendall(head.encode() + BODY[:3])
            time.sleep(0.5)  # the request is under way: its body half sent
            server.process.send_signal(signal.SIGHUP)
            time.sleep(0.5)
            sock.sendall(BODY[3:])
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 201"), answer[:200]
        assert server.process.wait(STOP_SECONDS) == -signal.SIGHUP
    finally:
        server.stop()
    store = SQLiteStorage(server.db)
    try:
        game_id = json.loads(answer.partition(b"\r\n\r\n")[2])["id"]
        assert store.get_game(game_id) is not None
    finally:
        store.close()
