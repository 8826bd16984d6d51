"""``bonanza serve`` on a port in use, or with ``--open`` and no browser (issue 31, A4):
one line each, the first with status 2 before anything is served or opened, the
second while the game goes on being served."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bonanza.cli import EXIT_BAD_INPUT
from bonanza.cli.serving import listening_sockets
from bonanza.core.errors import BonanzaError
from tests.servers import Server, free_port

STARTUP = 30.0
POLL_SECONDS = 0.1


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port another server listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_is_one_line_and_status_2(
    busy_port: int, workers: str, tmp_path: Path
) -> None:
    db = tmp_path / "games.db"
    done = subprocess.run(
        [sys.executable, "-m", "bonanza", "serve", "--port", str(busy_port), "--db", str(db),
         "--workers", workers],
        capture_output=True, text=True, timeout=STARTUP, check=False,
    )
    assert (done.returncode, done.stdout) == (EXIT_BAD_INPUT, "")  # nothing said to be served
    assert done.stderr.splitlines() == [
        f"bonanza serve: cannot listen on 127.0.0.1:{busy_port}: the port is in use"
        " (by another server?): give another --port"
    ]
    assert not db.exists()  # nothing opened either


@pytest.mark.parametrize(
    ("host", "words"),
    [("nosuch.invalid", "cannot listen on nosuch.invalid:"), ("192.0.2.1", "cannot assign")],
    ids=["unknown name", "an address of another machine"],
)
def test_an_address_that_cannot_be_listened_on_is_refused(host: str, words: str) -> None:
    with pytest.raises(BonanzaError, match=words):
        listening_sockets(host, free_port())


def test_the_sockets_are_those_uvicorn_would_make() -> None:
    port = free_port()
    sockets = listening_sockets("127.0.0.1", port)
    try:
        (sock,) = sockets
        assert sock.getsockname() == ("127.0.0.1", port)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)  # listening
        assert sock.family == socket.AF_INET and sock.get_inheritable()
    finally:
        for sock in sockets:
            sock.close()


def test_open_without_a_browser_says_so_and_serves_on(tmp_path: Path) -> None:
    nowhere = tmp_path / "no-programs"
    nowhere.mkdir()
    environment = {  # no display, no browser named, none on the PATH
        "PATH": str(nowhere), "DISPLAY": "", "WAYLAND_DISPLAY": "",
        "BROWSER": str(nowhere / "browser"),
    }
    server = Server(tmp_path / "games.db", free_port(), args=("--open",),
                    environment=environment).start(STARTUP)
    try:
        said = f"bonanza serve: --open: no web browser could be started here; open {server.url}/"
        deadline = time.monotonic() + STARTUP
        while said not in server.log.read_text() and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
        log = server.log.read_text()
        assert [line for line in log.splitlines() if "--open" in line] == [
            f"{said} in one yourself"
        ]
        assert "Traceback" not in log
        assert httpx.get(server.url + "/healthz", timeout=STARTUP).status_code == 200
        assert server.process is not None and server.process.poll() is None
    finally:
        server.stop()
