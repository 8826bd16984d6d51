"""A request body its handler does not read cannot hold a connection (issue 31, B: the
slow loris): a real ``bonanza serve`` answers ``GET /healthz`` with ``Content-Length:
100000`` (or chunks) at once, says ``connection: close``, and ends the connection within
the body timeout however the client trickles the rest."""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path

import pytest

from tests.servers import Server, free_port

BODY_TIMEOUT = 0.5
SLACK = 3.0
"""Seconds a timeout may fire late on a loaded machine."""
STARTUP = 30.0
TRICKLE_GAP = 0.2
TRICKLE_SECONDS = BODY_TIMEOUT + SLACK + 2.0
"""How long a trickle goes on at most: longer than a connection may be held."""
MAX_CONNECTIONS = 10
"""The server's --max-connections: as many slow clients as it takes to fill it."""
UPLOAD_BYTES = 2**20
WORKER_TRIES = 4
PATHS = ("/healthz", "/api/settings", "/api/stats", "/static/style.css")
UNREAD_BODIES = {
    "content-length": (b"Content-Length: 100000\r\n", b"x"),
    "chunked": (b"Transfer-Encoding: chunked\r\n", b"100000\r\nx"),  # a 1 MiB chunk begun
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``bonanza serve`` with a short body timeout and few connections."""
    args = ("--body-timeout", str(BODY_TIMEOUT), "--max-connections", str(MAX_CONNECTIONS))
    db = tmp_path_factory.mktemp("bodies") / "games.db"
    served = Server(db, free_port(), args=args).start(STARTUP)
    yield served
    served.stop()


def connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=STARTUP)


def answer(sock: socket.socket, request: bytes) -> tuple[int, dict[str, str]]:
    """Send ``request``; the status and headers of its answer (its body read)."""
    sock.sendall(request)
    response = http.client.HTTPResponse(sock)
    response.begin()
    response.read()
    return response.status, {name.lower(): value for name, value in response.getheaders()}


def request_with_unread_body(path: str, body: str) -> bytes:
    """A GET of ``path`` announcing a body of which only the first byte comes."""
    header, start = UNREAD_BODIES[body]
    return b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n%s" % (path.encode(), header, start)


def seconds_held(sock: socket.socket) -> float:
    """Trickle a byte every ``TRICKLE_GAP``: the seconds until the server has closed the
    connection (a send fails), ``TRICKLE_SECONDS`` at most."""
    began = time.monotonic()
    while time.monotonic() - began < TRICKLE_SECONDS:
        try:
            sock.sendall(b"x")
        except (BrokenPipeError, ConnectionResetError):
            return time.monotonic() - began
        time.sleep(TRICKLE_GAP)
    return time.monotonic() - began


@pytest.mark.parametrize("body", UNREAD_BODIES)
@pytest.mark.parametrize("path", PATHS)
def test_an_unread_body_trickled_does_not_hold_the_connection(
    server: Server, path: str, body: str
) -> None:
    with connect(server) as sock:
        status, headers = answer(sock, request_with_unread_body(path, body))
        assert status == 200 and headers.get("connection") == "close"
        assert seconds_held(sock) <= BODY_TIMEOUT + SLACK


def test_slow_clients_cannot_fill_the_server(server: Server) -> None:
    """As many trickling clients as --max-connections, answered: a newcomer is served."""
    with contextlib.ExitStack() as stack:
        slow = [stack.enter_context(connect(server)) for _ in range(MAX_CONNECTIONS)]
        for sock in slow:  # the last ones fill the server: 503
            status, _ = answer(sock, request_with_unread_body("/healthz", "content-length"))
            assert status in (HTTPStatus.OK, HTTPStatus.SERVICE_UNAVAILABLE)
        began = time.monotonic()
        while time.monotonic() - began < BODY_TIMEOUT + SLACK:  # they trickle on
            for sock in slow:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    sock.sendall(b"x")
            time.sleep(TRICKLE_GAP)
        with connect(server) as sock:
            assert answer(sock, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")[0] == 200


def test_a_body_that_came_whole_keeps_the_connection(server: Server) -> None:
    """Only a body still coming when the answer starts ends the connection."""
    with connect(server) as sock:
        request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello"
        status, headers = answer(sock, request)
        assert status == 200 and "connection" not in headers
        status, _ = answer(sock, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert status == 200


def test_the_answer_reaches_a_client_that_sends_its_body_fast(server: Server) -> None:
    """The connection ends without a reset: a client still sending (a large upload to a
    handler that answers without reading it) reads the answer whole."""
    with connect(server) as sock:
        head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n"
        sock.sendall(head % (10 * UPLOAD_BYTES))
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(b"x" * UPLOAD_BYTES)
        response = http.client.HTTPResponse(sock)
        response.begin()
        assert response.status == 200 and response.read()



def test_each_worker_of_several_ends_such_connections(tmp_path: Path) -> None:
    """``--workers``: every worker's protocol has the body timeout too."""
    args = ("--workers", "2", "--body-timeout", str(BODY_TIMEOUT))
    served = Server(tmp_path / "games.db", free_port(), args=args).start(STARTUP)
    try:
        for _ in range(WORKER_TRIES):  # new connections: each worker takes some
            with connect(served) as sock:
                status, headers = answer(sock, request_with_unread_body("/healthz", "chunked"))
                assert status == 200 and headers.get("connection") == "close"
                assert seconds_held(sock) <= BODY_TIMEOUT + SLACK
    finally:
        served.stop()
