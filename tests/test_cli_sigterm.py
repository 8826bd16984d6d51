"""SIGTERM to ``bonanza analyze`` or ``bonanza autoplay`` with worker processes stops the
run as Ctrl-C does (issue 31, A1): the workers end with it, every row written is kept
whole, the summary is printed, and the status is 143 (128 + SIGTERM), with no traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bonanza.cli import EXIT_TERMINATED
from tests.servers import running

ROWS_BEFORE = 3
"""Rows written before the signal: the run is well under way."""
START_SECONDS = 120.0
"""How long those rows may take on a loaded machine."""
STOP_SECONDS = 30.0
"""How soon the command and its workers must end after SIGTERM."""
KILLED_SECONDS = 10.0
"""How soon the workers of a command killed by SIGKILL must end (the kernel ends them)."""
POLL_SECONDS = 0.1
JOBS = 2
DEALS = 2000
"""Far more than a run gets through before the signal."""
RUNS = {
    "analyze": ["analyze", "--deals", f"1-{DEALS}", "--draw", "3"],
    "autoplay": ["autoplay", "--deals", f"1-{DEALS}", "--budget", "0.02"],
}
SUMMARY_LINE = {"analyze": "deals: {}", "autoplay": "games: {}"}


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``, read from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def whole_lines(path: Path) -> list[str]:
    """The lines of ``path`` that end in a line end."""
    if not path.exists():
        return []
    return [line for line in path.read_text().splitlines(keepends=True) if line.endswith("\n")]


@pytest.fixture
def leftovers() -> Iterator[set[int]]:
    """Processes a test must not leave behind: killed at its end whatever happened."""
    pids: set[int] = set()
    yield pids
    for pid in pids:
        if running(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("command", RUNS)
def test_sigterm_stops_the_workers_keeps_the_rows_and_prints_the_summary(
    command: str, tmp_path: Path, leftovers: set[int]
) -> None:
    out_file = tmp_path / "run.jsonl"
    argv = [sys.executable, "-m", "bonanza", *RUNS[command], "--jobs", str(JOBS),
            "--out", str(out_file), "--no-progress"]
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    leftovers.add(process.pid)
    try:
        deadline = time.monotonic() + START_SECONDS
        while len(whole_lines(out_file)) < ROWS_BEFORE and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(POLL_SECONDS)
        assert len(whole_lines(out_file)) >= ROWS_BEFORE, "the run wrote no rows in time"
        workers = children(process.pid)
        leftovers.update(workers)
        assert len(workers) >= JOBS
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=STOP_SECONDS)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == EXIT_TERMINATED, (process.returncode, err)
    assert "Traceback" not in err and "Error" not in err, err
    (said,) = err.splitlines()
    assert said.startswith(f"bonanza {command}: terminated: ") and said.endswith(
        "left; rerun to resume"
    )
    text = out_file.read_text()
    assert text.endswith("\n")
    rows = [json.loads(line) for line in text.splitlines()]
    assert len({row["id"] for row in rows}) == len(rows) >= ROWS_BEFORE
    assert SUMMARY_LINE[command].format(len(rows)) in out.splitlines()  # every row counted
    deadline = time.monotonic() + STOP_SECONDS
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
    assert not [pid for pid in workers if running(pid)], "a worker outlived the command"
    left = int(said.split(": ")[2].split()[0])
    assert left == DEALS - len(rows)


def test_a_sigkilled_command_takes_its_workers_with_it(
    tmp_path: Path, leftovers: set[int]
) -> None:
    """No handler runs on SIGKILL: the workers end with their parent all the same, rather
    than play on the game in hand (a second of search a move: minutes)."""
    argv = [sys.executable, "-m", "bonanza", "autoplay", "--deals", "1-10", "--jobs", str(JOBS),
            "--out", str(tmp_path / "run.jsonl"), "--no-progress"]
    process = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    leftovers.add(process.pid)
    deadline = time.monotonic() + START_SECONDS
    while len(children(process.pid)) < JOBS and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
    workers = children(process.pid)
    leftovers.update(workers)
    assert len(workers) >= JOBS
    process.kill()
    process.wait(STOP_SECONDS)
    deadline = time.monotonic() + KILLED_SECONDS
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
    assert not [pid for pid in workers if running(pid)], "a worker outlived the command"
