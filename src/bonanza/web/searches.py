"""Searches (hints, progress checks): cached per position, run in a bounded pool.

- Answers are cached per position, so a client looping ``/hint`` costs one search.
- Searches run in worker threads, at most ``search_workers`` at once.
- Each player may start ``searches_per_minute`` searches (cached answers are free).
- A search past ``search_deadline`` is abandoned: its client gets 503 and the
  worker's result, when it comes, is still cached. A search whose client has
  gone is abandoned the same way (see ``routes.until_disconnected``).
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.from_thread
import anyio.to_thread

from bonanza.core import Position, describe_move
from bonanza.session import Advisor, messages
from bonanza.web.errors import ApiError
from bonanza.web.limits import ServerLimits
from bonanza.web.rate import RateLimiter
from bonanza.web.view import move_json

T = TypeVar("T")


def default_advisor() -> Advisor:
    from bonanza.solver.advisor import SolverAdvisor

    return SolverAdvisor()


class SearchPool:
    """The server's searches, shared by all players."""

    def __init__(self, limits: ServerLimits, advisor: Advisor | None = None) -> None:
        self.limits = limits
        self.advisor = advisor if advisor is not None else default_advisor()
        self._workers = anyio.CapacityLimiter(limits.search_workers)
        self._rate = RateLimiter(limits.searches_per_minute)
        self._answers: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.searches_run = 0

    def _cached(self, key: str) -> dict[str, Any] | None:
        answer = self._answers.get(key)
        if answer is not None:
            self._answers.move_to_end(key)
        return answer

    def _keep(self, key: str, answer: dict[str, Any]) -> None:
        self._answers[key] = answer
        while len(self._answers) > self.limits.search_cache_size:
            self._answers.popitem(last=False)

    async def _search(
        self, player: str, key: str, work: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        cached = self._cached(key)
        if cached is not None:
            return cached
        if not self._rate.allow(player):
            raise ApiError(
                429, f"too many searches: at most {self.limits.searches_per_minute} a minute"
            )

        def run() -> dict[str, Any]:
            answer = work()
            # Kept even when its client stopped waiting (on the event loop's thread).
            with contextlib.suppress(RuntimeError):  # the server has stopped meanwhile
                anyio.from_thread.run_sync(self._keep, key, answer)
            return answer

        self.searches_run += 1
        with anyio.move_on_after(self.limits.search_deadline):
            return await anyio.to_thread.run_sync(
                run, abandon_on_cancel=True, limiter=self._workers
            )
        raise ApiError(
            503, f"the search took longer than {self.limits.search_deadline:g} s: try again"
        )

    async def hint(self, player: str, position: Position) -> dict[str, Any]:
        def work() -> dict[str, Any]:
            move = self.advisor.hint(position)
            if move is None:
                return {"move": None, "text": messages.NO_HINT}
            text = messages.sentence(describe_move(move, position))
            return {"move": move_json(move), "text": text}

        return await self._search(player, "hint " + _key(position), work)

    async def progress(self, player: str, position: Position) -> dict[str, Any]:
        def work() -> dict[str, Any]:
            return {"progress": self.advisor.progress(position)}

        return await self._search(player, "progress " + _key(position), work)


def _key(position: Position) -> str:
    return f"{position.rules!r} {position.to_text()}"
