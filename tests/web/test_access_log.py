"""The request log: one line per request (JSON or text), tracebacks of errors, the
client's real address behind a trusted proxy, and never a cookie or a body."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from bonanza.storage import SQLiteStorage
from bonanza.web import create_app
from bonanza.web.access_log import AccessLog, JsonFormatter, TextFormatter, _log

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
    """The ``bonanza`` loggers' lines in ``formatter``'s format, and no one else's: as
    ``bonanza serve`` sets logging up, with no other handler (pytest's own, on the
    root logger, would take each record, and so turn off the lines written directly)."""
    logs = Logs(formatter)
    logger = logging.getLogger("bonanza")
    level = logger.level
    logger.addHandler(logs.handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    yield logs
    logger.propagate = True
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


# -- the line written without a record ------------------------------------------------

AWKWARD = {  # a path with a quote, a backslash, Latin-1 and control bytes, as sent
    "type": "http",
    "method": "GET",
    "path": "/",
    "raw_path": b'/caf\xe9/"q"\\\x01\x7f?',
    "client": ("203.0.113.7", 40000),
}
NO_RAW_PATH = {"type": "http", "method": "HEAD", "path": '/a\nb"\u00e9'}  # and no client


class Collect(logging.Handler):
    """Keeps the records it is given."""

    def __init__(self, level: int = logging.NOTSET) -> None:
        super().__init__(level)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def log_requests(logs: Logs, *, through_records: bool) -> str:
    """Log the awkward requests at a fixed time into ``logs``: written directly,
    or (``through_records``, as a filter set on the logger forces) as records."""
    access = logging.getLogger("bonanza.access")
    kept = logging.Filter()  # lets every record through
    if through_records:
        access.addFilter(kept)
    try:
        for scope, status in ((AWKWARD, 200), (NO_RAW_PATH, 404), (AWKWARD, 500)):
            _log(scope, status, 10.0, None)
    finally:
        access.removeFilter(kept)
    return logs.text


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.25)
    monkeypatch.setattr(time, "time_ns", lambda: 1_700_000_000_250_000_000)
    monkeypatch.setattr(time, "perf_counter", lambda: 10.01234)


@pytest.mark.usefixtures("fixed_clock")
@pytest.mark.parametrize("formatter", [TextFormatter, JsonFormatter])
def test_a_line_written_directly_is_the_formatters_own(formatter: type[logging.Formatter]) -> None:
    lines = []
    for through_records in (False, True):
        for logs in capture(formatter()):
            lines.append(log_requests(logs, through_records=through_records))
    assert lines[0] == lines[1]
    assert len(lines[0].splitlines()) == 3
    if formatter is JsonFormatter:
        first, second, _ = (json.loads(line) for line in lines[0].splitlines())
        assert first["path"] == '/caf\u00e9/"q"\\\x01\x7f?' and first["duration_ms"] == 12.3
        assert first["time"] == "2023-11-14T22:13:20.250Z" and first["client"] == REAL_CLIENT
        assert second["path"] == '/a\\nb"\u00e9' and second["client"] == "-"
    else:
        assert lines[0].splitlines()[1].endswith(' HEAD /a\\nb"\u00e9 404 12.3ms -')


def test_other_logging_set_ups_still_get_records(text_logs: Logs) -> None:
    """A handler not of ours, a handler's level and filters, and the logger's level
    work as ``logging`` has them (a record is made when a handler needs one)."""
    bonanza = logging.getLogger("bonanza")
    collect, above = Collect(), Collect(logging.WARNING)
    bonanza.addHandler(collect)
    bonanza.addHandler(above)
    try:
        _log(AWKWARD, 200, time.perf_counter(), None)
        (record,) = collect.records
        assert record.name == "bonanza.access" and record.levelno == logging.INFO
        assert record.__dict__["status"] == 200 and record.__dict__["client"] == REAL_CLIENT
        assert record.getMessage() == text_logs.text.split(" ", 4)[4].rstrip("\n")
        assert above.records == []
        text_logs.handler.addFilter(lambda record: False)
        _log(AWKWARD, 201, time.perf_counter(), None)
        assert [r.__dict__["status"] for r in collect.records] == [200, 201]
        bonanza.setLevel(logging.WARNING)
        _log(AWKWARD, 202, time.perf_counter(), None)
        assert len(collect.records) == 2
    finally:
        bonanza.removeHandler(collect)
        bonanza.removeHandler(above)
    assert len(text_logs.text.splitlines()) == 1  # the filtered handler wrote no more


@pytest.mark.usefixtures("fixed_clock")
def test_a_stream_handler_with_another_formatter_gets_that_formatters_line(
    text_logs: Logs,
) -> None:
    stream = io.StringIO()
    other = logging.StreamHandler(stream)
    other.setFormatter(logging.Formatter("%(levelname)s|%(message)s|%(status)s"))
    logging.getLogger("bonanza").addHandler(other)
    try:
        _log(AWKWARD, 200, 10.0, None)
    finally:
        logging.getLogger("bonanza").removeHandler(other)
    assert stream.getvalue() == 'INFO|GET /caf\u00e9/"q"\\\x01\x7f? 200 12.3ms 203.0.113.7|200\n'
    assert text_logs.text.endswith(' GET /caf\u00e9/"q"\\\x01\x7f? 200 12.3ms 203.0.113.7\n')


def test_a_handler_above_info_a_filter_or_a_logger_that_does_not_propagate_write_nothing(
    text_logs: Logs, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(logging.getLogger(), "handlers", [])  # pytest's: see capture
    text_logs.handler.setLevel(logging.WARNING)
    _log(AWKWARD, 200, time.perf_counter(), None)
    assert text_logs.text == ""
    text_logs.handler.setLevel(logging.NOTSET)
    access = logging.getLogger("bonanza.access")
    access.propagate = False
    try:
        _log(AWKWARD, 200, time.perf_counter(), None)
    finally:
        access.propagate = True
    assert text_logs.text == ""
    for filtered in (access, text_logs.handler):  # a filter that lets nothing through
        filtered.addFilter(lambda record: False)
        try:
            _log(AWKWARD, 200, time.perf_counter(), None)
        finally:
            filtered.filters.clear()
    assert text_logs.text == ""
    _log(AWKWARD, 200, time.perf_counter(), None)
    assert text_logs.text.count("\n") == 1
