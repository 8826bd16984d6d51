"""Solver benchmark: seeded random deals, draw 1 and draw 3, on one core.

    python benchmarks/solver.py [--deals 1000] [--seed 2024] [--time-limit 10] [--shorten auto]

Prints, per draw mode, the count of each verdict, median/p90/p99/max seconds
per deal (the solver's wall-clock time, the search's part of it, and the process
CPU time, which other work on the machine does not inflate) and the peak memory
of one solve: the process's resident set size, its peak reset before each deal
(Linux; elsewhere the process's peak so far), in MB of 2**20 bytes as
``--memory-limit`` counts them. Winning lines are shortened as ``bonanza analyze`` does by
default (``--shorten auto``: only where it pays).

    python benchmarks/solver.py --bench

The pinned bench, as chess engines keep one: a fixed set of deals (``BENCH``),
each searched up to ``BENCH_NODE_LIMIT`` nodes with no clock and no winning
line asked for, so that the nodes it searches are the same on any machine, at
any load, and change only with the search. Prints the nodes searched, the CPU
time and the nodes per second for each group of deals and in total.
tests/solver/test_bench_pinned.py pins the total: a change of speed shows in the
time alone, a change of the search in the nodes.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
import resource
import sys
import time
from collections import Counter
from pathlib import Path

from bonanza.core import Deal, Position, Rules
from bonanza.solver import solve
from bonanza.solver.search import Shorten, verdict
from bonanza.solver.stats import percentile

SHORTEN: dict[str, Shorten] = {"auto": "auto", "always": True, "never": False}
"""``--shorten``'s choices, as ``bonanza analyze`` names them."""
BENCH_NODE_LIMIT = 1_000_000
"""Nodes per deal at most: a deal not decided by then stops there, as
deterministically as one decided (the search reads no clock without a time
limit; its side searches and probes run on node budgets)."""


@dataclasses.dataclass(frozen=True)
class BenchSet:
    """Deals (by number) under one set of rules."""

    rules: Rules
    deals: tuple[int, ...]


def _thoughtful(preset: str) -> Rules:
    """A preset with every card known, as ``bonanza solve`` and ``analyze`` play it."""
    return dataclasses.replace(Rules.preset(preset), thoughtful=True)


BENCH: dict[str, tuple[BenchSet, ...]] = {
    # Deals 1-60 (most of them decided in under 500 nodes) and the five
    # costliest draw-1 deals of 1-200 that a million nodes decide.
    "draw 1": (BenchSet(_thoughtful("klondike"), (*range(1, 61), 110, 112, 165, 186, 191)),),
    # Two of these stop at the node limit (22 and 25).
    "draw 3": (BenchSet(_thoughtful("klondike-3"), tuple(range(1, 61))),),
    # Three passes (Vegas draw 3), and a stock dealt onto the columns (Easthaven).
    "variants": (
        BenchSet(_thoughtful("vegas-3"), tuple(range(1, 9))),
        BenchSet(_thoughtful("easthaven"), tuple(range(1, 9))),
    ),
}
"""The bench's deals, by group. Changing them changes the pinned count."""


@dataclasses.dataclass(frozen=True)
class BenchLine:
    """One group's figures (or the total's)."""

    name: str
    deals: int
    verdicts: Counter[str]
    nodes: int
    seconds: float
    """CPU time of the searches (not of setting up the positions)."""

    def __str__(self) -> str:
        verdicts = ", ".join(
            f"{key} {self.verdicts[key]}" for key in ("solved", "unsolvable", "unknown")
        )
        speed = round(self.nodes / self.seconds) if self.seconds > 0 else 0
        return (
            f"{self.name}: {self.deals} deals ({verdicts}), Nodes searched: {self.nodes}, "
            f"CPU time: {self.seconds:.3f} s, Nodes/second: {speed}"
        )


def bench() -> list[BenchLine]:
    """Search every deal of ``BENCH``: one line per group, then the total.

    Each deal is searched as ``verdict`` searches it (the portfolio, probes and
    side searches of ``solve``, without a winning line shortened or replayed),
    up to ``BENCH_NODE_LIMIT`` nodes.
    """
    lines = []
    for name, sets in BENCH.items():
        positions = [
            Position.initial(Deal.from_number(number), bench_set.rules)
            for bench_set in sets
            for number in bench_set.deals
        ]
        verdicts: Counter[str] = Counter()
        nodes = 0
        started = time.process_time()
        for position in positions:
            answer, _, searched = verdict(position, BENCH_NODE_LIMIT)
            verdicts[answer] += 1
            nodes += searched
        lines.append(BenchLine(name, len(positions), verdicts, nodes,
                               time.process_time() - started))
    total = BenchLine(
        "Total",
        sum(line.deals for line in lines),
        sum((line.verdicts for line in lines), Counter()),
        sum(line.nodes for line in lines),
        sum(line.seconds for line in lines),
    )
    return [*lines, total]


