"""``benchmarks/http_floor.py`` starts both servers and prints a request's CPU on each."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.benchmark_script import BENCHMARKS

LINE = re.compile(
    r"(.+), (back to back|think 0\.01 s): (\d+) µs server CPU per request \(load .+\)"
)


def test_it_prints_the_cpu_per_request_of_both_servers_back_to_back_and_paced() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "http_floor.py"), "--requests", "200", "--think", "0.01"],
        capture_output=True, text=True, timeout=180, check=True,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    found = [LINE.fullmatch(line) for line in lines]
    assert all(found) and len(found) == 4, done.stdout + done.stderr
    assert [(m[1], m[2]) for m in found if m] == [
        ("bare ASGI app on uvicorn, GET /x", "back to back"),
        ("bare ASGI app on uvicorn, GET /x", "think 0.01 s"),
        ("bonanza serve, GET /healthz", "back to back"),
        ("bonanza serve, GET /healthz", "think 0.01 s"),
    ]
    assert all(int(m[3]) > 0 for m in found if m)
