"""Solver benchmark: seeded random deals, draw 1 and draw 3, on one core.

    python benchmarks/solver.py [--deals 1000] [--seed 2024] [--time-limit 10]

Prints, per draw mode, the count of each verdict, median/p90/p99/max seconds
per deal (the solver's wall-clock time, and the process CPU time, which other
work on the machine does not inflate) and the peak memory (resident set size).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time

from bonanza.core import Deal, Rules
from bonanza.solver import solve
from bonanza.solver.stats import percentile


def peak_megabytes() -> float:
    """Peak resident set size of this process so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--draws", type=int, nargs="+", default=[1, 3])
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    numbers = [rng.getrandbits(64) for _ in range(args.deals)]
    for draw in args.draws:
        rules = Rules(draw=draw, thoughtful=True)
        counts: dict[str, int] = {}
        times: list[float] = []
        cpu_times: list[float] = []
        slowest = (0.0, 0)
        unknown: list[int] = []
        started = time.perf_counter()
        for number in numbers:
            cpu = time.process_time()
            result = solve(Deal.from_number(number), rules, time_limit=args.time_limit)
            cpu_times.append(time.process_time() - cpu)
            counts[result.result] = counts.get(result.result, 0) + 1
            times.append(result.seconds)
            slowest = max(slowest, (result.seconds, number))
            if result.result == "unknown":
                unknown.append(number)
        times.sort()
        cpu_times.sort()
        print(
            f"draw {draw}: {len(numbers)} deals in {time.perf_counter() - started:.1f} s; "
            + ", ".join(f"{key} {counts.get(key, 0)}" for key in
                        ("solved", "unsolvable", "unknown"))
        )
        print(
            f"  seconds per deal: median {percentile(times, 0.5):.5f}, "
            f"p90 {percentile(times, 0.9):.5f}, p99 {percentile(times, 0.99):.4f}, "
            f"max {times[-1]:.3f} (deal {slowest[1]})"
        )
        print(
            f"  CPU seconds per deal: median {percentile(cpu_times, 0.5):.5f}, "
            f"p90 {percentile(cpu_times, 0.9):.5f}, p99 {percentile(cpu_times, 0.99):.4f}, "
            f"max {cpu_times[-1]:.3f}"
        )
        print(f"  peak memory so far: {peak_megabytes():.0f} MB")
        if unknown:
            print("  unknown: " + " ".join(map(str, unknown)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
