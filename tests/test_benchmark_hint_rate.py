"""``benchmarks/hint_rate.py`` asks hints and prints the nodes a second they count."""

from __future__ import annotations

import re
import subprocess
import sys

from bonanza.solver.fair_budget import COMPILED, GENERIC
from tests.benchmark_script import BENCHMARKS


def test_it_prints_the_rate_each_sampling_counts() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "hint_rate.py"), "--rules", "double-klondike",
         "klondike-3", "--positions", "8", "--budget", "0.05"],
        capture_output=True, text=True, timeout=120, check=True, cwd="/",
    )  # fmt: skip
    out = done.stdout
    for preset, sampling, constant in (("double-klondike", "generic", GENERIC),
                                       ("klondike-3", "compiled", COMPILED)):
        rate = f"{constant.nodes_per_second:,}"
        heading = f"{preset} ({sampling} sampling, counted at {rate} nodes/s):"
        assert heading in out.splitlines(), out
    rates = [int(rate.replace(",", "")) for rate in re.findall(r"hints, ([\d,]+) nodes/s", out)]
    assert len(rates) >= 3 and all(rate > 0 for rate in rates), out
