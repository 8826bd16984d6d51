"""One log line per request, and the traceback of any error the app lets out.

:class:`AccessLog` wraps the whole app (outside Starlette's error handler, which
answers 500 and then raises the error again): it logs each request's method,
path, status, duration and client address to the ``bonanza.access`` logger,
with the traceback when the request ended in an error, which it then keeps
from the server (so the error is logged once). It never logs a header (so no
cookie), a query string, or a body. Every line names the process that wrote it
(``bonanza serve --workers`` runs several).

A request's line is written straight to the streams of the handlers it goes to,
formatted as their formatter would, when each is a plain ``StreamHandler`` with
:class:`TextFormatter` or :class:`JsonFormatter` and no filter is set (as
``bonanza serve`` sets logging up): no ``LogRecord`` is made. Any other logging
set-up, and an error's line, take the ordinary way through ``logging``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from datetime import UTC, datetime
from json.encoder import encode_basestring
from typing import Any, Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bonanza.web.errors import error_response

log = logging.getLogger("bonanza.access")
SERVER_ERROR = 500
REQUEST_FIELDS = ("method", "path", "status", "duration_ms", "client")
"""What a request's log record carries, beside its message (``extra``)."""
NO_CLIENT = "-"
MESSAGE: Final = "%s %s %d %.1fms %s"
"""A request's message: method, path, status, duration and client."""
_JSON: Final = json.JSONEncoder(ensure_ascii=False, default=str)
"""``json.dumps(..., ensure_ascii=False, default=str)``, made once."""


class AccessLog:
    """Logs every HTTP request ``app`` answers: a pure ASGI middleware, so a request
    costs two clock reads, one wrapped ``send`` and one line written."""

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

    The line is written directly when it can be (see the module notes); else the
    record is made and handled directly: ``Logger.log`` would also look up the
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
    fields = (method, path, status, duration_ms, address)
    if error is None and _write_directly(fields):
        return
    log.handle(_record(level, fields, error))


def _record(
    level: int, fields: tuple[Any, str, int, float, Any], error: BaseException | None
) -> logging.LogRecord:
    """A request's log record: its message, and its fields as ``extra``."""
    exc_info = (type(error), error, error.__traceback__) if error is not None else None
    return log.makeRecord(
        log.name,
        level,
        __file__,
        0,
        MESSAGE,
        fields,
        exc_info,
        extra=dict(zip(REQUEST_FIELDS, fields, strict=True)),
    )


def _write_directly(fields: tuple[Any, str, int, float, Any]) -> bool:
    """Write a request's INFO line to the stream of every handler the record would
    go to, as ``Logger.handle`` would, but with no record made: only when each of
    them is a plain ``StreamHandler`` with one of our formatters and no filter is
    set, else False (nothing written). Any handler above INFO is passed over."""
    method, _, status, _, address = fields
    levelname = logging.getLevelName(logging.INFO)
    if (log.filters or log.disabled or type(method) is not str or type(status) is not int
            or type(address) is not str or type(levelname) is not str):  # fmt: skip
        return False
    handlers: list[logging.StreamHandler[Any]] = []
    found = 0
    logger: logging.Logger | None = log
    while logger is not None:
        for handler in logger.handlers:
            found += 1
            if handler.level > logging.INFO:
                continue
            if (type(handler) is not logging.StreamHandler or handler.filters
                    or type(handler.formatter) not in _DIRECT_FORMATTERS):  # fmt: skip
                return False
            handlers.append(handler)
        logger = logger.parent if logger.propagate else None
    if not found:
        return False  # logging's last resort, or its warning that no handler is set
    stamp = _stamp(time.time())
    message = MESSAGE % fields
    lines: list[str | None] = [None, None]  # text, JSON: made once each
    for handler in handlers:
        as_json = type(handler.formatter) is JsonFormatter
        line = lines[as_json]
        if line is None:
            line = lines[as_json] = _line(as_json, stamp, levelname, message, fields)
        handler.acquire()
        try:
            handler.stream.write(line + handler.terminator)
            handler.flush()
        except RecursionError:
            raise
        except Exception:
            handler.handleError(_record(logging.INFO, fields, None))
        finally:
            handler.release()
    return True


def _line(
    as_json: bool,
    stamp: str,
    levelname: str,
    message: str,
    fields: tuple[str, str, int, float, str],
) -> str:
    """What :class:`JsonFormatter` (``as_json``) or :class:`TextFormatter` writes for a
    request's INFO record (``fields`` of the exact types ``str``, ``str``, ``int``,
    ``float``, ``str``)."""
    if not as_json:
        return f"{stamp} {levelname} {_process[0]} {log.name} {message}"
    method, path, status, duration_ms, address = fields
    return (
        f'{{"time": {encode_basestring(stamp)}, "level": {encode_basestring(levelname)}, '
        f'"pid": {_process[0]}, "logger": {encode_basestring(log.name)}, '
        f'"message": {encode_basestring(message)}, "method": {encode_basestring(method)}, '
        f'"path": {encode_basestring(path)}, "status": {status!r}, '
        f'"duration_ms": {duration_ms!r}, "client": {encode_basestring(address)}}}'
    )


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
        return _JSON.encode(entry)


_second: list[Any] = [None, ""]
"""The last whole second stamped, and its text up to the seconds (made once a second)."""


def _timestamp(record: logging.LogRecord) -> str:
    """The record's time in UTC, to the millisecond (ISO 8601)."""
    return _stamp(record.created)


def _stamp(created: float) -> str:
    """``created`` (seconds since the epoch) in UTC, to the millisecond (ISO 8601)."""
    second = int(created)
    if _second[0] != second:
        moment = datetime.fromtimestamp(second, UTC)
        _second[:] = [second, moment.strftime("%Y-%m-%dT%H:%M:%S.")]
    return f"{_second[1]}{int((created - second) * 1000):03d}Z"


_DIRECT_FORMATTERS: Final = frozenset({TextFormatter, JsonFormatter})
"""The formatters whose lines ``_write_directly`` writes itself."""
