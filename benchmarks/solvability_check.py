"""Check the solvability report's verdicts by searching deals again another way.

For each ``analyze`` results file given, the first ``--deals`` deals of each
decided verdict (solved, unsolvable) are searched again, by default with the C
core's pruning rules and side searches all switched off (``Prune.NONE``,
``Sides.NONE``), so that a wrong ``unsolvable`` from a pruning rule would show;
with ``--generic``, by ``bonanza.solver.generic`` instead (the engine's own
positions and moves, a second implementation, no pruning at all, but some
thirty times slower per position). Wherever both searches decide a deal they
must agree. The script prints, per file, the deals compared, how many agreed,
and how many the second search left undecided within its limit, and exits 1 on
any disagreement.

    python benchmarks/solvability_check.py benchmarks/results/solvability/*.jsonl \\
        --deals 20 --time-limit 10
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from bonanza.core import Position, Rules
from bonanza.core.deal import Deal
from bonanza.solver.generic import search
from bonanza.solver.search import solve
from bonanza.solver.switches import Prune, Sides

DECIDED = ("solved", "unsolvable")


def chosen_rows(path: Path, count: int) -> list[dict[str, object]]:
    """The first ``count`` rows of ``path`` of each decided verdict, by deal number."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rows.sort(key=lambda row: int(str(row["id"])))
    return [
        row for verdict in DECIDED for row in [r for r in rows if r["result"] == verdict][:count]
    ]


def second_verdict(position: Position, time_limit: float, generic: bool) -> str:
    if generic:
        return search(position, time_limit=time_limit).result
    return solve(position, time_limit=time_limit, prune=Prune.NONE, sides=Sides.NONE).result


def check(path: Path, count: int, time_limit: float, generic: bool) -> Counter[str]:
    tally: Counter[str] = Counter()
    for row in chosen_rows(path, count):
        rules = Rules.from_dict(row["rules"])
        deal = Deal.parse(str(row["deal"]), rules.decks)
        first = str(row["result"])
        second = second_verdict(Position.initial(deal, rules), time_limit, generic)
        if second not in DECIDED:
            tally[f"{first}, second undecided"] += 1
        elif first == second:
            tally[f"{first}, agree"] += 1
        else:
            tally["DISAGREE"] += 1
            print(f"  {path.name} deal {row['deal']}: analyze {first}, second search {second}")
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="analyze .jsonl files")
    parser.add_argument("--deals", type=int, default=20,
                        help="deals of each decided verdict per file (default 20)")
    parser.add_argument("--time-limit", type=float, default=10.0,
                        help="seconds per deal for the second search (default 10)")
    parser.add_argument("--generic", action="store_true",
                        help="search again with the generic search, not the unpruned C core")
    args = parser.parse_args()
    disagreements = 0
    for path in args.results:
        started = time.perf_counter()
        tally = check(path, args.deals, args.time_limit, args.generic)
        disagreements += tally["DISAGREE"]
        counts = "; ".join(f"{name} {number}" for name, number in sorted(tally.items()))
        print(f"{path.name}: {counts} ({time.perf_counter() - started:.0f} s)", flush=True)
    print(f"disagreements: {disagreements}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
