"""Many deals in worker processes, for ``bonanza analyze`` and ``bonanza autoplay``:
a pool that leaves Ctrl-C to the parent, its results as they come, and a progress bar."""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import signal
from collections.abc import Iterator, Mapping
from typing import Any, Final, TextIO

PROGRESS_WIDTH: Final = 30
"""Characters in the progress bar between its brackets."""
WAKE_SECONDS: Final = 0.5
"""How often the wait for a result wakes, so that Ctrl-C is seen at once."""


def pool_results(iterator: Any) -> Iterator[dict[str, Any]]:
    """The pool's results, waking every ``WAKE_SECONDS`` so that Ctrl-C is seen at once."""
    while True:
        try:
            row: dict[str, Any] = iterator.next(timeout=WAKE_SECONDS)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return
        yield row


def _ignore_sigint() -> None:
    """Pool initializer: Ctrl-C is the parent's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def worker_pool(jobs: int) -> Iterator[multiprocessing.pool.Pool]:
    """A pool whose workers ignore Ctrl-C, terminated on leaving however that happens.

    SIGINT is blocked while the workers start, so that none can see it before
    its initializer runs; one pressed meanwhile is delivered right after.
    """
    pool: multiprocessing.pool.Pool | None = None
    try:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pool = multiprocessing.Pool(jobs, initializer=_ignore_sigint)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        yield pool
    finally:
        if pool is not None:
            pool.terminate()


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold SIGINT back for a moment: it is delivered when the block ends."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def show_progress(done: int, total: int, counts: Mapping[str, int], stream: TextIO) -> None:
    """Redraw the progress line: a bar, ``done/total`` and each count by name."""
    filled = PROGRESS_WIDTH * done // total if total else PROGRESS_WIDTH
    bar = "#" * filled + "-" * (PROGRESS_WIDTH - filled)
    summary = " ".join(f"{key} {count}" for key, count in counts.items())
    stream.write(f"\r[{bar}] {done}/{total} {summary}")
    stream.flush()
