"""The server's one storage writer: it commits pending writes together.

Every write the server makes (a move, a new game, a share) is handed to one
thread that owns the writing. It takes every write waiting in its queue, runs
them in one transaction (group commit: one commit, so one fsync, for the lot;
see ``SQLiteStorage.write_batch``) and then resolves each request's future.
So an answer still goes out only once its write is committed, exactly as
before, but writes arriving together share one fsync, and a request costs one
hand-off to a thread that is already running instead of a trip through the
worker-thread pool (whose threads then queued on the store's lock, one fsync
each). A request can also make its answer while its write commits
(:meth:`StoreWriter.submit`).

Why not write on the event loop, as the first server did? On an idle disk
that is a little faster (no thread hand-offs under the GIL), but every fsync
then stops every request: when the machine is busy, moves wait for each
other's fsyncs (``benchmarks/server.py``, 200 players, alternating runs on a
loaded machine: p50 39-364 ms on the loop against 11-38 ms with this writer).

A store whose commits do not wait for the disk (``syncs_commits`` false: SQLite
with ``synchronous=NORMAL``, whose checkpoints run in a thread of their own)
is written on the event loop instead: the writes handed in during one turn of
the loop are committed together by a callback at its next turn, then their
futures are settled there. Such a commit costs the loop about 0.1 ms, less
than the hand-offs to and from the thread (in-process, a move cost about
1.4 ms of CPU with the thread and 0.95 ms without, and answered sooner).

A write that fails gives its awaiting request the exception (``StorageError``
for a failed statement); the service answers 503 and drops its cached game.
A storage without ``write_batch`` gets its writes one by one, each committed on
its own (as the ``Storage`` protocol says).

Waiting for a write is shielded from cancellation (an anyio scope's, as
``anyio.to_thread`` shields it, and also a task's own ``cancel()``): a request
cancelled mid-write learns of it once the write is done, so the cached game
never runs ahead of a write whose end it does not know.

The futures are asyncio's (the server runs on asyncio, as uvicorn and
Starlette's test client do). Each write carries its own event loop, so apps run
by a test client without its lifespan (one event loop per request) work too.
On the loop, each loop commits its own writes. The thread starts with the
first write and ends after ``IDLE_SECONDS`` without one (so an app never shut
down leaves no thread behind for long);
:meth:`StoreWriter.close` commits what is pending and stops it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast, runtime_checkable

import anyio
import anyio.to_thread

from bonanza.storage import StaleGameError, StaleStartError, Storage, StorageError

T = TypeVar("T")

MAX_BATCH = 256
"""Writes committed in one transaction at most."""
IDLE_SECONDS = 30.0
"""The thread ends after this long without a write (the next write starts another)."""
FAILURE_LOG_SECONDS = 10.0
"""A failed write is logged with its cause, then at most once this often while the store
keeps failing (with how many failed meanwhile): its requests answer 503 without it."""

log = logging.getLogger("bonanza.web")


@runtime_checkable
class BatchWriting(Protocol):
    """A storage that can commit several writes in one transaction."""

    def write_batch(self, writes: Sequence[Callable[[], Any]]) -> list[Any]: ...


@dataclass(slots=True)
class _Write:
    work: Callable[[], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


_STOP = object()


class PendingWrite(Generic[T]):
    """A write handed to the writer, to be awaited with :meth:`result`."""

    __slots__ = ("_future",)

    def __init__(self, future: asyncio.Future[T]) -> None:
        self._future = future

    async def result(self) -> T:
        """What the write returned, once it is committed; or what it raised. A
        cancellation waits out the write, then goes on."""
        future = self._future
        try:
            return await asyncio.shield(future)  # the cheap way, while nothing cancels
        except asyncio.CancelledError:
            pass
        # Cancelled while the write is under way: anyio's scopes cancel again at each
        # turn of the loop, so wait in a shielded scope (a dozen microseconds dearer).
        with anyio.CancelScope(shield=True):
            while not future.done():
                with contextlib.suppress(asyncio.CancelledError):  # a task's own cancel()
                    await asyncio.shield(future)
        raise asyncio.CancelledError


class StoreWriter:
    """One thread writing to ``storage`` (or the event loop, ``on_loop``), committing
    the writes pending at once together.

    ``on_loop`` defaults to whether the storage's commits skip the disk
    (``syncs_commits`` false); a storage that does not say is written by the thread.
    """

    def __init__(
        self, storage: Storage, *, max_batch: int = MAX_BATCH, on_loop: bool | None = None
    ) -> None:
        self.storage = storage
        self.max_batch = max_batch
        self.on_loop = not getattr(storage, "syncs_commits", True) if on_loop is None else on_loop
        self.writes = 0
        """Writes done (failed ones included)."""
        self.batches = 0
        """Transactions run: with ``write_batch``, one commit (one fsync) each."""
        self._queue: queue.SimpleQueue[_Write | object] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._batch = storage.write_batch if isinstance(storage, BatchWriting) else None
        self._waiting: dict[asyncio.AbstractEventLoop, list[_Write]] = {}
        """On the loop: each loop's writes waiting for its next turn."""
        self.failures = 0
        """Writes that failed as the store failed (a stale write is no failure)."""
        self._logged: tuple[float, int] | None = None
        """When a failure was last logged, and ``failures`` then."""
        self.failing: str | None = None
        """Why the writes of the last transaction failed as the store failed (a full
        disk, a store gone away), or None if they went through (``/healthz`` tells)."""

    @property
    def pending(self) -> int:
        """Writes handed in and not yet taken to be committed (roughly: it is a live count)."""
        return self._queue.qsize() + sum(map(len, list(self._waiting.values())))

    async def write(self, work: Callable[..., T], *args: Any) -> T:
        """Run ``work(*args)`` in the writer; return once it is committed.

        Raises what the write raised (``StorageError`` when the store failed),
        or ``StorageError`` once the writer is closed.
        """
        return await self.submit(work, *args).result()

    def submit(self, work: Callable[..., T], *args: Any) -> PendingWrite[T]:
        """Hand ``work(*args)`` to the writer now; await its ``result()`` (always) later.

        So a request can go on (make its answer) while its write commits.
        Raises ``StorageError`` once the writer is closed.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        call = functools.partial(work, *args) if args else work
        self._submit(_Write(call, loop, future))
        return PendingWrite(future)

    def _submit(self, item: _Write) -> None:
        with self._lock:
            if self._closed:
                raise StorageError("the game store is closed")
            if self.on_loop:
                waiting = self._waiting.get(item.loop)
                if waiting is None:
                    waiting = self._waiting[item.loop] = []
                    item.loop.call_soon(self._flush, item.loop)
                waiting.append(item)
                return
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="bonanza-store-writer", daemon=True
                )
                self._thread.start()
            self._queue.put(item)

    def close(self) -> None:
        """Commit every write handed in so far, then stop the thread (blocks until then)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            thread = self._thread
            if thread is not None:
                self._queue.put(_STOP)
            waiting = [item for items in self._waiting.values() for item in items]
            self._waiting.clear()
        self._commit_all(waiting)
        if thread is not None:
            thread.join()

    async def aclose(self) -> None:
        """:meth:`close`, waiting in a worker thread so the event loop keeps serving
        (on the loop, at once: nothing there waits for the disk)."""
        if self.on_loop:
            self.close()
        else:
            await anyio.to_thread.run_sync(self.close)

    # -- on the loop ----------------------------------------------------------------

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """Commit the writes ``loop`` handed in since its last turn (a loop callback)."""
        with self._lock:
            waiting = self._waiting.pop(loop, [])
        self._commit_all(waiting)

    def _commit_all(self, items: list[_Write]) -> None:
        for start in range(0, len(items), self.max_batch):
            self._commit(items[start : start + self.max_batch])

    # -- the thread -------------------------------------------------------------

    def _run(self) -> None:
        stopping = False
        while not stopping:
            try:
                first = self._queue.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:  # writes are handed in under this lock: none can slip by
                    if self._queue.empty():
                        self._thread = None  # the next write starts a new thread
                        return
                continue
            batch: list[_Write] = []
            if first is _STOP:
                break
            batch.append(cast(_Write, first))
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stopping = True
                    break
                batch.append(cast(_Write, item))
            self._commit(batch)

    def _commit(self, batch: list[_Write]) -> None:
        outcomes: list[Any]
        try:
            if self._batch is not None:
                outcomes = self._batch([item.work for item in batch])
            else:
                outcomes = [_outcome(item.work) for item in batch]
            if len(outcomes) != len(batch):
                raise RuntimeError(f"{len(batch)} writes gave {len(outcomes)} outcomes")
        except Exception as error:  # a storage bug: every waiting request learns of it
            outcomes = [StorageError(f"the game store failed: {error!r}") for _ in batch]
        self._log_failures(outcomes)
        self.writes += len(batch)
        self.batches += 1
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
        for item, outcome in zip(batch, outcomes, strict=True):
            by_loop.setdefault(item.loop, []).append((item.future, outcome))
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # the writer thread, or close() from another thread
            running = None
        for loop, settled in by_loop.items():
            if loop is running:
                _settle(settled)
                continue
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting
                loop.call_soon_threadsafe(_settle, settled)

    def _log_failures(self, outcomes: list[Any]) -> None:
        """Note (``failing``) and log why writes failed (a full disk, a store gone away),
        which the host could not otherwise learn: the first failure, then at most every
        ``FAILURE_LOG_SECONDS``."""
        failed = [
            outcome
            for outcome in outcomes
            if isinstance(outcome, StorageError)
            and not isinstance(outcome, StaleGameError | StaleStartError)
        ]
        self.failing = str(failed[0]) if failed else None
        if not failed:
            return
        self.failures += len(failed)
        now = time.monotonic()
        if self._logged is not None and now - self._logged[0] < FAILURE_LOG_SECONDS:
            return
        since = self.failures - len(failed) - (self._logged[1] if self._logged else 0)
        more = f" ({since} more failed since the last such line)" if since else ""
        log.warning("a write to the game store failed: %s%s", failed[0], more)
        self._logged = (now, self.failures)


def _outcome(work: Callable[[], Any]) -> Any:
    try:
        return work()
    except Exception as error:
        return error


def _settle(settled: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, outcome in settled:
        if future.done():
            continue
        if isinstance(outcome, Exception):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)


__all__ = ["BatchWriting", "PendingWrite", "StoreWriter"]
