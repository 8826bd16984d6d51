"""The deal stock's searches run in a child process of the lowest priority."""

from __future__ import annotations

import logging
import os
import threading
import time

import pytest

from bonanza.core import Position, Rules
from bonanza.play.deal_finder import LOWEST_PRIORITY, STOP_POLL, FinderProcess
from bonanza.solver import solve
from tests.servers import running

ROUNDS = 5
"""Searches tried before one must have found a winnable deal (most deals are)."""


def test_a_search_runs_in_a_niced_child_and_finds_a_deal_the_solver_wins() -> None:
    finder = FinderProcess()
    try:
        assert finder.child_pids() == []  # nothing is started before the first search
        found = None
        for _ in range(ROUNDS):
            found = finder(Rules(draw=3), lambda: False)
            if found is not None:
                break
        assert found is not None
        pids = finder.child_pids()
        assert len(pids) == 1 and pids[0] != os.getpid()
        assert os.getpriority(os.PRIO_PROCESS, pids[0]) == LOWEST_PRIORITY
        start = Position.initial(found.deal, Rules(draw=3))
        assert solve(start, time_limit=30).result == "solved"
    finally:
        finder.close()
    deadline = time.monotonic() + 10
    while any(map(running, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(running, pids)), "close leaves no search process behind"
    assert finder(Rules(), lambda: False) is None  # closed: no new child


def test_a_stopping_filler_gets_its_answer_at_once() -> None:
    finder = FinderProcess()
    try:
        began = time.monotonic()
        assert finder(Rules(), lambda: time.monotonic() - began > STOP_POLL) is None
        # The child takes a while to start; the answer did not wait for it.
        assert time.monotonic() - began < 20 * STOP_POLL
    finally:
        finder.close()


PARENT = """
import sys, threading, time
from bonanza.core import Rules
from bonanza.play.deal_finder import FinderProcess
finder = FinderProcess()
def search():
    while True:
        finder(Rules(), lambda: False)
threading.Thread(target=search, daemon=True).start()
while not finder.child_pids():
    time.sleep(0.05)
print(finder.child_pids()[0], flush=True)
time.sleep(600)
"""


def test_the_search_process_ends_when_the_server_is_killed() -> None:
    import signal
    import subprocess
    import sys

    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert running(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while running(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not running(child), "a search process outlived the server that started it"
    finally:
        parent.kill()
        parent.wait(10)


def test_a_killed_search_process_is_started_again_after_a_back_off(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The stock must never run dry for good: a child killed mid-search is logged,
    and the next search starts a new one once the back-off is over."""
    import signal

    backoff = 0.5
    finder = FinderProcess(first_backoff=backoff)
    try:
        searching = threading.Thread(target=finder, args=(Rules(), lambda: False))
        searching.start()
        deadline = time.monotonic() + 30
        while not finder.child_pids() and time.monotonic() < deadline:
            time.sleep(0.05)
        (first,) = finder.child_pids()
        with caplog.at_level(logging.WARNING, logger="bonanza.play"):
            os.kill(first, signal.SIGKILL)
            searching.join(30)
        assert not searching.is_alive() and finder.deaths == 1
        assert "search process died" in caplog.text
        began = time.monotonic()
        found = None
        for _ in range(ROUNDS):
            found = finder(Rules(), lambda: False)
            if found is not None:
                break
        assert time.monotonic() - began >= backoff * 0.9  # it waited out the back-off
        assert found is not None and finder.deaths == 0
        (second,) = finder.child_pids()
        assert second != first
    finally:
        finder.close()
