"""Does the grade of a winnable deal track how often the fair hint player wins it?

    python benchmarks/grading.py [--per-grade 20] [--draws 1 3] [--budget 0.1] [--jobs 1]
    python benchmarks/grading.py --calibrate 300      # the fair share's terciles

Deals seeded random deals until ``--per-grade`` of each grade are proven
winnable and graded (``bonanza.solver.grading``), then plays each with the fair
autoplay (``bonanza autoplay``'s engine: every move a fair hint of ``--budget``
seconds) and prints, per draw mode and grade, the fair player's win rate with
its 95 % Wilson interval, and how well the fair share alone ranks wins above
losses (the AUC: 0.5 is chance, 1 perfect). ``--out`` keeps one row per game.

``--report F [F ...]`` prints the same summary of the rows of earlier ``--out``
files together. ``--calibrate N`` only grades N winnable deals per draw mode and prints the
terciles of their fair share: the cut points for ``grading.AT_WILL_THRESHOLDS``
(draw 1) and ``grading.THRESHOLDS`` (draw 3).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bonanza.cli.autoplay import MOVE_CAP, Settings, play_games
from bonanza.core import Deal, Rules
from bonanza.solver.grading import Grade, GradedDeal, grade_deal
from bonanza.solver.stats import percentile, wilson_interval


def graded_deals(rules: Rules, seed: int) -> Iterator[GradedDeal]:
    """Seeded random deals under ``rules`` that the solver proves winnable, graded."""
    rng = random.Random(seed * 10 + rules.draw)
    while True:
        graded = grade_deal(Deal.from_number(rng.getrandbits(64)), rules)
        if graded is not None:
            yield graded


def stratified(rules: Rules, seed: int, per_grade: int) -> list[GradedDeal]:
    """The first ``per_grade`` deals of each grade."""
    chosen: dict[Grade, list[GradedDeal]] = {grade: [] for grade in Grade}
    for graded in graded_deals(rules, seed):
        if len(chosen[graded.grade]) < per_grade:
            chosen[graded.grade].append(graded)
        if all(len(deals) == per_grade for deals in chosen.values()):
            return [deal for grade in Grade for deal in chosen[grade]]
    raise AssertionError("unreachable")


def auc(rows: list[dict[str, Any]]) -> float:
    """The chance that a won game's deal has a larger fair share than a lost one's."""
    won = [row["measure"] for row in rows if row["won"]]
    lost = [row["measure"] for row in rows if not row["won"]]
    if not won or not lost:
        return float("nan")
    pairs = sum(1.0 if w > v else 0.5 if w == v else 0.0 for w in won for v in lost)
    return pairs / (len(won) * len(lost))


def calibrate(rules: Rules, seed: int, count: int) -> None:
    started = time.perf_counter()
    deals = graded_deals(rules, seed)
    shares = sorted(next(deals).measure for _ in range(count))
    seconds = time.perf_counter() - started
    low, high = percentile(shares, 1 / 3), percentile(shares, 2 / 3)
    print(f"draw {rules.draw}: {count} winnable deals graded in {seconds:.1f} s; "
          f"fair share terciles {low:.4f} and {high:.4f}; median {percentile(shares, 0.5):.4f}")


def play(rules: Rules, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Grade and play the deals of one draw mode: one row per game."""
    started = time.perf_counter()
    deals = stratified(rules, args.seed, args.per_grade)
    graded = {str(item.deal.id): item for item in deals}
    print(f"draw {rules.draw}: {len(deals)} deals graded in "
          f"{time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    settings = Settings(rules, budget=args.budget, max_moves=args.max_moves)
    rows = []
    todo = ((ident, ident) for ident in graded)
    for played in play_games(todo, settings, args.jobs):
        item = graded[played["id"]]
        row = {"draw": rules.draw, "deal": played["id"], "grade": str(item.grade),
               "measure": item.measure, "won": played["won"], "end": played["end"],
               "moves": played["moves"], "seconds": played["seconds"]}
        rows.append(row)
        if args.out:
            with open(args.out, "a") as out:
                out.write(json.dumps(row) + "\n")
        print(f"  {len(rows)}/{len(deals)} {row['grade']} {'won' if row['won'] else 'lost'} "
              f"({row['seconds']:.0f} s)", file=sys.stderr, flush=True)
    return rows


def report(rules: Rules, rows: list[dict[str, Any]]) -> None:
    print(f"draw {rules.draw} ({rules.to_text()}):")
    for grade in Grade:
        games = [row for row in rows if row["grade"] == grade]
        wins = sum(row["won"] for row in games)
        low, high = wilson_interval(wins, len(games))
        rate = 100 * wins / max(len(games), 1)
        print(f"  {grade:<6} won {wins:>3} of {len(games):>3}  {rate:5.1f} %  "
              f"(95 % Wilson {100 * low:.1f}-{100 * high:.1f} %)")
    print(f"  AUC of the fair share for a win: {auc(rows):.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-grade", type=int, default=20, metavar="N")
    parser.add_argument("--draws", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per fair hint")
    parser.add_argument("--max-moves", type=int, default=MOVE_CAP)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", metavar="F", help="append one JSON row per game")
    parser.add_argument("--calibrate", type=int, metavar="N", help="only grade N deals per draw")
    parser.add_argument("--report", nargs="+", metavar="F", help="summarize --out files")
    args = parser.parse_args(argv)
    if args.report:
        rows = [
            json.loads(line)
            for name in args.report
            for line in Path(name).read_text().splitlines()
            if line.strip()
        ]
        for draw in args.draws:
            report(Rules(draw=draw), [row for row in rows if row["draw"] == draw])
        return 0
    for draw in args.draws:
        rules = Rules(draw=draw)
        if args.calibrate:
            calibrate(rules, args.seed, args.calibrate)
            continue
        started = time.perf_counter()
        rows = play(rules, args)
        report(rules, rows)
        print(f"  ({time.perf_counter() - started:.0f} s; budget {args.budget} s per move, "
              f"move cap {args.max_moves}, jobs {args.jobs})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
