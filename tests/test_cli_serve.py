"""``bonanza serve``: its options, its one-line errors, and the timeouts of a real server."""

from __future__ import annotations

import dataclasses
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bonanza.cli import build_parser
from bonanza.cli.serve import limits_from, option
from bonanza.cli.serving import NOT_HTTP
from bonanza.web.limits import ServerLimits
from tests.servers import Server, free_port, running

HEADER_TIMEOUT = 0.5
BODY_TIMEOUT = 0.5
SLACK = 3.0
"""Seconds a timeout may fire late on a loaded machine."""
STARTUP = 30.0
TRICKLE_GAP = 0.1
HUGE_HEADER = 64 * 1024
"""Bytes of one header: over h11's 16 KiB limit on an unfinished request head."""


def bonanza(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bonanza", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=STARTUP,
    )


def test_an_out_of_range_port_is_one_line_and_status_2() -> None:
    result = bonanza("serve", "--port", "99999")
    assert result.returncode == 2
    expected = "bonanza serve: --port must be from 1 to 65535, not 99999"
    assert result.stderr.splitlines() == [expected]
    assert result.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        ["--port", "0"],
        ["--port", "http"],
        ["--max-connections", "0"],
        ["--search-workers", "1.5"],
        ["--header-timeout", "nan"],
        ["--body-timeout", "-1"],
        ["--keep-alive-timeout", "inf"],
        ["--sync", "off"],
        ["--log-level", "loud"],
        ["--allowed-hosts", "a b"],
        ["--forwarded-allow-ips", "proxy"],
        ["--workers", "0"],
        ["--workers", "-2"],
        ["--workers", "1.5"],
        ["--workers", "two"],
    ],
)
def test_bad_values_are_one_line_and_status_2(args: list[str]) -> None:
    result = bonanza("serve", *args)
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"bonanza serve: {args[0]} must be") and args[1] in line
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_every_limit_is_an_option_that_reaches_the_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from bonanza.cli import serve

    defaults = ServerLimits()
    fields = dataclasses.fields(ServerLimits)
    switches = [f.name for f in fields if isinstance(getattr(defaults, f.name), bool)]
    choices = [f.name for f in fields if isinstance(getattr(defaults, f.name), str)]
    names = [f.name for f in fields if f.name not in switches and f.name not in choices]
    given = {name: str(index + 2) for index, name in enumerate(names)}
    port = free_port()
    argv = ["serve", "--db", str(tmp_path / "games.db"), "--port", str(port)]
    for name, value in given.items():
        argv += [option(name), value]
    argv += ["--no-" + option(name).removeprefix("--") for name in switches]
    argv += ["--sync", "FULL"]
    args = build_parser().parse_args(argv)
    limits = limits_from(args)
    for name, value in given.items():
        assert getattr(limits, name) == float(value), name
    assert switches and all(getattr(limits, name) is False for name in switches)
    assert choices == ["sync"] and limits.sync == "full"
    calls: list[dict[str, Any]] = []
    apps: list[Any] = []
    ports: list[int] = []

    def serve_on(sockets: list[socket.socket], app: Any, **kwargs: Any) -> int:
        apps.append(app)
        calls.append(kwargs)
        ports.extend(sock.getsockname()[1] for sock in sockets)
        return 0

    monkeypatch.setattr(serve, "serve_on", serve_on)
    assert args.func(args) == 0
    (kwargs,) = calls
    storage = apps[0].app.state.service.storage  # the app inside the request log
    assert storage._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    storage.close()
    assert ports == [port]
    assert kwargs["limit_concurrency"] == limits.max_connections
    assert kwargs["timeout_keep_alive"] == limits.keep_alive_timeout
    assert kwargs["http"].__name__ == "HeaderTimeoutProtocol"


def test_help_names_each_limit() -> None:
    result = bonanza("serve", "--help")
    assert result.returncode == 0
    for limit in dataclasses.fields(ServerLimits):
        assert option(limit.name) in result.stdout


# -- a real server ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """``bonanza serve`` with short header and body timeouts: its port."""
    timeouts = ("--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT))
    db = tmp_path_factory.mktemp("serve") / "games.db"
    served = Server(db, free_port(), args=timeouts).start(STARTUP)
    yield served.port
    served.stop()


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=HEADER_TIMEOUT + SLACK)
    return sock


def seconds_until_closed(sock: socket.socket) -> float:
    """Seconds until the server closes ``sock`` (reading and dropping what it sends)."""
    began = time.monotonic()
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - began


