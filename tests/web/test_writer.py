"""The writer thread: group commit, durability of an answer, failures and shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import anyio
import pytest
from starlette.testclient import TestClient

from bonanza.core import Deal, Rules
from bonanza.play.errors import Unavailable
from bonanza.storage import SQLiteStorage, StorageError
from bonanza.storage import sqlite as sqlite_module
from bonanza.storage.records import GameRecord
from bonanza.web import create_app
from bonanza.web.limits import ServerLimits
from bonanza.web.service import GameService
from bonanza.web.wire import GameView
from bonanza.web.writer import PendingWrite, StoreWriter

KLONDIKE = Rules.preset("klondike")
T = TypeVar("T")


def own_loop(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test in a thread with its own event loop (the browser tests keep
    one running in the main thread, so pytest's anyio runner cannot start there)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        failures: list[BaseException] = []

        def main() -> None:
            try:
                asyncio.run(test(*args, **kwargs))
            except BaseException as error:  # handed to the test's thread
                failures.append(error)

        thread = threading.Thread(target=main)
        thread.start()
        thread.join(60)
        assert not thread.is_alive(), "the test did not end within 60 s"
        if failures:
            raise failures[0]

    return run


class GatedStorage(SQLiteStorage):
    """SQLite whose batches wait at ``gate`` (when set), so writes can pile up behind one."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.gate: threading.Event | None = None
        self.entered = threading.Event()

    def write_batch(self, writes: Sequence[Callable[[], Any]]) -> list[Any]:
        if self.gate is not None:
            self.entered.set()
            self.gate.wait(10)
        return super().write_batch(writes)


class PlainStorage:
    """SQLite without ``write_batch`` (one commit a write); ``broken`` makes updates fail."""

    def __init__(self, path: Path) -> None:
        self.inner = SQLiteStorage(path)
        self.broken = False

    def update_game(self, record: Any) -> None:
        if self.broken:
            raise StorageError("the game store failed: disk I/O error")
        self.inner.update_game(record)

    def __getattr__(self, name: str) -> Any:
        if name == "write_batch":
            raise AttributeError(name)
        return getattr(self.inner, name)


async def results_of(writes: Sequence[PendingWrite[T]]) -> list[T]:
    """What each of ``writes`` returned, awaited in order."""
    return [await write.result() for write in writes]


async def until(condition: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.002)


def service_on(storage: Any) -> GameService:
    return GameService(
        storage,
        limits=ServerLimits(search_processes=False),
        random_deals=lambda: Deal.from_number(5),
    )


def player(n: int) -> str:
    return f"player-{n:02d}-" + "x" * 16


async def games(service: GameService, count: int) -> list[str]:
    return [(await service.new_game(player(n), KLONDIKE)).id for n in range(count)]


async def hold_the_writer(service: GameService, storage: GatedStorage) -> asyncio.Task[Any]:
    """A write the writer is busy with until ``storage.gate`` is set."""
    storage.gate = threading.Event()
    blocker = asyncio.create_task(service.writer.write(lambda: None))
    await until(storage.entered.is_set)
    return blocker


@own_loop
async def test_moves_arriving_together_share_one_commit(tmp_path: Path) -> None:
    storage = GatedStorage(tmp_path / "games.db")
    service = service_on(storage)
    count = 20
    ids = await games(service, count)
    blocker = await hold_the_writer(service, storage)
    batches, commits = service.writer.batches, storage.commits
    moves = [asyncio.create_task(service.play(player(n), gid, "sw")) for n, gid in enumerate(ids)]
    await until(lambda: service.writer.pending == count)
    assert storage.gate is not None
    storage.gate.set()
    answers = await asyncio.gather(*moves)
    await blocker
    assert [a.moves for a in answers] == [1] * count
    # The blocker's batch, then all twenty moves in one transaction: 2 commits, not 20.
    assert service.writer.batches - batches == 2
    assert storage.commits - commits == 2
    assert service.writer.writes >= count
    await service.aclose()
    reopened = SQLiteStorage(tmp_path / "games.db")
    assert [reopened.get_game(gid).moves for gid in ids] == [1] * count  # type: ignore[union-attr]
    reopened.close()


