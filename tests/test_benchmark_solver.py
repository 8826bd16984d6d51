"""``benchmarks/solver.py`` solves its deals as ``bonanza analyze`` does and prints the
search's own time beside the solver's."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.benchmark_script import BENCHMARKS

VERDICTS = r"draw 1: 6 deals in [\d.]+ s; solved (\d+), unsolvable (\d+), unknown (\d+)"
SEARCH = r"of which the search: median [\d.]+, p90 [\d.]+ "


@pytest.mark.parametrize("shorten", ["auto", "never"])
def test_it_prints_verdicts_and_the_searchs_time(shorten: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "solver.py"), "--deals", "6", "--draws", "1",
         "--time-limit", "5", "--shorten", shorten],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    verdicts = re.search(VERDICTS, done.stdout)
    assert verdicts is not None, done.stdout
    assert sum(map(int, verdicts.groups())) == 6
    assert re.search(SEARCH + re.escape(f"(lines shortened: {shorten})"), done.stdout), done.stdout
