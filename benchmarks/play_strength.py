r"""Play strength of the fair hint engine: its win rate on seeded random deals.

    python benchmarks/play_strength.py [--set tuning | --set held-out | --seed N]
                                       [--games 200] [--draw 1]
                                       [--budget 1.0 | --budgets 0.1,0.3,1] [--jobs N]
                                       [--out F.jsonl] [--results DIR] [--force]

Two named sets of deals (``bonanza.solver.fair_sets``, issue 34): the tuning
set (seed 2024, the default, on which every engine change is chosen) and the
held-out set (seed 271828, never used to choose anything), whose figure is the
one published, played once per engine version. A held-out run writes its rows
to ``benchmarks/results/`` (or ``--results``), in a file named with the engine
version played: the last commit that changed the engine's files
(``ENGINE_PATHS``). It refuses an engine with uncommitted changes, and a
second run of the same engine, draw and budget once the file holds
``--games`` games (a shorter file is resumed); ``--force`` plays anyway, into a
new file, and says so loudly.

``--replay BASE.jsonl --at REGEX`` measures a change that can alter a hint
only where the engine of BASE (same settings) played a move matching REGEX
(say ``^f[cdhs]\d``, a card back from a foundation, for a rule that only
re-chooses such moves): each deal is played again from the first such move of
BASE's line, its moves up to there taken as they were (``play_game``'s
``prefix``), and a deal whose line holds none is copied from BASE (marked
``"copied": true``), since the change cannot reach it. Give one such deal in
a plain run too, to see it come out the same.

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
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Final

from bonanza.cli.autoplay import MOVE_CAP, Settings, Tally, budget_seconds, play_games, read_rows
from bonanza.cli.results_file import ResultsWriter
from bonanza.cli.solver_io import InputError
from bonanza.core import Rules
from bonanza.solver.fair_budget import DEFAULT_BUDGET
from bonanza.solver.fair_sets import HELD_OUT, SEEDS, TUNING
from bonanza.solver.stats import percentile, wilson_interval

DEFAULT_GAMES: Final = 200
DEFAULT_SEED: Final = SEEDS[TUNING]
ROOT: Final = Path(__file__).resolve().parents[1]
RESULTS: Final = ROOT / "benchmarks" / "results"
ENGINE_PATHS: Final = (
    "src/bonanza/solver", "src/bonanza/core", "src/bonanza/session",
    "src/bonanza/cli/autoplay.py", "setup.py", ":(exclude)src/bonanza/solver/fair_sets.py",
)
"""What the hints' moves depend on: a commit that changes any of it is a new engine version
(the sets' seeds excepted)."""
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


class HeldOutRefused(Exception):
    """A held-out run that the discipline forbids (without ``--force``)."""


def engine_version(root: Path = ROOT) -> tuple[str, bool]:
    """The last commit that changed ``ENGINE_PATHS``, and whether they have changes since."""
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()

    commit = git("log", "-1", "--format=%h", "--", *ENGINE_PATHS)
    dirty = bool(git("status", "--porcelain", "--", *ENGINE_PATHS))
    return commit, dirty


def held_out_name(draw: int, budget: float, engine: str, run: int = 1) -> str:
    """The file name of a held-out run (its second and later runs, forced, get ``-runN``)."""
    again = f"-run{run}" if run > 1 else ""
    return (
        f"play-strength-{HELD_OUT}-draw{draw}-budget{budget:g}-seed{SEEDS[HELD_OUT]}"
        f"-{engine}{again}.jsonl"
    )


def games_in(path: Path) -> int:
    """The whole game rows in a run file (0 if there is none)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return 0
    count = 0
    for line in lines:
        try:
            count += isinstance(json.loads(line), dict)
        except ValueError:
            continue  # a last row cut short
    return count


def held_out_file(
    results: Path, draw: int, budget: float, games: int, version: tuple[str, bool],
    force: bool = False,
) -> tuple[Path, list[str]]:
    """Where a held-out run of ``games`` games goes, and the warnings to print.

    Raises ``HeldOutRefused`` for an engine with uncommitted changes, or one whose
    held-out run of this draw and budget already holds ``games`` games, unless
    ``force``; forced, a finished run is played again into a new file.
    """
    engine, dirty = version
    warnings: list[str] = []
    if dirty:
        if not force:
            raise HeldOutRefused(
                f"the engine has uncommitted changes since {engine} "
                f"(in {', '.join(p for p in ENGINE_PATHS if p[0] != ':')}): a held-out figure "
                "must be of a commit; "
                "commit first (or --force)"
            )
        engine += "-dirty"
        warnings.append("WARNING: held-out run of an engine with uncommitted changes (forced)")
    run = 1
    path = results / held_out_name(draw, budget, engine)
    while (played := games_in(path)) >= games:
        if not force:
            raise HeldOutRefused(
                f"the held-out set was played already by engine {engine}: {played} games in "
                f"{path}; its figure stands. Play the held-out set again only for a new engine "
                "version (or --force, into a new file)"
            )
        run += 1
        path = results / held_out_name(draw, budget, engine, run)
    if run > 1:
        warnings.append(
            f"WARNING: the held-out set is played AGAIN for engine {engine} (forced, run {run}): "
            "choosing between engines on it makes it a tuning set"
        )
    elif played:
        warnings.append(f"resuming the held-out run in {path}: {played} games played")
    return path, warnings


def replay_plan(
    base: dict[str, dict[str, Any]], idents: list[str], at: str
) -> tuple[dict[str, list[str]], dict[str, dict[str, Any]]]:
    """For ``--replay``: the line each deal starts with (BASE's, up to its first
    move matching ``at``), and the rows copied from BASE (no such move)."""
    pattern = re.compile(at)
    prefixes: dict[str, list[str]] = {}
    copied: dict[str, dict[str, Any]] = {}
    for ident in idents:
        row = base.get(ident)
        if row is None:
            continue  # not in BASE: played whole
        first = next((n for n, move in enumerate(row["line"]) if pattern.search(move)), None)
        if first is None:
            copied[ident] = {**row, "copied": True}
        else:
            prefixes[ident] = row["line"][:first]
    return prefixes, copied


def play(
    numbers: list[int], settings: Settings, jobs: int, out: str | None = None,
    replay: tuple[str, str] | None = None,
) -> tuple[Tally, float]:
    """Play every deal with ``settings``: the tally and the wall-clock seconds.

    With ``out``, the games already in that file are taken from it, and each new
    game is added to it as it ends. With ``replay`` (BASE, REGEX), see ``--replay``.
    """
    tally = Tally()
    started = time.perf_counter()
    results, done = read_rows(out, settings) if out else (None, {})
    deals = [(str(number), str(number)) for number in numbers]
    prefixes, copied = replay_plan(
        read_rows(replay[0], settings)[1], [ident for ident, _ in deals], replay[1]
    ) if replay else ({}, {})
    for ident, _ in deals:
        if ident in done:
            tally.add(done[ident])
    todo = [(ident, text) for ident, text in deals if ident not in done]
    writer = ResultsWriter(results) if results else None
    try:
        for ident in [ident for ident, _ in todo if ident in copied]:
            tally.add(copied[ident])
            if writer:
                writer.write(copied[ident])
        todo = [(ident, text) for ident, text in todo if ident not in copied]
        if todo:
            games = play_games(todo, settings, min(jobs, len(todo)), prefixes=prefixes)
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
    deal_set = parser.add_mutually_exclusive_group()
    deal_set.add_argument(
        "--set", choices=sorted(SEEDS), dest="deal_set",
        help=f"a named set of deals: {TUNING} (seed {SEEDS[TUNING]}, the default; choose "
        f"changes on it) or {HELD_OUT} (seed {SEEDS[HELD_OUT]}; report on it, once per engine)",
    )
    deal_set.add_argument("--seed", type=int, help="deals and hints (another seed)")
    parser.add_argument("--draw", type=int, default=1)
    budgets = parser.add_mutually_exclusive_group()
    budgets.add_argument("--budget", type=budget_seconds, default=DEFAULT_BUDGET)
    budgets.add_argument("--budgets", type=budget_list, help="e.g. 0.1,0.3,1")
    parser.add_argument("--max-moves", type=int, default=MOVE_CAP)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", help="keep each game in this .jsonl file; a rerun resumes it")
    parser.add_argument("--replay", metavar="BASE.jsonl",
                        help="play BASE's deals again from the first move matching --at")
    parser.add_argument("--at", metavar="REGEX", help="with --replay: where play may part")
    parser.add_argument(
        "--results", type=Path, default=RESULTS, help="where a held-out run keeps its file"
    )
    parser.add_argument(
        "--force", action="store_true", help="play the held-out set though the discipline says no"
    )
    args = parser.parse_args(argv)
    if args.out and args.budgets is not None:
        parser.error("--out keeps one budget's games: give --budget, not --budgets")
    args.seed = SEEDS[args.deal_set or TUNING] if args.seed is None else args.seed
    if bool(args.replay) != bool(args.at) or (args.replay and args.budgets is not None):
        parser.error("--replay and --at go together, with one --budget")
    if args.replay and args.deal_set == HELD_OUT:
        parser.error("a held-out figure is played whole: no --replay")
    if args.deal_set == HELD_OUT:
        if args.budgets is not None or args.out:
            parser.error("a held-out run keeps its own file: give one --budget and no --out")
        try:
            path, warnings = held_out_file(
                args.results, args.draw, args.budget, args.games, engine_version(), args.force
            )
        except (HeldOutRefused, subprocess.CalledProcessError, OSError) as error:
            print(f"play_strength.py: {error}", file=sys.stderr)
            return EXIT_USAGE
        for warning in warnings:
            print(warning, file=sys.stderr)
        args.out = str(path)
        print(f"held-out set: rows to {path}")
    rules = Rules(draw=args.draw)
    numbers = deal_numbers(args.games, args.seed)
    print(f"{args.games} deals from seed {args.seed}; rules: {rules.to_text()}; "
          f"move cap {args.max_moves}; {args.jobs} jobs")
    try:
        if args.budgets is None:
            settings = Settings(rules, args.budget, args.seed, args.max_moves)
            replay = (args.replay, args.at) if args.replay else None
            tally, wall = play(numbers, settings, args.jobs, args.out, replay)
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
