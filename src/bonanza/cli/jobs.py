"""Many deals in worker processes, for ``bonanza analyze`` and ``bonanza autoplay``:
a pool that leaves Ctrl-C and SIGTERM to the parent (whose end ends its workers), and its
results as they come (``cli.progress`` shows the progress)."""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, Final

from bonanza.cli import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated
from bonanza.play.parent import end_with_parent

WAKE_SECONDS: Final = 0.5
"""How often the wait for a result wakes, so that Ctrl-C is seen at once."""
STOP_SIGNALS: Final = {signal.SIGINT, signal.SIGTERM}
"""What stops a run: Ctrl-C, and SIGTERM (as from ``kill`` or a service manager)."""


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


def _start_worker(setup: Callable[..., None] | None, *setup_args: Any) -> None:
    """Pool initializer: Ctrl-C is the parent's to handle (it stops the workers), SIGTERM
    (which the parent stops them with) ends a worker at once, and so does its parent's end,
    even by SIGKILL, so that no worker is left working on its own; then ``setup``, if any."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, if inherited
    end_with_parent()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    if setup is not None:
        setup(*setup_args)


@contextlib.contextmanager
def worker_pool(
    jobs: int, setup: Callable[..., None] | None = None, setup_args: tuple[Any, ...] = ()
) -> Iterator[multiprocessing.pool.Pool]:
    """A pool whose workers leave Ctrl-C and SIGTERM to the parent, terminated on leaving
    however that happens; each worker calls ``setup(*setup_args)`` as it starts.

    SIGINT and SIGTERM are blocked while the workers start, so that none can see
    them before its initializer runs; one sent meanwhile is delivered right after.
    """
    pool: multiprocessing.pool.Pool | None = None
    try:
        with ctrl_c_held():
            pool = multiprocessing.Pool(
                jobs, initializer=_start_worker, initargs=(setup, *setup_args)
            )
        yield pool
    finally:
        if pool is not None:
            pool.terminate()


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for a moment: they are delivered when the block ends."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Within the block, SIGTERM raises ``Terminated`` (a ``KeyboardInterrupt``), so that
    it stops a run as Ctrl-C does: the workers stopped, the rows written kept, the
    summary printed. Further SIGTERMs are ignored while it stops; the handler before
    comes back after the block. (Only the main thread can take signals.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def say_stopped(command: str, stop: KeyboardInterrupt, left: str, resumable: bool) -> int:
    """Say on stderr that ``bonanza COMMAND`` was stopped, by Ctrl-C or SIGTERM, with
    ``left`` to do; the exit status: 130 for Ctrl-C, 143 for SIGTERM, as a shell shows
    a process the signal ended."""
    terminated = isinstance(stop, Terminated)
    resume = "; rerun to resume" if resumable else " (give --out to make a run resumable)"
    word = "terminated" if terminated else "interrupted"
    print(f"bonanza {command}: {word}: {left} left{resume}", file=sys.stderr)
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