@own_loop
async def test_under_load_there_are_fewer_commits_than_moves(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    service = service_on(storage)
    ids = await games(service, 30)
    commits = storage.commits
    for _ in range(3):
        await asyncio.gather(*(service.play(player(n), gid, "sw") for n, gid in enumerate(ids)))
    assert storage.commits - commits < 90
    await service.aclose()


@pytest.mark.parametrize("synchronous", ["FULL", "NORMAL"])  # the thread, the event loop
def test_an_acknowledged_move_is_committed_before_its_answer(
    tmp_path: Path, synchronous: str
) -> None:
    db = tmp_path / "games.db"
    with TestClient(create_app(SQLiteStorage(db, synchronous=synchronous))) as client:
        gid = client.post("/api/games", json={"deal": "7"}).json()["id"]
        restarted = SQLiteStorage(db)  # what a server started after a crash would read
        for count in range(1, 6):
            assert client.post(f"/api/games/{gid}/moves", json={"move": "sw"}).status_code == 200
            stored = restarted.get_game(gid)
            assert stored is not None and stored.moves == count
        restarted.close()
        cookies = dict(client.cookies)
    with TestClient(create_app(SQLiteStorage(db)), cookies=cookies) as again:
        state = again.get(f"/api/games/{gid}").json()
        assert state["moves"] == 5 and state["history"] == ["sw"] * 5


def test_a_failed_write_answers_503_and_the_game_rolls_back(tmp_path: Path) -> None:
    storage = PlainStorage(tmp_path / "games.db")
    with TestClient(create_app(storage)) as client:
        gid = client.post("/api/games", json={"deal": "7"}).json()["id"]
        assert client.post(f"/api/games/{gid}/moves", json={"move": "sw"}).status_code == 200
        storage.broken = True
        failed = client.post(f"/api/games/{gid}/moves", json={"move": "sw"})
        assert failed.status_code == 503 and "try again" in failed.json()["error"]
        storage.broken = False
        assert client.get(f"/api/games/{gid}").json()["moves"] == 1  # what is stored
        again = client.post(f"/api/games/{gid}/moves", json={"move": "sw"})
        assert again.status_code == 200 and again.json()["moves"] == 2


class UpdateGame(Protocol):
    """The signature of ``update_game`` (its argument may be passed by name)."""

    def __call__(self, record: GameRecord) -> None: ...


def second_game_fails(storage: SQLiteStorage, ids: list[str]) -> UpdateGame:
    """Make the writes of game ``ids[1]`` fail; returns the real ``update_game``."""
    real = storage.update_game

    def update(record: Any) -> None:
        if record.id == ids[1]:
            raise StorageError("the game store failed: disk I/O error")
        real(record)

    storage.update_game = update  # type: ignore[method-assign]
    return real


async def the_second_failed_alone(
    service: GameService,
    storage: SQLiteStorage,
    ids: list[str],
    results: list[Any],
    real: UpdateGame,
) -> None:
    """Check one move on each game of ``ids``, of which the second's write failed."""
    assert results[0].moves == 1 and results[2].moves == 1
    assert isinstance(results[1], Unavailable)
    storage.update_game = real  # type: ignore[method-assign]
    assert (await service.get(player(1), ids[1])).moves == 0  # rolled back to the store
    assert [storage.get_game(gid).moves for gid in ids] == [1, 0, 1]  # type: ignore[union-attr]
    await service.aclose()


@own_loop
async def test_one_failed_write_in_a_batch_fails_alone(tmp_path: Path) -> None:
    storage = GatedStorage(tmp_path / "games.db")
    service = service_on(storage)
    ids = await games(service, 3)
    real = second_game_fails(storage, ids)
    blocker = await hold_the_writer(service, storage)
    moves = [asyncio.create_task(service.play(player(n), gid, "sw")) for n, gid in enumerate(ids)]
    await until(lambda: service.writer.pending == 3)
    assert storage.gate is not None
    storage.gate.set()
    results = await asyncio.gather(*moves, return_exceptions=True)
    await blocker
    await the_second_failed_alone(service, storage, ids, results, real)


def test_a_locked_store_answers_503_and_nothing_runs_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_module, "BUSY_TIMEOUT_MS", 50)
    db = tmp_path / "games.db"
    with TestClient(create_app(SQLiteStorage(db))) as client:
        gid = client.post("/api/games", json={"deal": "7"}).json()["id"]
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        failed = client.post(f"/api/games/{gid}/moves", json={"move": "sw"})
        assert failed.status_code == 503
        holder.execute("ROLLBACK")
        holder.close()
        assert client.get(f"/api/games/{gid}").json()["moves"] == 0
        assert client.post(f"/api/games/{gid}/moves", json={"move": "sw"}).json()["moves"] == 1


