"""``GET /healthz``: whether this process and its database can serve games.

Answered before the player and host checks (a load balancer's probe gets no
cookie, is not rate-limited, and may name the server by its IP address). The
database is asked one cheap read, in a worker thread; one check runs at a time
and its answer stands for ``CHECK_SECONDS``, so probes cannot crowd the
threads that serve games.

A store that reads but cannot be written (a full disk) is no healthier: while the
server's writer says its last writes failed, the check also writes (a setting,
through the writer), and reports the failure until a write goes through again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

import anyio
import anyio.to_thread
from starlette.types import ASGIApp, Receive, Scope, Send

from bonanza.storage import Storage, StorageError
from bonanza.web.errors import error_response
from bonanza.web.responses import JSONAnswer
from bonanza.web.wire_answers import Health
from bonanza.web.writer import StoreWriter

PATH = "/healthz"
METHODS = frozenset({"GET", "HEAD"})
OK = 200
UNAVAILABLE = 503
NOT_ALLOWED = 405
READ_TIMEOUT_SECONDS = 5.0
"""A database that has not answered the read by then is reported unusable."""
WRITE_TIMEOUT_SECONDS = 5.0
"""A write of the check's that is not committed by then is reported as failing."""
CHECK_SECONDS = 1.0
"""How long one check's answer is given to the probes that follow."""
PROBE_KEY = "healthz"
"""The setting read as the check (it need not exist), and written while writes fail."""

log = logging.getLogger("bonanza.web")


class HealthMiddleware:
    """Answers ``/healthz``; passes every other request to ``app`` untouched."""

    def __init__(
        self,
        app: ASGIApp,
        storage: Storage,
        clock: Callable[[], float] = time.monotonic,
        writer: StoreWriter | None = None,
    ) -> None:
        self.app = app
        self.storage = storage
        self.clock = clock
        self.writer = writer
        """The server's writer, whose failed writes the check reports (None: reads only)."""
        self._lock: anyio.Lock | None = None
        self._answer: tuple[float, str | None] | None = None
        """When the last check ended, and its problem (None: none)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != PATH:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in METHODS:
            message = f"{scope['method']} is not allowed on {PATH}"
            response = error_response(NOT_ALLOWED, message)
            response.headers["allow"] = ", ".join(sorted(METHODS))
            await response(scope, receive, send)
            return
        problem = await self.problem()
        if problem is None:
            await JSONAnswer(Health("ok", "ok"), status_code=OK)(scope, receive, send)
        else:
            answer = Health("unavailable", problem)
            await JSONAnswer(answer, status_code=UNAVAILABLE)(scope, receive, send)

    async def problem(self) -> str | None:
        """What keeps the database from being used, or None: the last check's answer if
        recent, else a new check's."""
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            if self._answer is not None and self.clock() - self._answer[0] < CHECK_SECONDS:
                return self._answer[1]
            problem = await self._check()
            self._answer = (self.clock(), problem)
            if problem is not None:
                log.warning("health check: %s", problem)
            return problem

    async def _check(self) -> str | None:
        """A read of the store, and a write while the writer's writes fail: the problem."""

        async def read() -> None:
            await anyio.to_thread.run_sync(
                self.storage.get_setting, PROBE_KEY, abandon_on_cancel=True
            )

        problem = await _attempt("read", READ_TIMEOUT_SECONDS, read)
        writer = self.writer
        if problem is not None or writer is None or writer.failing is None:
            return problem

        async def write() -> None:
            await writer.write(self.storage.set_setting, PROBE_KEY, str(time.time()))

        return await _attempt("write", WRITE_TIMEOUT_SECONDS, write)


async def _attempt(
    what: str, seconds: float, attempt: Callable[[], Awaitable[None]]
) -> str | None:
    """What went wrong with ``attempt``, a ``what`` (read or write) of the store given
    ``seconds``, or None if nothing did."""
    try:
        with anyio.fail_after(seconds):
            await attempt()
    except TimeoutError:
        return f"no answer to a {what} within {seconds:g} s"
    except StorageError as error:
        return f"a {what} failed: {error}"
    except Exception as error:  # any failure of the store is an answer, not a 500
        return f"a {what} failed: {type(error).__name__}"
    return None
