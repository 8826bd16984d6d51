"""Two play-strength runs compared on the deals both played: which engine wins more?

    python benchmarks/play_strength_compare.py OLD.jsonl NEW.jsonl

Both files are ``bonanza autoplay --out`` or ``play_strength.py --out`` rows.
The comparison is paired: only deals in both files count, and what decides
is the deals one engine won and the other lost. The p-value is McNemar's
exact test (two-sided binomial on those discordant deals), so a difference
of a few games on a few hundred deals is not read as a better engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from math import comb
from typing import Any, Final

from bonanza.solver.stats import wilson_interval

EXIT_USAGE: Final = 2
PERCENT: Final = 100


def read_rows(path: str) -> dict[str, dict[str, Any]]:
    """The rows of a run file by deal (a row cut short at the end is skipped)."""
    rows: dict[str, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a last row cut short by an interruption
            if not isinstance(row, dict) or "deal" not in row or "won" not in row:
                raise ValueError(f"{path}, line {number}: not a play-strength row")
            rows[str(row["deal"])] = row
    return rows


def mcnemar_p(only_first: int, only_second: int) -> float:
    """Two-sided exact McNemar p-value: the chance of a split this uneven or
    more of the discordant deals, if each engine were as likely to win them."""
    total = only_first + only_second
    if total == 0:
        return 1.0
    low = min(only_first, only_second)
    tail = sum(comb(total, k) for k in range(low + 1)) / 2**total
    return min(1.0, 2.0 * float(tail))


def compare(first: dict[str, dict[str, Any]], second: dict[str, dict[str, Any]]) -> list[str]:
    """The comparison's lines: wins of each on the common deals, the discordant
    deals, the p-value, and how the lost games ended."""
    common = [deal for deal in first if deal in second]
    if not common:
        return ["no deal is in both files"]
    won = [sum(bool(rows[deal]["won"]) for deal in common) for rows in (first, second)]
    only_first = sum(first[d]["won"] and not second[d]["won"] for d in common)
    only_second = sum(second[d]["won"] and not first[d]["won"] for d in common)
    lines = [f"deals in both: {len(common)}"]
    for name, wins, rows in (("first", won[0], first), ("second", won[1], second)):
        low, high = wilson_interval(wins, len(common))
        ends = Counter(rows[d].get("end", "?") for d in common if not rows[d]["won"])
        moves = sorted(rows[d].get("moves", 0) for d in common)
        lines.append(
            f"{name}: won {wins} ({PERCENT * wins / len(common):.1f} %, 95 % Wilson "
            f"{PERCENT * low:.1f}-{PERCENT * high:.1f}); lost by "
            + (", ".join(f"{end} {count}" for end, count in sorted(ends.items())) or "none")
            + f"; median moves {moves[len(moves) // 2]}"
        )
    lines.append(
        f"won by the first only: {only_first}; by the second only: {only_second}; "
        f"McNemar exact p = {mcnemar_p(only_first, only_second):.3f}"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="a run file (.jsonl), say the older engine's")
    parser.add_argument("second", help="another run file on the same deals")
    args = parser.parse_args(argv)
    try:
        first, second = read_rows(args.first), read_rows(args.second)
    except (OSError, ValueError) as error:
        print(f"play_strength_compare: {error}", file=sys.stderr)
        return EXIT_USAGE
    print("\n".join(compare(first, second)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
