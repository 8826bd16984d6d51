"""Searches (hints, progress checks): cached per position, run in a bounded pool.

- Answers are cached per position, so a client looping ``/hint`` costs one search.
- Searches run in worker threads, at most ``search_workers`` at once.
- Each player may start ``searches_per_minute`` searches (cached answers are free).
- A search past ``search_deadline`` is abandoned and its client gets 503. In
  a worker thread (the default) it runs to its end, and its answer is still
  cached; in a worker process (``search_processes``) the process is killed.
- The progress check first tries a small budget on the event loop, which
  decides nearly every position in well under a millisecond; only the rest
  go to the workers.
- A client that goes away is not watched for: polling for it cost more than
  the searches themselves (p99 of a move 33 ms without, 96 ms with, in
  ``benchmarks/server.py --progress``), and the deadline bounds the waste.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_process
import anyio.to_thread

from bonanza.core import Position, describe_move
from bonanza.session import Advisor, messages
from bonanza.web.errors import ApiError
from bonanza.web.limits import ServerLimits
from bonanza.web.rate import RateLimiter
from bonanza.web.view import move_json

T = TypeVar("T")


QUICK_PROGRESS_NODES = 200
"""The progress check's first try, on the event loop: nearly every position is
decided within it (median 0.05 ms, p99 about 4 ms), and a thread hop costs more."""


def default_advisor() -> Advisor:
    from bonanza.solver.advisor import SolverAdvisor

    return SolverAdvisor()


def quick_advisor() -> Advisor:
    from bonanza.solver.advisor import SolverAdvisor

    return SolverAdvisor(progress_nodes=QUICK_PROGRESS_NODES)


class SearchPool:
    """The server's searches, shared by all players."""

    def __init__(self, limits: ServerLimits, advisor: Advisor | None = None) -> None:
        self.limits = limits
        self.advisor = advisor if advisor is not None else default_advisor()
        # A small first try on the event loop, for the solver's own advisor only.
        self.quick: Advisor | None = quick_advisor() if advisor is None else None
        self._workers = anyio.CapacityLimiter(limits.search_workers)
        self._rate = RateLimiter(limits.searches_per_minute)
        self._answers: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.searches_run = 0

    def _cached(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            answer = self._answers.get(key)
            if answer is not None:
                self._answers.move_to_end(key)
            return answer

    def _keep(self, key: str, answer: dict[str, Any]) -> None:
        """Cache an answer (called from worker threads too)."""
        with self._lock:
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
            self._keep(key, answer)  # kept even when its client stopped waiting
            return answer

        self.searches_run += 1
        with anyio.move_on_after(self.limits.search_deadline):
            if self.limits.search_processes:
                answer = await anyio.to_process.run_sync(
                    work, cancellable=True, limiter=self._workers
                )
                self._keep(key, answer)
                return answer
            return await anyio.to_thread.run_sync(
                run, abandon_on_cancel=True, limiter=self._workers
            )
        raise ApiError(
            503, f"the search took longer than {self.limits.search_deadline:g} s: try again"
        )

    async def hint(self, player: str, position: Position) -> dict[str, Any]:
        work = functools.partial(hint_answer, self.advisor, position)
        return await self._search(player, "hint " + _key(position), work)

    async def progress(self, player: str, position: Position) -> dict[str, Any]:
        key = "progress " + _key(position)
        if self.quick is not None and self._cached(key) is None:
            found = self.quick.progress(position)
            if found is not None:  # decided within the small budget
                answer = {"progress": found}
                self._keep(key, answer)
                return answer
        work = functools.partial(progress_answer, self.advisor, position)
        return await self._search(player, key, work)


def hint_answer(advisor: Advisor, position: Position) -> dict[str, Any]:
    """The hint's answer (module level, so a worker process can run it)."""
    move = advisor.hint(position)
    if move is None:
        return {"move": None, "text": messages.NO_HINT}
    return {"move": move_json(move), "text": messages.sentence(describe_move(move, position))}


def progress_answer(advisor: Advisor, position: Position) -> dict[str, Any]:
    return {"progress": advisor.progress(position)}


def _key(position: Position) -> str:
    return f"{position.rules!r} {position.to_text()}"
