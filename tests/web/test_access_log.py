"""The request log: one line per request (JSON or text), tracebacks of errors, the
client's real address behind a trusted proxy, and never a cookie or a body."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.access_log import AccessLog, JsonFormatter, TextFormatter

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TOKEN = "Abcdefghijklmnop0123456789"
PROXY = ("127.0.0.1", 40000)
REAL_CLIENT = "203.0.113.7"


class Logs:
    """What the ``bonanza`` loggers wrote, in one format."""

    def __init__(self, formatter: logging.Formatter) -> None:
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(formatter)

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def entries(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text.splitlines()]

    def requests(self) -> list[dict[str, Any]]:
        return [entry for entry in self.entries() if entry["logger"] == "bonanza.access"]


def capture(formatter: logging.Formatter) -> Iterator[Logs]:
    logs = Logs(formatter)
    logger = logging.getLogger("bonanza")
    level = logger.level
    logger.addHandler(logs.handler)
    logger.setLevel(logging.INFO)
    yield logs
    logger.removeHandler(logs.handler)
    logger.setLevel(level)


@pytest.fixture
def json_logs() -> Iterator[Logs]:
    yield from capture(JsonFormatter())


@pytest.fixture
def text_logs() -> Iterator[Logs]:
    yield from capture(TextFormatter())


def logged_app(tmp_path: Path, **options: Any) -> Any:
    return create_app(SQLiteStorage(tmp_path / "games.db"), **options)


def test_each_request_is_one_json_line(tmp_path: Path, json_logs: Logs) -> None:
    app = logged_app(tmp_path)
    with TestClient(AccessLog(app)) as client:
        client.cookies.set("bonanza_player", TOKEN)
        assert client.get("/api/settings").status_code == 200
        assert client.get("/no/such/page?secret=1").status_code == 404
        body = {"safe_home": True, "note": "body-marker-4711"}
        assert client.post("/api/settings", json=body).status_code == 422
    requests = json_logs.requests()
    assert [(r["method"], r["path"], r["status"]) for r in requests] == [
        ("GET", "/api/settings", 200),
        ("GET", "/no/such/page", 404),
        ("POST", "/api/settings", requests[2]["status"]),
    ]
    for entry in requests:
        assert entry["level"] == "INFO" and entry["client"] == "testclient"
        assert entry["pid"] == os.getpid()  # several processes may write to one log
        assert isinstance(entry["duration_ms"], float) and entry["duration_ms"] >= 0
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", entry["time"])
        assert "traceback" not in entry
    assert TOKEN not in json_logs.text and "secret" not in json_logs.text
    assert "body-marker" not in json_logs.text and "bonanza_player" not in json_logs.text


def test_an_unexpected_error_is_logged_once_with_its_traceback(
    tmp_path: Path, json_logs: Logs
) -> None:
    app = logged_app(tmp_path)

    async def broken(player: str) -> None:
        raise RuntimeError("forced failure")

    app.state.service.current = broken
    with TestClient(AccessLog(app)) as client:
        response = client.get("/api/games/current")
        assert response.status_code == 500
        assert response.json() == {"error": "internal server error", "status": 500}
        assert client.get("/api/settings").status_code == 200  # the server goes on
    (failed, after) = json_logs.requests()
    assert failed["status"] == 500 and failed["level"] == "ERROR"
    assert failed["path"] == "/api/games/current"
    assert "Traceback (most recent call last)" in failed["traceback"]
    assert "in broken" in failed["traceback"]
    assert failed["traceback"].rstrip().endswith("RuntimeError: forced failure")
    assert after["status"] == 200
    assert json_logs.text.count("Traceback") == 1
    assert all(json.loads(line) for line in json_logs.text.splitlines())  # one object a line


def test_text_lines(tmp_path: Path, text_logs: Logs) -> None:
    with TestClient(AccessLog(logged_app(tmp_path))) as client:
        client.get("/api/settings")
        client.get("/a%0Ab")  # an encoded line break stays encoded
    lines = text_logs.text.splitlines()
    pattern = rf"\S+Z INFO {os.getpid()} bonanza\.access GET {{}} {{}} \d+\.\dms testclient"
    assert re.fullmatch(pattern.format("/api/settings", 200), lines[0]), lines[0]
    assert re.fullmatch(pattern.format("/a%0Ab", 404), lines[1]), lines[1]
    assert len(lines) == 2


def behind_proxy(app: Any, client: tuple[str, int] = PROXY) -> TestClient:
    """``app`` as uvicorn serves it with ``--proxy-headers`` (proxies: 127.0.0.1)."""
    proxied: Any = ProxyHeadersMiddleware(cast(Any, AccessLog(app)), trusted_hosts="127.0.0.1")
    return TestClient(proxied, base_url="http://game.example", client=client)


FORWARDED = {"x-forwarded-for": REAL_CLIENT, "x-forwarded-proto": "https"}


def test_behind_a_trusted_proxy_the_real_client_is_logged_and_the_cookie_is_secure(
    tmp_path: Path, json_logs: Logs
) -> None:
    app = logged_app(tmp_path, secure_cookies=True)
    with behind_proxy(app) as client:
        response = client.get("/api/settings", headers=FORWARDED)
        assert response.status_code == 200
        cookie = response.headers["set-cookie"]
        assert cookie.endswith("; Secure") and "HttpOnly" in cookie
        # The page's own writes pass the origin check: the proxy says the scheme is https.
        origin = {"origin": "https://game.example", **FORWARDED}
        assert client.post("/api/settings", json={"safe_home": True}, headers=origin).is_success
    assert {entry["client"] for entry in json_logs.requests()} == {REAL_CLIENT}


def test_forwarded_headers_from_an_untrusted_peer_are_ignored(
    tmp_path: Path, json_logs: Logs
) -> None:
    with behind_proxy(logged_app(tmp_path), client=("198.51.100.1", 40000)) as client:
        response = client.get("/api/settings", headers=FORWARDED)
        assert "Secure" not in response.headers["set-cookie"]
    assert [entry["client"] for entry in json_logs.requests()] == ["198.51.100.1"]
