"""The deal stock's searches, run in a child process of the lowest priority.

The filler's searches are mostly short C solves with Python between them
(sampling layouts to grade a deal). In a thread of the server they would take
the interpreter lock from the event loop for up to a switch interval at a
time, and every answer would wait behind them; in a process of their own they
take only what the machine has to spare.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from typing import Final

from bonanza.core import Rules
from bonanza.play.parent import end_with_parent
from bonanza.session.deals import random_deal
from bonanza.solver.grading import GradedDeal, grade_deal

LOWEST_PRIORITY: Final = 19
"""The nice value of the search process."""
STOP_POLL: Final = 0.1
"""Seconds between looks at whether the filler is stopping, while a search runs."""


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
    process, started on first use (spawned: the server's threads are not forked)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False

    def __call__(self, rules: Rules, stopping: Callable[[], bool]) -> GradedDeal | None:
        pool = self._started()
        if pool is None:
            return None
        future = pool.submit(_find_in_child, rules)
        while not stopping():
            try:
                return future.result(timeout=STOP_POLL)
            except concurrent.futures.TimeoutError:
                continue
        future.cancel()
        return None

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
