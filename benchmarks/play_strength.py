"""Play strength of the fair hint engine: its win rate on seeded random deals.

    python benchmarks/play_strength.py [--games 200] [--seed 2024] [--draw 1]
                                       [--budget 1.0 | --budgets 0.1,0.3,1] [--jobs N]
                                       [--out F.jsonl]

The deals are 64-bit deal numbers drawn from ``random.Random(seed)``, the
same for every budget; each game is played as ``bonanza autoplay`` plays it
(every move from ``advise``, which sees only what the player saw; hint seeds
from ``--seed``). With one budget it prints the win rate with its 95 % Wilson
interval, the cards home on average and the seconds per move (median, p99,
max); with ``--budgets`` it prints one line per budget, all on the same deals,
so that the win rate can be read against the budget.

With ``--out`` (one budget) every game is kept as a row, as ``bonanza
autoplay --out`` keeps it, and a rerun plays only the games not yet in the
file: a 500-game run may be spread over several sittings. The hint budget is
counted in solver nodes, so the games (and the win rate) do not depend on how
loaded the machine is; only the seconds per move do.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from typing import Final

from bonanza.cli.autoplay import MOVE_CAP, Settings, Tally, budget_seconds, play_games, read_rows
from bonanza.cli.results_file import ResultsWriter
from bonanza.cli.solver_io import InputError
from bonanza.core import Rules
from bonanza.solver.fair_budget import DEFAULT_BUDGET
from bonanza.solver.stats import percentile, wilson_interval

DEFAULT_GAMES: Final = 200
DEFAULT_SEED: Final = 2024
EXIT_INTERRUPTED: Final = 130
EXIT_USAGE: Final = 2
HEADER: Final = (
    f"{'budget':>8} {'games':>6} {'won':>5} {'win rate':>9} {'95 % interval':>15} "
    f"{'cards home':>10} {'s/move median':>13} {'p99':>8} {'max':>8} "
    f"{'CPU s median':>12} {'p99':>8} {'max':>8} {'wall s':>8}"
)


def budget_list(text: str) -> list[float]:
    """Comma-separated budgets in seconds, for argparse."""
    return [budget_seconds(part) for part in text.split(",")]


def deal_numbers(games: int, seed: int) -> list[int]:
    """The benchmark's deals: the same for a seed on every run and every budget."""
    rng = random.Random(seed)
    return [rng.getrandbits(64) for _ in range(games)]


def play(
    numbers: list[int], settings: Settings, jobs: int, out: str | None = None
) -> tuple[Tally, float]:
    """Play every deal with ``settings``: the tally and the wall-clock seconds.

    With ``out``, the games already in that file are taken from it, and each new
    game is added to it as it ends.
    """
    tally = Tally()
    started = time.perf_counter()
    results, done = read_rows(out, settings) if out else (None, {})
    deals = [(str(number), str(number)) for number in numbers]
    for ident, _ in deals:
        if ident in done:
            tally.add(done[ident])
    todo = [(ident, text) for ident, text in deals if ident not in done]
    writer = ResultsWriter(results) if results else None
    try:
        if todo:
            games = play_games(todo, settings, min(jobs, len(todo)))
            with contextlib.closing(games):
                for row in games:
                    tally.add(row)
                    if writer:
                        writer.write(row)
    finally:
        if writer:
            writer.close()
    return tally, time.perf_counter() - started


def table_line(budget: float, tally: Tally, wall: float) -> str:
    """One budget's figures, under ``HEADER``."""
    games, wins = tally.games, tally.wins
    low, high = wilson_interval(wins, games)
    times = sorted(tally.move_seconds)
    cpu = sorted(tally.move_cpu_seconds)  # from the rows that have it
    interval = f"{100 * low:.1f}-{100 * high:.1f} %"
    return (
        f"{budget:>8g} {games:>6} {wins:>5} {100 * wins / max(games, 1):>7.1f} % "
        f"{interval:>15} {tally.cards_home / max(games, 1):>10.2f} "
        f"{percentile(times, 0.5):>13.4f} {percentile(times, 0.99):>8.4f} "
        f"{times[-1] if times else 0.0:>8.4f} "
        f"{percentile(cpu, 0.5):>12.4f} {percentile(cpu, 0.99):>8.4f} "
        f"{cpu[-1] if cpu else 0.0:>8.4f} {wall:>8.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="deals and hints")
    parser.add_argument("--draw", type=int, default=1)
    budgets = parser.add_mutually_exclusive_group()
    budgets.add_argument("--budget", type=budget_seconds, default=DEFAULT_BUDGET)
    budgets.add_argument("--budgets", type=budget_list, help="e.g. 0.1,0.3,1")
    parser.add_argument("--max-moves", type=int, default=MOVE_CAP)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", help="keep each game in this .jsonl file; a rerun resumes it")
    args = parser.parse_args(argv)
    if args.out and args.budgets is not None:
        parser.error("--out keeps one budget's games: give --budget, not --budgets")
    rules = Rules(draw=args.draw)
    numbers = deal_numbers(args.games, args.seed)
    print(f"{args.games} deals from seed {args.seed}; rules: {rules.to_text()}; "
          f"move cap {args.max_moves}; {args.jobs} jobs")
    try:
        if args.budgets is None:
            settings = Settings(rules, args.budget, args.seed, args.max_moves)
            tally, wall = play(numbers, settings, args.jobs, args.out)
            print(f"budget {args.budget} s per move; {wall:.1f} s in all")
            print(tally.summary())
            return 0
        print(HEADER)
        for budget in args.budgets:
            settings = Settings(rules, budget, args.seed, args.max_moves)
            tally, wall = play(numbers, settings, args.jobs)
            print(table_line(budget, tally, wall))
            sys.stdout.flush()
    except InputError as error:
        print(f"play_strength.py: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


if __name__ == "__main__":
    sys.exit(main())