def exchange(sock: socket.socket, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send one request on ``sock``; its response's status, headers and body."""
    sock.sendall(request)
    response = http.client.HTTPResponse(sock)
    response.begin()
    body = response.read()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_a_half_sent_request_line_is_closed_after_the_header_timeout(server: int) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET / HT")
        waited = seconds_until_closed(sock)
    assert HEADER_TIMEOUT * 0.8 <= waited <= HEADER_TIMEOUT + SLACK


def test_a_silent_connection_is_closed_after_the_header_timeout(server: int) -> None:
    with connect(server) as sock:
        waited = seconds_until_closed(sock)
    assert waited <= HEADER_TIMEOUT + SLACK


def test_headers_trickled_a_byte_at_a_time_do_not_hold_the_connection(server: int) -> None:
    """The timer does not restart with each byte: the whole head must arrive in time."""
    request = b"GET /api/games/current HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    began = time.monotonic()
    with connect(server) as sock:
        try:
            for byte in request:
                sock.sendall(bytes([byte]))
                time.sleep(TRICKLE_GAP)
        except (BrokenPipeError, ConnectionResetError):
            pass
        seconds_until_closed(sock)
    assert time.monotonic() - began <= HEADER_TIMEOUT + SLACK
    assert time.monotonic() - began < len(request) * TRICKLE_GAP


def test_a_connection_serves_requests_after_a_refused_one(server: int) -> None:
    get = b"GET /api/games/current HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    body = b'{"deal": "0"}'
    form = (
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    with connect(server) as sock:
        status, _, _ = exchange(sock, get)
        assert status == 204
        status, headers, answer = exchange(sock, form)
        assert status == 415 and headers["content-type"] == "application/json"
        assert json.loads(answer)["status"] == 415
        time.sleep(HEADER_TIMEOUT * 2)  # idle between requests: the keep-alive timeout rules
        status, _, _ = exchange(sock, get)
        assert status in (200, 204)


def test_a_body_that_stalls_gets_408_and_the_connection_closes(server: int) -> None:
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    with connect(server) as sock:
        began = time.monotonic()
        status, headers, answer = exchange(sock, head + b'{"deal": ')
        assert time.monotonic() - began <= BODY_TIMEOUT + SLACK
        assert status == 408 and headers.get("connection") == "close"
        assert "took more than" in json.loads(answer)["error"]
        assert seconds_until_closed(sock) <= SLACK


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"NOT HTTP AT ALL\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * HUGE_HEADER,  # a head without end
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n",
    ],
    ids=["garbage", "bad header", "huge header", "bad length"],
)
def test_a_request_that_is_not_http_gets_400_in_json(server: int, request_bytes: bytes) -> None:
    with connect(server) as sock:
        status, headers, answer = exchange(sock, request_bytes)
        assert status == 400 and headers["content-type"] == "application/json"
        assert json.loads(answer) == {"error": NOT_HTTP, "status": 400}
        assert seconds_until_closed(sock) <= SLACK


def test_a_large_head_within_the_limit_is_served(server: int) -> None:
    from bonanza.cli.serving import MAX_HEAD_BYTES

    filler = b"a" * (MAX_HEAD_BYTES - 1024)
    with connect(server) as sock:
        request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + filler + b"\r\n\r\n"
        status, _headers, _answer = exchange(sock, request)
        assert status == 200


def test_the_local_player_is_the_default_only_for_this_machines_own_store() -> None:
    import argparse

    from bonanza.cli.serve import uses_local_player

    def args(**given: object) -> argparse.Namespace:
        return argparse.Namespace(
            **{"local_player": None, "db": None, "host": "127.0.0.1", **given}
        )

    assert uses_local_player(args())
    assert not uses_local_player(args(host="0.0.0.0"))
    assert not uses_local_player(args(db="games.db"))
    assert uses_local_player(args(db="games.db", local_player=True))
    assert not uses_local_player(args(local_player=False))


# -- several worker processes ----------------------------------------------------------

WORKERS = 2
ATTEMPTS = 200
"""Requests on new connections a round, a tenth of it, until every worker has answered."""


def test_bad_workers_from_the_environment_is_one_line_naming_it() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bonanza", "serve"],
        capture_output=True,
        text=True,
        check=False,
        timeout=STARTUP,
        env={**os.environ, "BONANZA_WORKERS": "0"},
    )
    assert result.returncode == 2
    expected = "bonanza serve: BONANZA_WORKERS must be a whole number from 1 to 256, not '0'"
    assert result.stderr.splitlines() == [expected]


def test_help_explains_workers() -> None:
    result = bonanza("serve", "--help")
    assert "--workers N" in result.stdout and "BONANZA_WORKERS" in result.stdout


