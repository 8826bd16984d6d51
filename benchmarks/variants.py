"""Solver benchmark for Klondike's relatives: deals 1-200 of Westcliff and Easthaven.

    python benchmarks/variants.py [--deals 200] [--time-limit 10]
                                  [--games westcliff easthaven]

Solves deals 1 to ``--deals`` of each game under its preset rules (every
card known) with the C core, and prints per game the count of each verdict,
the median, p99 and maximum seconds per deal (the solver's own time, and the
wall-clock time of ``solve``, which adds replaying the line through the
engine) and the longest winning line.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from bonanza.core import Deal, Rules
from bonanza.solver import solve
from bonanza.solver.stats import percentile

GAMES = ("westcliff", "easthaven")
VERDICTS = ("solved", "unsolvable", "unknown")


def bench(game: str, deals: int, time_limit: float) -> list[str]:
    """Solve deals 1 to ``deals`` of ``game``: the report's lines."""
    rules = dataclasses.replace(Rules.preset(game), thoughtful=True)
    counts = dict.fromkeys(VERDICTS, 0)
    seconds: list[float] = []
    walls: list[float] = []
    longest = (0, 0)
    unknown: list[str] = []
    for number in range(1, deals + 1):
        started = time.perf_counter()
        result = solve(Deal.from_number(number), rules, time_limit=time_limit)
        walls.append(time.perf_counter() - started)
        seconds.append(result.seconds)
        counts[result.result] += 1
        longest = max(longest, (len(result.moves), number))
        if result.result == "unknown":
            unknown.append(str(number))
    lines = [f"{game}: deals 1-{deals}, time limit {time_limit:g} s; "
             + ", ".join(f"{key} {counts[key]}" for key in VERDICTS)]
    for name, times in (("solver", sorted(seconds)), ("wall (with the replay)", sorted(walls))):
        lines.append(f"  {name} seconds per deal: median {percentile(times, 0.5):.4f}, "
                     f"p99 {percentile(times, 0.99):.3f}, max {times[-1]:.3f}, "
                     f"total {sum(times):.1f}")
    lines.append(f"  longest winning line: {longest[0]} moves (deal {longest[1]})")
    return lines + ([f"  unknown: {' '.join(unknown)}"] if unknown else [])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    args = parser.parse_args(argv)
    for game in args.games:
        print("\n".join(bench(game, args.deals, args.time_limit)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