@own_loop
async def test_closing_the_writer_commits_what_is_pending(tmp_path: Path) -> None:
    storage = GatedStorage(tmp_path / "games.db")
    service = service_on(storage)
    ids = await games(service, 5)
    blocker = await hold_the_writer(service, storage)
    moves = [asyncio.create_task(service.play(player(n), gid, "sw")) for n, gid in enumerate(ids)]
    await until(lambda: service.writer.pending == 5)
    closing = asyncio.create_task(service.aclose())
    await asyncio.sleep(0.05)
    assert not closing.done()  # it waits for the pending writes
    assert storage.gate is not None
    storage.gate.set()
    await closing
    assert [a.moves for a in await asyncio.gather(*moves)] == [1] * 5
    await blocker
    with pytest.raises(Unavailable):  # closed: later writes are refused, not lost
        await service.play(player(0), ids[0], "sw")
    storage.close()
    reopened = SQLiteStorage(tmp_path / "games.db")
    assert [reopened.get_game(gid).moves for gid in ids] == [1] * 5  # type: ignore[union-attr]
    reopened.close()


@own_loop
async def test_a_storage_without_batches_commits_each_write(tmp_path: Path) -> None:
    storage = PlainStorage(tmp_path / "games.db")
    writer = StoreWriter(storage)
    assert await writer.write(lambda a, b: a + b, 2, 3) == 5
    with pytest.raises(ZeroDivisionError):
        await writer.write(lambda: 1 // 0)
    assert writer.writes == 2
    await writer.aclose()
    await writer.aclose()  # twice is harmless
    storage.inner.close()


async def a_move_behind_a_held_writer(
    service: GameService, storage: GatedStorage
) -> tuple[str, asyncio.Task[GameView], asyncio.Task[Any]]:
    """A game, a move on it queued behind a write held at the gate, and the held write."""
    (gid,) = await games(service, 1)
    blocker = await hold_the_writer(service, storage)
    move = asyncio.create_task(service.play(player(0), gid, "sw"))
    await until(lambda: service.writer.pending == 1)
    return gid, move, blocker


@own_loop
async def test_a_write_waits_out_the_cancellation_of_its_request(tmp_path: Path) -> None:
    storage = GatedStorage(tmp_path / "games.db")
    service = service_on(storage)
    gid, move, blocker = await a_move_behind_a_held_writer(service, storage)
    move.cancel()
    await asyncio.sleep(0.02)
    assert not move.done()  # still waiting for its write, as a worker thread would
    assert storage.gate is not None
    storage.gate.set()
    with pytest.raises(asyncio.CancelledError):
        await move
    await blocker
    stored = storage.get_game(gid)
    assert stored is not None and stored.moves == 1
    assert (await service.get(player(0), gid)).moves == 1  # cache and store agree
    await service.aclose()


@own_loop
async def test_a_write_waits_out_an_anyio_scope_that_times_out(tmp_path: Path) -> None:
    """anyio cancels again at each turn of the loop: the wait for the write holds anyway."""
    storage = GatedStorage(tmp_path / "games.db")
    service = service_on(storage)
    (gid,) = await games(service, 1)
    blocker = await hold_the_writer(service, storage)

    async def move_with_a_deadline() -> None:
        with anyio.move_on_after(0.01):
            await service.play(player(0), gid, "sw")

    move = asyncio.create_task(move_with_a_deadline())
    await asyncio.sleep(0.1)
    assert not move.done()  # past its deadline, still waiting for its write
    assert storage.gate is not None
    storage.gate.set()
    with contextlib.suppress(asyncio.CancelledError):
        await move
    await blocker
    stored = storage.get_game(gid)
    assert stored is not None and stored.moves == 1
    assert (await service.get(player(0), gid)).moves == 1  # cache and store agree
    await service.aclose()


@own_loop
async def test_an_idle_writer_thread_ends_and_the_next_write_starts_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bonanza.web.writer.IDLE_SECONDS", 0.05)
    storage = SQLiteStorage(tmp_path / "games.db")
    writer = StoreWriter(storage)
    assert await writer.write(lambda: 1) == 1
    await until(lambda: writer._thread is None)
    assert await writer.write(lambda: 2) == 2
    await writer.aclose()
    assert writer.writes == 2
    storage.close()


@own_loop
async def test_no_answer_goes_out_before_its_write_is_committed(tmp_path: Path) -> None:
    storage = GatedStorage(tmp_path / "games.db")
    service = service_on(storage)
    gid, move, blocker = await a_move_behind_a_held_writer(service, storage)
    await asyncio.sleep(0.05)
    assert not move.done()  # its answer is made, but waits for the commit
    assert storage.gate is not None
    storage.gate.set()
    assert (await move).moves == 1
    await blocker
    stored = storage.get_game(gid)
    assert stored is not None and stored.moves == 1
    await service.aclose()


# -- on the event loop: a store whose commits do not wait for the disk -----------------


@own_loop
async def test_without_fsyncs_the_loop_commits_each_turns_writes_together(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db", synchronous="NORMAL")
    service = service_on(storage)
    assert service.writer.on_loop and not StoreWriter(SQLiteStorage(":memory:")).on_loop
    ids = await games(service, 20)
    batches, commits = service.writer.batches, storage.commits
    moves = [service.play(player(n), gid, "sw") for n, gid in enumerate(ids)]
    answers = await asyncio.gather(*moves)
    assert [a.moves for a in answers] == [1] * 20
    assert service.writer.batches - batches == 1 and storage.commits - commits == 1
    assert service.writer._thread is None  # no thread was started
    await service.aclose()
    reopened = SQLiteStorage(tmp_path / "games.db")
    assert [reopened.get_game(gid).moves for gid in ids] == [1] * 20  # type: ignore[union-attr]
    reopened.close()


@own_loop
async def test_on_the_loop_a_failed_write_fails_alone_and_rolls_back(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db", synchronous="NORMAL")
    service = service_on(storage)
    ids = await games(service, 3)
    real = second_game_fails(storage, ids)
    moves = [service.play(player(n), gid, "sw") for n, gid in enumerate(ids)]
    results = await asyncio.gather(*moves, return_exceptions=True)
    await the_second_failed_alone(service, storage, ids, results, real)


@own_loop
async def test_on_the_loop_closing_commits_what_is_pending(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db", synchronous="NORMAL")
    writer = StoreWriter(storage)
    pending = [writer.submit(storage.set_setting, f"key-{n}", "on") for n in range(5)]
    assert writer.pending == 5
    await writer.aclose()  # before the loop's next turn: it commits them itself
    assert writer.pending == 0 and writer.batches == 1
    assert await results_of(pending) == [None] * 5
    with pytest.raises(StorageError):
        writer.submit(storage.set_setting, "key-5", "on")
    assert storage.get_setting("key-4") == "on"
    storage.close()
