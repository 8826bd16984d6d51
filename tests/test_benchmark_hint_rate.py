"""``benchmarks/hint_rate.py`` asks hints and prints the nodes a second they count."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.benchmark_script import BENCHMARKS


def test_it_prints_the_rate_each_sampling_counts() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "hint_rate.py"), "--rules", "double-klondike",
         "klondike-3", "--positions", "8", "--budget", "0.05"],
        capture_output=True, text=True, timeout=120, check=True, cwd="/",
    )  # fmt: skip
    out = done.stdout
    assert re.search(r"^double-klondike \(generic sampling, counted at 1,200,000 nodes/s\):$",
                     out, re.M), out
    assert re.search(r"^klondike-3 \(compiled sampling, counted at 1,500,000 nodes/s\):$",
                     out, re.M), out
    rates = [int(rate.replace(",", "")) for rate in re.findall(r"hints, ([\d,]+) nodes/s", out)]
    assert len(rates) >= 3 and all(rate > 0 for rate in rates), out
