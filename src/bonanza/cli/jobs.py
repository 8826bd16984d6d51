"""Many deals in worker processes, for ``bonanza analyze`` and ``bonanza autoplay``:
a pool that leaves Ctrl-C and SIGTERM to the parent (whose end ends its workers), and its
results as they come (``cli.progress`` shows the progress)."""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import multiprocessing.connection
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any, Final

from bonanza.cli import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated, WorkerLost
from bonanza.core.errors import InternalError
from bonanza.play.parent import end_with_parent

WAKE_SECONDS: Final = 0.5
"""How often the wait for a result wakes, so that Ctrl-C is seen at once."""
STOP_SIGNALS: Final = {signal.SIGINT, signal.SIGTERM}
"""What stops a run: Ctrl-C, and SIGTERM (as from ``kill`` or a service manager)."""


def _start_worker(setup: Callable[..., None] | None, *setup_args: Any) -> None:
    """A worker's start: Ctrl-C is the parent's to handle (it stops the workers), SIGTERM
    (which the parent stops them with) ends a worker at once, and so does its parent's end,
    even by SIGKILL, so that no worker is left working on its own; then ``setup``, if any."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, if inherited
    end_with_parent()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    if setup is not None:
        setup(*setup_args)


@dataclasses.dataclass
class _Worker:
    """One worker process and the parent's end of its own pipe; ``busy`` while it has a
    task. A pipe per worker and no lock shared between processes, so that stopping a
    worker at any moment leaves nothing held. (``multiprocessing.Pool.terminate`` can hang
    for good on a queue's lock that a worker it stopped was holding.)"""

    process: BaseProcess
    pipe: Connection
    busy: bool = False


def _work(
    pipe: Connection, function: Callable[[Any], Any],
    setup: Callable[..., None] | None, setup_args: tuple[Any, ...],
) -> None:
    """A worker's life: ``function`` of each task the parent sends, until it closes the
    pipe (or stops the worker); each answer is ``(True, result)`` or ``(False, error)``."""
    _start_worker(setup, *setup_args)
    while True:
        try:
            task = pipe.recv()
        except EOFError:  # the parent closed the pipe
            return
        try:
            answer: tuple[bool, Any] = (True, function(task))
        except Exception as error:  # the parent raises it
            answer = (False, error)
        try:
            pipe.send(answer)
        except Exception as error:  # an answer that does not pickle
            pipe.send((False, InternalError(f"a worker's answer does not pickle: {error!r}")))


@contextlib.contextmanager
def worker_results(
    function: Callable[[Any], Any], tasks: Iterable[Any], jobs: int,
    setup: Callable[..., None] | None = None, setup_args: tuple[Any, ...] = (),
) -> Iterator[Iterator[Any]]:
    """``function(task)`` of each task, by ``jobs`` worker processes, as each finishes;
    a task is taken only when a worker comes free, and a worker's exception is raised
    here. Each worker calls ``setup(*setup_args)`` as it starts, leaves Ctrl-C and
    SIGTERM to the parent, and is stopped on leaving the block however that happens.

    SIGINT and SIGTERM are blocked while the workers start, so that none can see
    them before its initializer runs; one sent meanwhile is delivered right after.
    """
    workers: list[_Worker] = []
    try:
        with ctrl_c_held():
            for _ in range(jobs):
                parent_end, child_end = multiprocessing.Pipe()
                process = multiprocessing.Process(
                    target=_work, args=(child_end, function, setup, setup_args), daemon=True
                )
                workers.append(_Worker(process, parent_end))
                process.start()
                child_end.close()
        yield _answers(workers, iter(tasks))
    finally:
        _stop(workers)


def _answers(workers: list[_Worker], tasks: Iterator[Any]) -> Iterator[Any]:
    """The workers' results as they come, each freed worker given its next task first;
    the wait wakes every ``WAKE_SECONDS``, so that Ctrl-C is seen at once."""
    for worker in workers:
        _give(worker, tasks)
    while busy := [worker for worker in workers if worker.busy]:
        waits: dict[Any, _Worker] = {worker.pipe: worker for worker in busy}
        waits.update({worker.process.sentinel: worker for worker in busy})
        for ready in multiprocessing.connection.wait(list(waits), timeout=WAKE_SECONDS):
            worker = waits[ready]
            if not worker.busy:
                continue  # its pipe and its sentinel were both ready
            try:
                ok, value = worker.pipe.recv()
            except EOFError:  # it ended, with no answer
                worker.process.join(WAKE_SECONDS)
                raise WorkerLost(_lost(worker.process.exitcode)) from None
            worker.busy = False
            if not ok:
                raise value
            _give(worker, tasks)
            yield value


def _lost(status: int | None) -> str:
    """Why a worker ended, in words: a signal's name, or its exit status."""
    if status is not None and status < 0:
        with contextlib.suppress(ValueError):
            return f"a worker process was ended by {signal.Signals(-status).name}; stopped"
    return f"a worker process ended with status {status}; stopped"


def _give(worker: _Worker, tasks: Iterator[Any]) -> None:
    """Send ``worker`` the next task, if one is left."""
    task = next(tasks, None)
    if task is not None:
        worker.pipe.send(task)
        worker.busy = True


def _stop(workers: list[_Worker]) -> None:
    """Stop every worker at once (SIGTERM ends one wherever it is), and wait for them."""
    for worker in workers:
        if worker.process.pid is not None and worker.process.exitcode is None:
            worker.process.terminate()
    for worker in workers:
        if worker.process.pid is not None:
            worker.process.join()
        worker.pipe.close()


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
