"""The deal stock's searches, run in a child process of the lowest priority.

The filler's searches are mostly short C solves with Python between them
(sampling layouts to grade a deal). In a thread of the server they would take
the interpreter lock from the event loop for up to a switch interval at a
time, and every answer would wait behind them; in a process of their own they
take only what the machine has to spare.

When the child dies (killed, out of memory), the next search starts a new one
after a back-off that doubles with each death in a row, and the death is logged:
the stock never runs dry for good.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Final

from bonanza.core import Rules
from bonanza.play.parent import end_with_parent
from bonanza.session.deals import random_deal
from bonanza.solver.grading import GradedDeal, grade_deal

log = logging.getLogger("bonanza.play")

LOWEST_PRIORITY: Final = 19
"""The nice value of the search process."""
STOP_POLL: Final = 0.1
"""Seconds between looks at whether the filler is stopping, while a search runs."""
FIRST_BACKOFF: Final = 1.0
"""Seconds before a new child is started after the first death in a row."""
MAX_BACKOFF: Final = 300.0
"""The longest wait before a new child, however many died in a row."""


def find_random_deal(rules: Rules, stopping: Callable[[], bool]) -> GradedDeal | None:
    """A secret random deal, graded if the solver proves it winnable."""
    return grade_deal(random_deal(), rules, stopping=stopping)


def _find_in_child(rules: Rules) -> GradedDeal | None:
    return find_random_deal(rules, lambda: False)  # the solve's own time limit bounds it


def _prepare_child() -> None:
    """The child's start: the lowest priority, and an end with the server's."""
    end_with_parent()
    with contextlib.suppress(AttributeError, OSError):  # not on every system
        os.setpriority(os.PRIO_PROCESS, 0, LOWEST_PRIORITY)


class FinderProcess:
    """A ``Finder`` (see :mod:`bonanza.play.deal_stock`) that searches in one child
    process, started on first use (spawned: the server's threads are not forked),
    and started again after a back-off when it dies (``first_backoff`` seconds,
    doubling up to ``MAX_BACKOFF``)."""

    def __init__(self, first_backoff: float = FIRST_BACKOFF) -> None:
        self._lock = threading.Lock()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False
        self.first_backoff = first_backoff
        self.deaths = 0
        """Deaths of the child in a row (0 once a search has answered)."""
        self._not_before = 0.0  # monotonic time before which no new child starts

    def __call__(self, rules: Rules, stopping: Callable[[], bool]) -> GradedDeal | None:
        while time.monotonic() < self._not_before:  # backing off after a death
            if stopping():
                return None
            time.sleep(STOP_POLL)
        pool = self._started()
        if pool is None:
            return None
        try:
            future = pool.submit(_find_in_child, rules)
            while not stopping():
                try:
                    found = future.result(timeout=STOP_POLL)
                except concurrent.futures.TimeoutError:
                    continue
                self.deaths = 0
                return found
        except BrokenProcessPool:
            self._died(pool)
            return None
        future.cancel()
        return None

    def _died(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        """Forget the dead child's pool; the next search starts a new one after a back-off."""
        with self._lock:
            if self._pool is pool:
                self._pool = None
            self.deaths += 1
            wait = min(MAX_BACKOFF, self.first_backoff * 2 ** (self.deaths - 1))
            self._not_before = time.monotonic() + wait
        pool.shutdown(wait=False, cancel_futures=True)
        log.warning(
            "the deal stock's search process died (%d in a row): a new one starts in %g s",
            self.deaths, wait,
        )  # fmt: skip

    def _started(self) -> concurrent.futures.ProcessPoolExecutor | None:
        with self._lock:
            if self._pool is None and not self._closed:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_prepare_child,
                )
            return self._pool

    def child_pids(self) -> list[int]:
        """The process ids of the child (none before the first search or after close)."""
        with self._lock:
            pool = self._pool
        return [] if pool is None else [p.pid for p in _children(pool) if p.pid is not None]

    def close(self) -> None:
        """Stop the child at once (a search under way is abandoned)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is None:
            return
        for process in _children(pool):
            with contextlib.suppress(OSError):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)


def _children(pool: concurrent.futures.ProcessPoolExecutor) -> list[multiprocessing.Process]:
    """The pool's processes (the executor does not publish them: read with care)."""
    processes = getattr(pool, "_processes", None) or {}
    return list(processes.values())
