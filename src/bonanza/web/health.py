"""``GET /healthz``: whether this process and its database can serve games.

Answered before the player and host checks (a load balancer's probe gets no
cookie, is not rate-limited, and may name the server by its IP address). The
database is asked one cheap read, in a worker thread; one check runs at a time
and its answer stands for ``CHECK_SECONDS``, so probes cannot crowd the
threads that serve games.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import anyio
import anyio.to_thread
from starlette.types import ASGIApp, Receive, Scope, Send

from bonanza.storage import Storage, StorageError
from bonanza.web.errors import error_response
from bonanza.web.responses import JSONAnswer
from bonanza.web.wire_answers import Health

PATH = "/healthz"
METHODS = frozenset({"GET", "HEAD"})
OK = 200
UNAVAILABLE = 503
NOT_ALLOWED = 405
READ_TIMEOUT_SECONDS = 5.0
"""A database that has not answered the read by then is reported unusable."""
CHECK_SECONDS = 1.0
"""How long one check's answer is given to the probes that follow."""
PROBE_KEY = "healthz"
"""The setting read as the check (it need not exist)."""

log = logging.getLogger("bonanza.web")


class HealthMiddleware:
    """Answers ``/healthz``; passes every other request to ``app`` untouched."""

    def __init__(
        self, app: ASGIApp, storage: Storage, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.app = app
        self.storage = storage
        self.clock = clock
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
        try:
            with anyio.fail_after(READ_TIMEOUT_SECONDS):
                await anyio.to_thread.run_sync(
                    self.storage.get_setting, PROBE_KEY, abandon_on_cancel=True
                )
        except TimeoutError:
            return f"no answer to a read within {READ_TIMEOUT_SECONDS:g} s"
        except StorageError as error:
            return f"a read failed: {error}"
        except Exception as error:  # any failure of the store is an answer, not a 500
            return f"a read failed: {type(error).__name__}"
        return None
