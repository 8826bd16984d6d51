"""A time limit on the CPU clock: the search gets its seconds however busy the machine."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from bonanza.core import Deal, Rules
from bonanza.solver import solve

LIMIT = 0.4
"""Seconds a search is given below."""
HARD_DEAL = 186
"""Draw 3: lost at 67 M nodes, so never decided within LIMIT."""
BUSY_LOOP = "while True: pass"


@pytest.fixture
def shared_core() -> Iterator[None]:
    """This process on one core, with a busy process beside it on that core:
    a search there gets about half of each wall-clock second."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("needs Linux's sched_setaffinity")
    allowed = os.sched_getaffinity(0)
    core = {min(allowed)}
    os.sched_setaffinity(0, core)
    busy = subprocess.Popen([sys.executable, "-c", BUSY_LOOP])
    try:
        os.sched_setaffinity(busy.pid, core)
        yield
    finally:
        busy.kill()
        busy.wait()
        os.sched_setaffinity(0, allowed)


@pytest.mark.forks
def test_on_a_shared_core_the_cpu_clock_gives_the_search_its_seconds(shared_core: None) -> None:
    deal, rules = Deal.from_number(HARD_DEAL), Rules(draw=3)
    by_wall = solve(deal, rules, time_limit=LIMIT, shorten=False)
    by_cpu = solve(deal, rules, time_limit=LIMIT, clock="cpu", shorten=False)
    for result in (by_wall, by_cpu):
        assert (result.result, result.limit) == ("unknown", "time")
    # The wall clock stops the search after LIMIT seconds, half of them the
    # busy process's; the CPU clock after LIMIT seconds of its own work.
    assert by_wall.seconds < 1.2 * LIMIT and by_wall.cpu_seconds < 0.8 * LIMIT
    assert LIMIT <= by_cpu.cpu_seconds < 1.2 * LIMIT and by_cpu.seconds > 1.3 * LIMIT
    assert by_cpu.nodes > 1.3 * by_wall.nodes


@pytest.mark.forks
@pytest.mark.parametrize("seed", [0, 5], ids=["in C", "in Python"])
def test_double_klondike_searches_keep_the_cpu_clock(shared_core: None, seed: int) -> None:
    # (Deal 37 is not won within 3 million nodes; a seed runs the Python search.)
    # On the shared core the wall clock would stop it at about half its limit
    # of CPU time.
    result = solve(Deal.from_number(37, 2), Rules.preset("double-klondike-3"),
                   time_limit=LIMIT, clock="cpu", seed=seed)
    assert (result.result, result.limit) == ("unknown", "time")
    assert result.cpu_seconds >= LIMIT and result.seconds > 1.3 * LIMIT


def test_an_unknown_clock_is_refused() -> None:
    with pytest.raises(ValueError, match="clock"):
        solve(Deal.from_number(0), time_limit=1, clock="sundial")  # type: ignore[arg-type]
