"""``bonanza analyze --cluster``: the solves run on Dask distributed instead of a local pool.

``--cluster tcp://host:8786`` connects to a running scheduler; ``--cluster local``
starts a scheduler in this process and ``--jobs`` single-threaded ``dask worker``
processes. Only the solving moves: the rows come back to this process, which
counts them, writes them and shows progress exactly as without a cluster.

Dask is an optional dependency (``pip install -e '.[cluster]'`` in a checkout), imported
only here and only when ``--cluster`` is given.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import gc
import itertools
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final, TypeVar

from bonanza.cli.solver_io import InputError

if TYPE_CHECKING:
    import subprocess

LOCAL: Final = "local"
"""The ``--cluster`` value that starts a local cluster."""
LOOPBACK: Final = "127.0.0.1"
"""Where a local cluster's scheduler listens: its workers are on this machine."""
ANY_LOOPBACK_PORT: Final = f"{LOOPBACK}:0"
"""Where its web server listens: a free port (without one, Dask takes 8787 or warns)."""
CONNECT_SECONDS: Final = 10
"""How long to wait for a scheduler to answer before calling its address unreachable."""
CLOSE_SECONDS: Final = 2
"""How long closing the connection or the local cluster may take."""
TASKS_PER_THREAD: Final = 16
"""Deals handed to the cluster ahead, per worker thread: enough to keep every
thread busy, few enough that a run of a million deals is never all in memory."""
WAKE_SECONDS: Final = 0.02
"""How often the wait for results wakes, to see Ctrl-C and stopped workers at once."""
WINDOW_REFRESH_SECONDS: Final = 5.0
"""How often the count of worker threads is asked again (workers may join late)."""
MISSING_DASK: Final = (
    "--cluster needs Dask: pip install -e '.[cluster]' in a checkout, "
    "or pip install 'bonanza-….whl[cluster]' from a wheel"
)

Task = TypeVar("Task")
Row = TypeVar("Row")


def _distributed() -> Any:
    """The ``distributed`` package, or an ``InputError`` naming the extra to install."""
    try:
        import distributed
    except ImportError:
        raise InputError(MISSING_DASK) from None
    return distributed


def _connect(distributed: Any, address: str) -> Any:
    """A client of the scheduler at ``address``; an ``InputError`` if none answers."""
    try:
        return distributed.Client(address, timeout=CONNECT_SECONDS)
    except (OSError, ValueError, TypeError) as error:
        raise InputError(f"--cluster {address}: no Dask scheduler there ({error})") from None


def _start_workers(address: str, jobs: int) -> list[subprocess.Popen[bytes]]:
    """``jobs`` single-threaded ``dask worker`` processes for the scheduler at ``address``.

    Each runs in a session of its own, so that Ctrl-C at the terminal reaches
    this process alone, which kills them on leaving.
    """
    import subprocess  # here: analyze without --cluster starts faster without it
    command = [
        sys.executable, "-m", "distributed.cli.dask_worker", address,
        "--nthreads", "1", "--no-nanny", "--no-dashboard",
        "--memory-limit", "0",  # the solver keeps to --memory-limit itself
    ]
    return [
        subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(jobs)
    ]


@contextlib.contextmanager
def cluster_client(address: str, jobs: int) -> Iterator[tuple[Any, Callable[[], None]]]:
    """A Dask client of the cluster at ``address`` (or of a new local one), closed on leaving,
    and a check that raises ``InputError`` if the local workers have all stopped.

    On leaving, deals still queued are dropped, and a local cluster's workers
    are killed, so that Ctrl-C ends the run at once.
    """
    distributed = _distributed()
    workers: list[subprocess.Popen[bytes]] = []

    def check() -> None:
        if workers and all(worker.poll() is not None for worker in workers):
            raise InputError("--cluster local: the Dask workers stopped; rerun to resume")

    scheduler = None
    client = None
    try:
        if address == LOCAL:
            import logging  # here: analyze without --cluster starts faster without it

            # silence_logs below quiets Dask's handlers only while the cluster
            # is open: the client's comms, closed after it on Ctrl-C, then log
            # a CommClosedError with its traceback at INFO (seen in CI). The
            # logger's own level holds to the process's end.
            for name in ("distributed", "distributed.client"):  # (the second has its own)
                logging.getLogger(name).setLevel(logging.CRITICAL)
            scheduler = distributed.LocalCluster(
                n_workers=0, processes=False, protocol="tcp", host=LOOPBACK,
                dashboard_address=ANY_LOOPBACK_PORT, silence_logs=logging.CRITICAL,
            )
            workers = _start_workers(scheduler.scheduler_address, jobs)
            client = distributed.Client(scheduler)
        else:
            client = _connect(distributed, address)
        yield client, check
    finally:
        for worker in workers:  # first, so that nothing waits for them
            worker.kill()
            worker.wait()
        for closing in (client, scheduler):
            if closing is not None:
                with contextlib.suppress(Exception):
                    closing.close(timeout=CLOSE_SECONDS)
        # Dask's many objects would cost the interpreter's exit a second of
        # garbage collection (more on a loaded machine): left out, it takes 0.1 s.
        gc.freeze()


def _window(client: Any, threads: int) -> int:
    """How many tasks to keep on the cluster: a few per worker thread (``threads`` at least)."""
    joined: int = sum(client.nthreads().values())
    return TASKS_PER_THREAD * max(threads, joined)


def cluster_results(
    client: Any,
    function: Callable[[Task], Row],
    tasks: Iterable[Task],
    threads: int,
    check: Callable[[], None],
) -> Iterator[Row]:
    """``function`` of each task, run on the cluster, as each finishes.

    Tasks are submitted a few per worker thread ahead of the results (for
    ``threads`` threads until more join), so that an endless stream of tasks
    is never all in memory. The wait for results wakes every ``WAKE_SECONDS``
    to call ``check`` and so that Ctrl-C is seen at once.
    """
    distributed = _distributed()
    pending = iter(tasks)
    window, asked = _window(client, threads), time.monotonic()

    def submit(count: int) -> list[Any]:
        return [
            client.submit(function, task, pure=False)
            for task in itertools.islice(pending, max(0, count))
        ]

    running = distributed.as_completed(submit(window), with_results=True)
    while not running.is_empty():
        finished = running.next_batch(block=False)
        if time.monotonic() - asked > WINDOW_REFRESH_SECONDS:
            window, asked = _window(client, threads), time.monotonic()
        running.update(submit(window - running.count()))
        if not finished:
            check()
            time.sleep(WAKE_SECONDS)
        for future, row in finished:
            if future.status != "finished":
                _raise_error_of(distributed, future)
            yield row


def _raise_error_of(distributed: Any, future: Any) -> None:
    """Raise the error of a task that did not finish: the solver's own, as a local
    pool would, or an ``InputError`` if the cluster lost the task."""
    try:
        future.result()
    except (distributed.KilledWorker, concurrent.futures.CancelledError) as error:
        raise InputError(
            f"the cluster lost a task ({type(error).__name__}: {error}); rerun to resume"
        ) from None


__all__ = ["LOCAL", "MISSING_DASK", "cluster_client", "cluster_results"]
