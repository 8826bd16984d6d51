"""Two play-strength runs compared on the deals both played: which engine wins more?

    python benchmarks/play_strength_compare.py OLD.jsonl NEW.jsonl

Both files are ``bonanza autoplay --out`` or ``play_strength.py --out`` rows.
The comparison is paired: only deals in both files count, and what decides
is the deals one engine won and the other lost. The p-value is McNemar's
exact test (two-sided binomial on those discordant deals), so a difference
of a few games on a few hundred deals is not read as a better engine. The
difference in win rate (second minus first) comes with its 95 % interval for
paired proportions (Newcombe's method 10, from the two Wilson intervals).

The runs should differ only in the engine: a setting that differs (rules,
budget, seed, move cap) is named, and deals in one file only are counted and
left out. Which set the deals are (``bonanza.solver.fair_sets``) is said: the
tuning set is where changes are chosen; on the held-out set a comparison is
a report, not a choice.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from math import comb, sqrt
from typing import Any, Final

from bonanza.solver.fair_sets import HELD_OUT, SEEDS, set_of_seed
from bonanza.solver.stats import wilson_interval

EXIT_USAGE: Final = 2
PERCENT: Final = 100
SETTINGS: Final = ("rules", "budget", "seed", "max_moves")
"""The row fields that sway play besides the engine."""


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


def paired_difference(both: int, only_first: int, only_second: int,
                      neither: int) -> tuple[float, float, float]:
    """The second's win rate minus the first's on paired deals, with its 95 %
    interval (Newcombe 1998, method 10, as in Altman et al., "Statistics with
    confidence": the Wilson intervals of each rate, joined with the pairs'
    correlation, corrected for continuity)."""
    total = both + only_first + only_second + neither
    if total == 0:
        return 0.0, -1.0, 1.0
    p1, p2 = (both + only_first) / total, (both + only_second) / total
    (l1, u1), (l2, u2) = (wilson_interval(both + only_first, total),
                          wilson_interval(both + only_second, total))
    margins = ((both + only_first) * (only_second + neither)
               * (both + only_second) * (only_first + neither))
    cross: float = both * neither - only_first * only_second
    cross = cross - total / 2 if cross > total / 2 else min(cross, 0)  # Newcombe's correction
    phi = cross / sqrt(margins) if margins else 0.0
    difference = p2 - p1
    low = difference - sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1)
                                + (u1 - p1) ** 2))
    high = difference + sqrt(max(0.0, (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1)
                                 + (p1 - l1) ** 2))
    return difference, max(-1.0, low), min(1.0, high)


def _settings_lines(first: dict[str, dict[str, Any]], second: dict[str, dict[str, Any]],
                    common: list[str]) -> list[str]:
    """What the runs differ in besides the engine, and which set their deals are."""
    lines = []
    for field in SETTINGS:
        ones = {json.dumps(rows[d].get(field), sort_keys=True)
                for rows in (first, second) for d in common}
        if len(ones) > 1:
            lines.append(f"NOTE: the runs differ in {field}: {', '.join(sorted(ones))}")
    seeds = {rows[d].get("seed") for rows in (first, second) for d in common}
    names = {set_of_seed(seed) for seed in seeds}
    if names == {HELD_OUT}:
        lines.append(f"deals: the held-out set (seed {SEEDS[HELD_OUT]}): a report, "
                     "not a choice; choose engine changes on the tuning set")
    elif len(names) == 1 and None not in names:
        lines.append(f"deals: the {names.pop()} set (seed {seeds.pop()})")
    return lines


def compare(first: dict[str, dict[str, Any]], second: dict[str, dict[str, Any]]) -> list[str]:
    """The comparison's lines: wins of each on the common deals, the discordant
    deals, the p-value, and how the lost games ended."""
    common = [deal for deal in first if deal in second]
    if not common:
        return ["no deal is in both files"]
    won = [sum(bool(rows[deal]["won"]) for deal in common) for rows in (first, second)]
    only_first = sum(first[d]["won"] and not second[d]["won"] for d in common)
    only_second = sum(second[d]["won"] and not first[d]["won"] for d in common)
    apart = len(first) + len(second) - 2 * len(common)
    lines = [f"deals in both: {len(common)}" + (f" ({apart} in one file only, left out)"
                                               if apart else "")]
    lines += _settings_lines(first, second, common)
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
    both = sum(first[d]["won"] and second[d]["won"] for d in common)
    difference, low, high = paired_difference(
        both, only_first, only_second, len(common) - both - only_first - only_second
    )
    lines.append(
        f"second minus first: {PERCENT * difference:+.1f} points (95 % paired interval "
        f"{PERCENT * low:+.1f} to {PERCENT * high:+.1f})"
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
