"""``benchmarks/app_move.py`` plays its moves through the app and prints their cost."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.benchmark_script import BENCHMARKS


def test_it_plays_the_moves_asked_and_prints_cpu_per_move() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "app_move.py"), "--moves", "40", "--sync", "NORMAL"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    found = re.fullmatch(
        r"40 moves: (\d+) µs of the event loop's thread's CPU and (\d+) µs of the process's "
        r"per move \(SQLite synchronous=NORMAL\)\n",
        done.stdout,
    )
    assert found is not None, done.stdout + done.stderr
    assert 0 < int(found[1]) <= int(found[2])
