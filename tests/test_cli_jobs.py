"""The worker processes of ``analyze`` and ``autoplay`` (``cli.jobs.worker_results``):
every result comes back, tasks are taken as workers come free, a worker's error or end
stops the run at once, and leaving never hangs, however the workers are stopped."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from multiprocessing.sharedctypes import Synchronized
from typing import Any, Final

import pytest

from bonanza.cli import EXIT_WORKER_LOST, WorkerLost, main
from bonanza.cli.jobs import worker_results
from bonanza.core.errors import RulesError

BIG_ANSWER: Final = 1 << 20
"""A result of a megabyte: longer than a pipe holds, so a worker is mid-send when stopped."""
STOP_SECONDS: Final = 10.0
"""Far more than stopping the workers takes; a hang goes over it."""
ROUNDS: Final = 30


def square(number: int) -> int:
    return number * number


def big_or_refused(number: int) -> str:
    """The first task is refused at once; the others answer a megabyte each."""
    if number == 0:
        raise RulesError("not yet")
    return "x" * BIG_ANSWER


def killed_on_three(number: int) -> int:
    if number == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return number


started: Synchronized[int] | None = None


def count_start(counter: Synchronized[int]) -> None:
    global started
    started = counter
    with counter.get_lock():
        counter.value += 1


def started_count(_: int) -> int:
    assert started is not None
    return int(started.value)


def test_every_result_comes_back_once_as_each_finishes() -> None:
    with worker_results(square, range(200), 2) as results:
        assert sorted(results) == [number * number for number in range(200)]
    assert multiprocessing.active_children() == []


def test_tasks_are_taken_only_as_workers_come_free() -> None:
    taken: list[int] = []

    def tasks() -> Iterator[int]:
        for number in range(100):
            taken.append(number)
            yield number

    with worker_results(square, tasks(), 2) as results:
        next(results)
        assert len(taken) <= 3  # one for each worker, and the freed worker's next
    assert len(taken) <= 3  # leaving early takes no more
    assert multiprocessing.active_children() == []


def test_each_worker_runs_its_setup_as_it_starts() -> None:
    counter = multiprocessing.Value("q", 0)
    with worker_results(started_count, range(20), 2, count_start, (counter,)) as results:
        assert set(results) <= {1, 2}
    assert counter.value == 2


def test_a_workers_error_is_raised_and_leaving_never_hangs() -> None:
    # multiprocessing.Pool.terminate hung here now and then: it stopped a worker that
    # held its result queue's lock, mid-send, and then waited for that lock.
    for _ in range(ROUNDS):
        began = time.monotonic()
        with (
            pytest.raises(RulesError, match="not yet"),
            worker_results(big_or_refused, range(8), 2) as results,
        ):
            for _ in results:
                pass
        assert time.monotonic() - began < STOP_SECONDS
        assert multiprocessing.active_children() == []


def test_a_worker_killed_mid_task_stops_the_run_with_its_signal() -> None:
    with (
        pytest.raises(WorkerLost, match="SIGKILL"),
        worker_results(killed_on_three, range(10), 2) as results,
    ):
        for _ in results:
            pass
    assert multiprocessing.active_children() == []


def kill_myself(*args: Any, **kwargs: Any) -> Any:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize(
    ("command", "function"),
    [("analyze", "bonanza.cli.analyze._solve_one"), ("autoplay", "bonanza.cli.autoplay.play_game")],
)
def test_a_lost_worker_is_one_line_and_status_71(
    command: str, function: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setattr(function, kill_myself)
    status = main([command, "--deals", "1-3", "--jobs", "2", "--no-progress"])
    assert status == EXIT_WORKER_LOST
    error = capsys.readouterr().err
    assert error == f"bonanza {command}: a worker process was ended by SIGKILL; stopped\n"
    assert multiprocessing.active_children() == []