def pids_in(log: Path) -> set[int]:
    """The processes that logged a request (the JSON request log).

    A line still being written by a worker has no newline yet and is skipped.
    """
    complete = log.read_text().split("\n")[:-1]
    lines = [json.loads(line) for line in complete if line.startswith("{")]
    return {line["pid"] for line in lines if line.get("logger") == "bonanza.access"}


def wait_until_gone(pids: set[int]) -> set[int]:
    """The processes of ``pids`` still running after up to ``STARTUP`` seconds."""
    deadline = time.monotonic() + STARTUP
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return {pid for pid in pids if running(pid)}


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Server]:
    """``bonanza serve --workers 2`` with a short header timeout and JSON logs."""
    args = ("--workers", str(WORKERS), "--header-timeout", str(HEADER_TIMEOUT),
            "--log-format", "json")
    server = Server(tmp_path / "games.db", free_port(), args=args).start(STARTUP)
    yield server
    server.stop()


def serving_pids(server: Server) -> set[int]:
    """The workers that answered requests on new connections, until each has (or
    ``STARTUP`` seconds: on a loaded machine the second worker may start seconds after
    the first answers, and take no connection before)."""
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        for _ in range(ATTEMPTS // 10):
            with connect(server.port) as sock:
                status, _, body = exchange(sock, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                assert status == 200 and json.loads(body) == {"status": "ok", "database": "ok"}
        pids = pids_in(server.log)
        if len(pids) == WORKERS:
            return pids
        time.sleep(0.1)
    return pids_in(server.log)


def test_several_workers_serve_one_address_and_sigterm_stops_them_all(workers: Server) -> None:
    pids = serving_pids(workers)
    assert len(pids) == WORKERS and workers.process is not None
    assert workers.process.pid not in pids  # the parent only watches over them
    # One player's game, served by whichever worker takes each connection.
    with httpx.Client(base_url=workers.url, timeout=STARTUP) as client:
        game = client.post("/api/games", json={"deal": "7"}).json()
        for _ in range(3):
            moved = client.post(f"/api/games/{game['id']}/moves", json={"move": "sw"})
            assert moved.status_code == 200
        assert client.get(f"/api/games/{game['id']}").json()["history"] == ["sw"] * 3
    # The header timeout holds in every worker.
    for _ in range(WORKERS * 2):
        with connect(workers.port) as sock:
            assert seconds_until_closed(sock) <= HEADER_TIMEOUT + SLACK
    workers.process.terminate()
    assert workers.process.wait(STARTUP) == -signal.SIGTERM  # ended by it, as one process is
    assert wait_until_gone(pids) == set()


def test_a_sigkilled_parent_takes_its_workers_with_it(workers: Server) -> None:
    pids = serving_pids(workers)
    assert len(pids) == WORKERS
    workers.kill()
    left = wait_until_gone(pids)
    for pid in left:  # none should be, but none may stay serving if so
        os.kill(pid, signal.SIGKILL)
    assert left == set()
    with pytest.raises(OSError):  # nobody is left on the address
        socket.create_connection(("127.0.0.1", workers.port), timeout=1).close()


def limits_after_raising(soft: int, hard: int, connections: int) -> tuple[str, str]:
    """In a fresh process whose open-file limits are ``soft`` and ``hard``: what
    ``raise_open_file_limit(connections)`` leaves, and what it printed."""
    import subprocess
    import sys

    code = (
        "import resource; from bonanza.cli.serve import raise_open_file_limit;"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({soft}, {hard}));"
        f"raise_open_file_limit({connections});"
        "print(resource.getrlimit(resource.RLIMIT_NOFILE))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.strip(), done.stderr


def test_serve_raises_its_open_file_limit_to_fit_its_connections() -> None:
    import resource

    from bonanza.cli.serve import FILES_BESIDES_CONNECTIONS

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1000 + FILES_BESIDES_CONNECTIONS
    if hard != resource.RLIM_INFINITY and hard < wanted + 1:
        pytest.skip(f"this machine's hard limit ({hard}) is too low to test with")
    limits, said = limits_after_raising(512, wanted + 1, 1000)
    assert limits == f"({wanted}, {wanted + 1})" and said == ""
    limits, said = limits_after_raising(512, 600, 1000)  # the hard limit stops it
    assert limits == "(600, 600)" and "ulimit -Hn" in said
    limits, said = limits_after_raising(wanted + 5, wanted + 5, 1000)  # enough already
    assert limits == f"({wanted + 5}, {wanted + 5})" and said == ""
