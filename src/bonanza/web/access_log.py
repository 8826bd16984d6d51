"""One log line per request, and the traceback of any error the app lets out.

:class:`AccessLog` wraps the whole app (outside Starlette's error handler, which
answers 500 and then raises the error again): it logs each request's method,
path, status, duration and client address to the ``bonanza.access`` logger,
with the traceback when the request ended in an error, which it then keeps
from the server (so the error is logged once). It never logs a header (so no
cookie), a query string, or a body. Every line names the process that wrote it
(``bonanza serve --workers`` runs several).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bonanza.web.errors import error_response

log = logging.getLogger("bonanza.access")
SERVER_ERROR = 500
REQUEST_FIELDS = ("method", "path", "status", "duration_ms", "client")
"""What a request's log record carries, beside its message (``extra``)."""
NO_CLIENT = "-"


class AccessLog:
    """Logs every HTTP request ``app`` answers: a pure ASGI middleware, so a request
    costs two clock reads, one wrapped ``send`` and one log record."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = 0  # no answer begun yet

        async def send_noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_noting_status)
        except Exception as error:  # Starlette's handler answers 500, then raises again
            if not status:  # an answer had not begun: this one is the client's
                with contextlib.suppress(Exception):  # the client may have gone
                    await error_response(SERVER_ERROR, "internal server error")(
                        scope, receive, send
                    )
            _log(scope, SERVER_ERROR, began, error)
            return
        _log(scope, status or SERVER_ERROR, began, None)


def _log(scope: Scope, status: int, began: float, error: BaseException | None) -> None:
    """One line for one request (with ``error``'s traceback).

    The record is made and handled directly: ``Logger.log`` would also look up the
    calling line in the stack, which every record here shares.
    """
    level = logging.ERROR if error is not None else logging.INFO
    if not log.isEnabledFor(level):
        return
    duration_ms = round((time.perf_counter() - began) * 1000, 1)
    raw_path = scope.get("raw_path")  # as sent: a decoded path could hold a line break
    path = raw_path.decode("latin-1") if raw_path else repr(scope["path"])[1:-1]
    client = scope.get("client")
    address = client[0] if client else NO_CLIENT
    method = scope["method"]
    exc_info = (type(error), error, error.__traceback__) if error is not None else None
    record = log.makeRecord(
        log.name,
        level,
        __file__,
        0,
        "%s %s %d %.1fms %s",
        (method, path, status, duration_ms, address),
        exc_info,
        extra={
            "method": method,
            "path": path,
            "status": status,
            "duration_ms": duration_ms,
            "client": address,
        },
    )
    log.handle(record)


_process: list[int] = [os.getpid()]
"""This process's id (``LogRecord.process`` is not filled in: see
``hosting.configure_logging``)."""
os.register_at_fork(after_in_child=lambda: _process.__setitem__(0, os.getpid()))


class TextFormatter(logging.Formatter):
    """``2025-01-31T12:00:00.123Z INFO 4242 bonanza.access GET / 200 1.2ms 127.0.0.1``
    (4242: the process), and a traceback below the line when there is one."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(pid)d %(name)s %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.pid = _process[0]
        return super().formatMessage(record)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return _timestamp(record)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time``, ``level``, ``pid`` (the process), ``logger``,
    ``message``, a request's fields (``method``, ``path``, ``status``, ``duration_ms``,
    ``client``) and ``traceback`` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        # A log line, not an answer: its fields are whatever a record carries (a
        # request's, an exception's), and stdlib logging hands it no declared type.
        entry: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname,
            "pid": _process[0],
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in REQUEST_FIELDS:
            if field in record.__dict__:
                entry[field] = record.__dict__[field]
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["traceback"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False, default=str)


_second: list[Any] = [None, ""]
"""The last whole second stamped, and its text up to the seconds (made once a second)."""


def _timestamp(record: logging.LogRecord) -> str:
    """The record's time in UTC, to the millisecond (ISO 8601)."""
    second = int(record.created)
    if _second[0] != second:
        moment = datetime.fromtimestamp(second, UTC)
        _second[:] = [second, moment.strftime("%Y-%m-%dT%H:%M:%S.")]
    return f"{_second[1]}{int((record.created - second) * 1000):03d}Z"
