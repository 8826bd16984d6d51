"""benchmarks/server.py and benchmarks/proc_cpu.py: whose CPU time is counted, and
when a simulated player asks the progress check after a move."""

from __future__ import annotations

import asyncio
import json
import os
import random
from types import ModuleType
from typing import Any

import pytest

from tests.benchmark_script import BENCHMARKS, load


@pytest.fixture
def scripts(monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, ModuleType]:
    """``proc_cpu`` and ``server``, imported as the scripts import each other."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return load("proc_cpu", "bench_proc_cpu"), load("server", "bench_server")


def stat(ppid: int, ticks: int = 0, nice: int = 0, reaped: int = 0) -> list[str]:
    """/proc/PID/stat fields after the command: ``ticks`` of user time, ``reaped`` of children's."""
    fields = ["S", str(ppid)] + ["0"] * 18
    fields[11], fields[13], fields[16] = str(ticks), str(reaped), str(nice)
    return fields


def test_the_server_counts_its_workers_but_not_the_deal_stocks_search(
    scripts: tuple[ModuleType, ModuleType],
) -> None:
    proc_cpu, _ = scripts
    table = {
        1: stat(0, 1000),
        10: stat(1, 100),  # the server (the supervisor, with --workers)
        11: stat(10, 20),  # a worker
        12: stat(10, 30),  # another
        13: stat(12, 5000, nice=19),  # its deal stock's search process
        20: stat(1, 7000),  # another program
    }
    assert proc_cpu.tree(10, table) == {10, 11, 12, 13}
    ticks = os.sysconf("SC_CLK_TCK")
    assert proc_cpu.server_cpu_seconds(10, table) == pytest.approx(150 / ticks)
    assert proc_cpu.server_cpu_seconds(99, table) == 0.0  # ended


def test_postgresql_counts_its_processes_and_the_backends_that_ended(
    scripts: tuple[ModuleType, ModuleType],
) -> None:
    proc_cpu, _ = scripts
    table = {1: stat(0, 1000), 30: stat(1, 10, reaped=40), 31: stat(30, 5), 32: stat(31, 2)}
    ticks = os.sysconf("SC_CLK_TCK")
    assert proc_cpu.postgres_cpu_seconds(30, table) == pytest.approx(57 / ticks)


def test_this_process_is_read_from_proc(scripts: tuple[ModuleType, ModuleType]) -> None:
    proc_cpu, _ = scripts
    assert os.getpid() in proc_cpu.tree(os.getpid(), proc_cpu.processes())
    assert proc_cpu.server_cpu_seconds(os.getpid()) > 0


class Recorder:
    """A connection that answers every request at once and keeps their paths."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.paths: list[str] = []

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        self.paths.append(f"{method} {path}")
        return 200, json.dumps(self.answer).encode()


@pytest.mark.parametrize(
    ("action", "progress", "asked"),
    [
        ("moves", False, True),  # the page asks when the answer does not carry the check
        ("moves", True, False),
        ("undo", False, False),  # never after an undo
    ],
)
def test_the_progress_check_is_asked_as_the_page_asks_it(
    scripts: tuple[ModuleType, ModuleType], action: str, progress: bool, asked: bool
) -> None:
    _, server = scripts
    answer: dict[str, Any] = {"id": "g1", "status": "playing"}
    if progress:
        answer["progress"] = {"progress": True, "auto_finish": False}
    conn = Recorder(answer)
    player = server.Player(conn, random.Random(1), {"id": "g1"})
    results = server.Results()
    assert asyncio.run(player.act(action, {}, results, check=True))
    check = ["GET /api/games/g1/progress"] if asked else []
    assert conn.paths == [f"POST /api/games/g1/{action}", *check]
    assert results.checks == len(check)
