"""``bonanza serve``'s hosting options reach uvicorn and the app; a real server set by
environment variables logs JSON lines with the client behind its proxy."""

from __future__ import annotations

import http.client
import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bonanza.cli import build_parser, hosting
from bonanza.web.access_log import AccessLog, JsonFormatter, TextFormatter
from tests.servers import Server, free_port

STARTUP = 30.0


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, dict[str, Any]]]]:
    """What uvicorn is asked to serve, and how (it is not run), root logging restored after."""
    from bonanza.cli import serve

    calls: list[tuple[Any, dict[str, Any]]] = []

    def serve_on(sockets: list[socket.socket], app: Any, **kwargs: Any) -> int:
        calls.append((app, kwargs))
        return 0

    monkeypatch.setattr(serve, "serve_on", serve_on)
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield calls
    root.handlers, root.level = handlers, level
    for app, _kwargs in calls:
        app.app.state.service.storage.close()


def serve(tmp_path: Path, *argv: str) -> None:
    args = build_parser().parse_args(
        ["serve", "--db", str(tmp_path / "games.db"), "--port", str(free_port()), *argv]
    )
    assert args.func(args) == 0


def test_by_default_proxy_headers_are_not_trusted(
    served: list[tuple[Any, dict[str, Any]]], tmp_path: Path
) -> None:
    serve(tmp_path)
    ((app, kwargs),) = served
    assert isinstance(app, AccessLog)
    assert kwargs["proxy_headers"] is False and kwargs["access_log"] is False
    assert kwargs["log_config"] is None and kwargs["log_level"] == "warning"
    assert isinstance(logging.getLogger().handlers[0].formatter, TextFormatter)


def test_the_hosting_options_reach_uvicorn_and_the_app(
    served: list[tuple[Any, dict[str, Any]]], tmp_path: Path
) -> None:
    serve(
        tmp_path,
        "--proxy-headers",
        "--forwarded-allow-ips",
        "10.0.0.2,10.1.0.0/16",
        "--allowed-hosts",
        "game.example",
        "--log-format",
        "json",
    )
    ((app, kwargs),) = served
    assert kwargs["proxy_headers"] is True
    assert kwargs["forwarded_allow_ips"] == "10.0.0.2,10.1.0.0/16"
    assert isinstance(logging.getLogger().handlers[0].formatter, JsonFormatter)
    assert logging.getLogger("bonanza.access").isEnabledFor(logging.INFO)
    middleware = {entry.cls.__name__: entry.kwargs for entry in app.app.user_middleware}
    assert middleware["PlayerMiddleware"]["secure"] is True
    assert middleware["AllowedHostsMiddleware"]["hosts"] == ("game.example",)


def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=STARTUP)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_a_server_set_by_the_environment(tmp_path: Path) -> None:
    env = {
        "BONANZA_LOG_FORMAT": "json",
        "BONANZA_PROXY_HEADERS": "1",
        "BONANZA_ALLOWED_HOSTS": "game.example",
    }
    stderr = tmp_path / "stderr.txt"
    server = Server(
        tmp_path / "games.db",
        free_port(),
        environment=env,
        settings_from_environment=True,
        log_path=stderr,
        merge_output=False,
    )
    server.start(STARTUP)
    try:
        proxied = {
            "host": "game.example",
            "x-forwarded-for": "203.0.113.9",
            "x-forwarded-proto": "https",
        }
        status, headers, body = get(server.port, "/api/settings", proxied)
        assert status == 200 and headers["set-cookie"].endswith("; Secure")
        status, _headers, body = get(server.port, "/api/settings", {"host": "other.example"})
        assert status == 400 and json.loads(body)["status"] == 400
        status, _headers, body = get(server.port, "/healthz", {"host": "127.0.0.1"})
        assert status == 200 and json.loads(body) == {"status": "ok", "database": "ok"}
    finally:
        server.stop()
    entries = [json.loads(line) for line in stderr.read_text().splitlines()]
    started = "/static/style.css"  # Server.start's check
    requests = [
        (e["path"], e["status"], e["client"]) for e in entries if e.get("path", started) != started
    ]
    assert requests == [
        ("/api/settings", 200, "203.0.113.9"),
        ("/api/settings", 400, "127.0.0.1"),
        ("/healthz", 200, "127.0.0.1"),
    ]


def test_hosting_from_checks_the_log_level() -> None:
    args = build_parser().parse_args(["serve", "--log-level", "LOUD"])
    with pytest.raises(Exception, match="--log-level must be one of"):
        hosting.hosting_from(args)