def peak_megabytes() -> float:
    """Peak resident set size of this process so far, in MB (MiB, as ``--memory-limit``)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")
_RESET_PEAK = "5"
"""Linux's code, written to ``clear_refs``, that resets the peak resident size."""


def reset_peak() -> bool:
    """Start a new peak resident size (Linux's ``VmHWM``); False where it cannot."""
    try:
        _CLEAR_REFS.write_text(_RESET_PEAK)
    except OSError:
        return False
    return True


def peak_since_reset() -> float:
    """The peak resident size since ``reset_peak``, in MB (MiB): one solve's whole process."""
    match = re.search(r"^VmHWM:\s+(\d+) kB", _STATUS.read_text(), re.MULTILINE)
    return int(match.group(1)) / 1024 if match else peak_megabytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--draws", type=int, nargs="+", default=[1, 3])
    parser.add_argument(
        "--shorten", choices=tuple(SHORTEN), default="auto",
        help="shorten winning lines as bonanza analyze --shorten does (default: auto, as analyze)",
    )  # fmt: skip
    parser.add_argument(
        "--bench", action="store_true",
        help="the pinned bench instead: fixed deals, a node limit, nodes and CPU time",
    )
    args = parser.parse_args(argv)
    if args.bench:
        for line in bench():
            print(line)
        return 0
    rng = random.Random(args.seed)
    numbers = [rng.getrandbits(64) for _ in range(args.deals)]
    for draw in args.draws:
        rules = Rules(draw=draw, thoughtful=True)
        counts: dict[str, int] = {}
        times: list[float] = []
        searches: list[float] = []
        cpu_times: list[float] = []
        slowest = (0.0, 0)
        largest = (0.0, 0)
        per_solve = True
        unknown: list[int] = []
        started = time.perf_counter()
        for number in numbers:
            per_solve = reset_peak() and per_solve
            cpu = time.process_time()
            result = solve(
                Deal.from_number(number), rules, time_limit=args.time_limit,
                shorten=SHORTEN[args.shorten],
            )  # fmt: skip
            searches.append(result.search_seconds)
            cpu_times.append(time.process_time() - cpu)
            counts[result.result] = counts.get(result.result, 0) + 1
            times.append(result.seconds)
            slowest = max(slowest, (result.seconds, number))
            if per_solve:
                largest = max(largest, (peak_since_reset(), number))
            if result.result == "unknown":
                unknown.append(number)
        times.sort()
        searches.sort()
        cpu_times.sort()
        print(
            f"draw {draw}: {len(numbers)} deals in {time.perf_counter() - started:.1f} s; "
            + ", ".join(f"{key} {counts.get(key, 0)}" for key in
                        ("solved", "unsolvable", "unknown"))
        )
        print(
            f"  seconds per deal: median {percentile(times, 0.5):.6f}, "
            f"p90 {percentile(times, 0.9):.6f}, p99 {percentile(times, 0.99):.4f}, "
            f"max {times[-1]:.3f} (deal {slowest[1]})"
        )
        print(
            f"  of which the search: median {percentile(searches, 0.5):.6f}, "
            f"p90 {percentile(searches, 0.9):.6f} (lines shortened: {args.shorten})"
        )
        print(
            f"  CPU seconds per deal: median {percentile(cpu_times, 0.5):.6f}, "
            f"p90 {percentile(cpu_times, 0.9):.6f}, p99 {percentile(cpu_times, 0.99):.4f}, "
            f"max {cpu_times[-1]:.3f}"
        )
        if per_solve:
            print(
                f"  peak memory of one solve (the whole process, resident): {largest[0]:.0f} MB "
                f"(deal {largest[1]})"
            )
        else:
            print(f"  peak memory so far: {peak_megabytes():.0f} MB")
        if unknown:
            print("  unknown: " + " ".join(map(str, unknown)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
