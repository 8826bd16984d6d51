"""DNS rebinding (issue 31, item 6): a server on a loopback address with no
``--allowed-hosts`` answers only to the machine's own names, so a page of another
site whose name was rebound to 127.0.0.1 cannot read or reset the local player's
games; ``--allowed-hosts`` still decides when given."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bonanza.web.hosts import LOCAL_NAMES, AllowedHostsMiddleware, host_name
from tests.servers import Server, free_port

STARTUP = 30.0


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``bonanza serve`` on 127.0.0.1 with the local player and no allowed hosts."""
    db = tmp_path_factory.mktemp("hosts") / "games.db"
    served = Server(db, free_port(), args=("--local-player",)).start(STARTUP)
    yield served
    served.stop()


def ask(server: Server, method: str, path: str, host: str) -> httpx.Response:
    origin = f"http://{host}"
    headers = {"host": host, "origin": origin, "content-type": "application/json"}
    return httpx.request(method, server.url + path, headers=headers, timeout=STARTUP)


def test_a_rebound_name_is_refused_and_the_machines_names_served(local: Server) -> None:
    port = local.port
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "LOCALHOST"):
        assert ask(local, "GET", "/api/stats", host).status_code == 200, host
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}",
                 f"localhost.evil.example:{port}"):  # fmt: skip
        for method, path in (("GET", "/api/stats"), ("DELETE", "/api/stats"), ("GET", "/")):
            refused = ask(local, method, path, host)
            assert refused.status_code == 400, (host, method, path)
            assert "set-cookie" not in refused.headers


def test_allowed_hosts_still_decide_on_loopback(tmp_path: Path) -> None:
    served = Server(tmp_path / "g.db", free_port(), args=("--allowed-hosts", "game.example"))
    served.start(STARTUP)
    try:
        assert ask(served, "GET", "/api/settings", "game.example").status_code == 200
        assert ask(served, "GET", "/api/settings", f"localhost:{served.port}").status_code == 400
    finally:
        served.stop()


def test_host_names_are_read_without_their_port() -> None:
    assert host_name("[::1]:8000") == "[::1]" and host_name("LocalHost:80") == "localhost"
    assert host_name("[::1]") == "[::1]" and host_name("example.com") == "example.com"
    check = AllowedHostsMiddleware(None, LOCAL_NAMES)  # type: ignore[arg-type]
    assert check.allows("[::1]:9") and not check.allows("[::2]:9") and not check.allows("")
    wide = AllowedHostsMiddleware(None, ("*.b.example", "a.example"))  # type: ignore[arg-type]
    assert wide.allows("x.b.example:1") and not wide.allows("b.example.evil")
