"""``bonanza autoplay``: the fair hint engine plays whole games; its win rate is its strength.

Every move of a game comes from ``bonanza.solver.fair.advise``, given only the
player's view that a ``Session`` keeps, so the engine never sees a hidden
card. A game ends when it is won, when the engine finds no move that makes
progress, when the same view comes round ``REPEATS`` times, or at the move
cap; all but a win count as lost. Each move's seed follows from ``--seed``,
the deal and the move number, so a run can be played again move for move.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import itertools
import json
import math
import multiprocessing
import os
import sys
import time
from array import array
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from bonanza.cli.deal_source import (
    DealList,
    DealRange,
    DealSource,
    check_resumed,
    deal_source,
    parse_deal_range,
)
from bonanza.cli.jobs import (
    ctrl_c_held,
    say_stopped,
    sigterm_as_ctrl_c,
    worker_results,
)
from bonanza.cli.options import add_rule_options, rules_from, whole_number
from bonanza.cli.progress import Activity, RunProgress, add_progress_option, shown_on
from bonanza.cli.results_file import ResultsFile, ResultsWriter, line_of
from bonanza.cli.solver_io import InputError
from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError, InternalError, RulesError
from bonanza.core.notation import format_move
from bonanza.core.rules import Rules
from bonanza.session import Origin, Session
from bonanza.solver.fair import advise
from bonanza.solver.fair_budget import DEFAULT_BUDGET
from bonanza.solver.stats import percentile, wilson_interval

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import Synchronized

MOVE_CAP: Final = 1_000
"""Moves after which a game not yet won counts as lost."""
REPEATS: Final = 3
"""A game whose view comes round this often is going in circles: lost."""
DEFAULT_SEED: Final = 0
SEED_BITS: Final = 64
OUT_SUFFIX: Final = ".jsonl"
SECONDS_DIGITS: Final = 6
"""Decimal places kept of each time in a row."""
WON: Final = "won"
LOST_ENDS: Final = ("no move", "repeat", "move cap")
"""Why a lost game ended: no move makes progress, going in circles, too long."""
ENDS: Final = (WON, *LOST_ENDS)
SETTINGS: Final = ("rules", "budget", "seed", "max_moves")
"""The row fields that sway play: a resumed run must share them."""


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    """What every game of a run is played with."""

    rules: Rules
    budget: float = DEFAULT_BUDGET
    seed: int = DEFAULT_SEED
    max_moves: int = MOVE_CAP

    def row_fields(self) -> dict[str, Any]:
        """The settings as they are written in each row."""
        return {
            "rules": self.rules.to_dict(),
            "budget": self.budget,
            "seed": self.seed,
            "max_moves": self.max_moves,
        }


def budget_seconds(text: str) -> float:
    """A positive, finite number of seconds per hint, for argparse."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(
            f"the budget must be a positive number of seconds, not {text}"
        )
    return value


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "autoplay",
        help="let the fair hint engine play whole games",
        description=(
            "Play a range or file of deals with every move from the fair hint engine, which "
            "never sees a hidden card; summarize its win rate."
        ),
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--deals", type=parse_deal_range, metavar="A-B", help="deal numbers A to B")
    source.add_argument(
        "--deal-file", metavar="F", help="one deal per line, optionally 'id<TAB>deal'"
    )
    parser.add_argument(
        "--games", type=whole_number("the number of games"), metavar="N",
        help="play only the first N deals",
    )
    add_rule_options(parser)
    parser.add_argument(
        "--budget", type=budget_seconds, default=DEFAULT_BUDGET, metavar="S",
        help=f"seconds per hint (default {DEFAULT_BUDGET})",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, metavar="N",
        help="the hints' random seed: the same seed plays the same games",
    )
    parser.add_argument(
        "--max-moves", type=whole_number("the move cap"), default=MOVE_CAP, metavar="N",
        help=f"a game not won after N moves is lost (default {MOVE_CAP})",
    )
    parser.add_argument(
        "--jobs", type=whole_number("the number of jobs"), default=os.cpu_count() or 1, metavar="N",
        help="worker processes, one game each (default: all cores)",
    )
    parser.add_argument("--out", metavar="F", help="one row per game, .jsonl; a rerun resumes it")
    add_progress_option(parser)
    parser.set_defaults(func=run)


# -- one game -------------------------------------------------------------------


def move_seed(seed: int, deal_id: str, move_number: int) -> int:
    """The hint seed of one move: the same in every process and on every run."""
    digest = hashlib.blake2b(
        f"{seed}:{deal_id}:{move_number}".encode(), digest_size=SEED_BITS // 8
    ).digest()
    return int.from_bytes(digest, "big")


def play_game(
    ident: str, text: str, settings: Settings, on_move: Callable[[], None] | None = None,
    prefix: Sequence[str] = (),
) -> dict[str, Any]:
    """Play deal ``text`` (known as ``ident``) with every move from ``advise``: its row.
    ``on_move`` is called after each move played.

    ``prefix``: moves played as given before the engine takes over (another
    run's line up to where two engines can first part: the game is the one the
    engine would play if its hints there are those moves). The row's ``line``
    holds them, ``prefix`` counts them, and the times cover only the hints asked.
    """
    deal = Deal.parse(text, settings.rules.decks)  # checked before the run started
    started = time.perf_counter()
    session = Session.new(
        deal, settings.rules, time.monotonic(), origin=Origin.TYPED, typed=text,
        max_moves=settings.max_moves,
    )
    view = session.view()
    seen = Counter([view.key()])
    line: list[str] = []
    for move in prefix:
        session.play(move, time.monotonic())
        line.append(move)
        view = session.view()
        seen[view.key()] += 1
    move_seconds: list[float] = []
    move_cpu_seconds: list[float] = []  # the hint's own CPU time: the same on a busy machine
    end = "move cap"
    while len(line) < settings.max_moves:
        asked, asked_cpu = time.perf_counter(), time.thread_time()
        try:
            advice = advise(view, budget=settings.budget,
                            seed=move_seed(settings.seed, deal.id, len(line)))
            move_seconds.append(time.perf_counter() - asked)
            move_cpu_seconds.append(time.thread_time() - asked_cpu)
            if advice.move is None:
                end = "no move"
                break
            session.play(advice.move, time.monotonic())
        except (BonanzaError, InternalError) as error:  # the engine's fault, not the input
            if isinstance(error, RulesError) and not settings.rules.is_klondike:
                raise  # a game the engine does not play yet: one line, status 2
            raise InternalError(
                f"deal {deal.id}, move {len(line) + 1}: the hint engine failed: {error}"
            ) from error
        line.append(format_move(advice.move))
        if on_move is not None:
            on_move()
        if session.game.is_won:
            end = WON
            break
        view = session.view()
        key = view.key()
        seen[key] += 1
        if seen[key] >= REPEATS:
            end = "repeat"
            break
    return {
        "id": ident,
        "deal": deal.id,
        "won": end == WON,
        "end": end,
        "moves": len(line),
        "seconds": round(time.perf_counter() - started, SECONDS_DIGITS),
        "cards_home": sum(session.position.foundations),
        **settings.row_fields(),
        "line": line,
        **({"prefix": len(prefix)} if prefix else {}),
        "move_seconds": [round(seconds, SECONDS_DIGITS) for seconds in move_seconds],
        "move_cpu_seconds": [round(seconds, SECONDS_DIGITS) for seconds in move_cpu_seconds],
    }


class MovesPlayed:
    """The moves played by a run's workers, counted in memory they share with the parent."""

    counter: Synchronized[int] | None = None
    """In a worker: the run's count (None: not counted)."""

    @classmethod
    def count_into(cls, counter: Synchronized[int] | None) -> None:
        """A worker's setup: count its moves into ``counter``."""
        cls.counter = counter

    @classmethod
    def add_one(cls) -> None:
        if cls.counter is not None:
            with cls.counter.get_lock():
                cls.counter.value += 1


def _play_task(task: tuple[str, str, Settings, Sequence[str]]) -> dict[str, Any]:
    ident, text, settings, prefix = task
    return play_game(ident, text, settings, on_move=MovesPlayed.add_one, prefix=prefix)


def play_games(
    deals: Iterable[tuple[str, str]], settings: Settings, jobs: int,
    moves_played: Synchronized[int] | None = None,
    prefixes: Mapping[str, Sequence[str]] | None = None,
) -> Generator[dict[str, Any], None, None]:
    """The rows of ``(id, deal)`` games played by ``jobs`` workers, as each finishes;
    each move played adds one to ``moves_played``, if given; a game with a line in
    ``prefixes`` (by id) starts with it (see ``play_game``).

    The workers ignore Ctrl-C; they are stopped when the generator is closed.
    """
    tasks = ((ident, text, settings, (prefixes or {}).get(ident, ())) for ident, text in deals)
    with worker_results(_play_task, tasks, jobs, MovesPlayed.count_into, (moves_played,)) as rows:
        yield from rows


# -- a run's results ----------------------------------------------------------------


class Tally:
    """All a summary needs of the games played: counts, cards home, each move's time."""

    def __init__(self) -> None:
        self.ends: Counter[str] = Counter()
        self.cards_home = 0
        self.move_seconds = array("d")
        self.move_cpu_seconds = array("d")
        """Only from rows that have it (rows written before it was kept lack it)."""

    def add(self, row: Mapping[str, Any]) -> None:
        self.ends[row["end"]] += 1
        self.cards_home += row["cards_home"]
        self.move_seconds.extend(row["move_seconds"])
        self.move_cpu_seconds.extend(row.get("move_cpu_seconds", ()))

    @property
    def games(self) -> int:
        return sum(self.ends.values())

    @property
    def wins(self) -> int:
        return self.ends[WON]

    @property
    def counts(self) -> dict[str, int]:
        """Games won and lost, for the progress bar."""
        return {"won": self.wins, "lost": self.games - self.wins}

    def summary(self) -> str:
        """Win rate with its Wilson interval, why games were lost, cards home, move times."""
        games, wins = self.games, self.wins
        low, high = wilson_interval(wins, games)
        why = ", ".join(f"{end} {self.ends[end]}" for end in LOST_ENDS)
        times = sorted(self.move_seconds)
        median, p99 = percentile(times, 0.5), percentile(times, 0.99)
        longest = times[-1] if times else 0.0
        return "\n".join([
            f"games: {games}",
            f"won: {wins} ({100 * wins / max(games, 1):.2f} %, "
            f"95 % Wilson interval {100 * low:.2f}-{100 * high:.2f} %)",
            f"lost: {games - wins} ({why})",
            f"cards home: {self.cards_home / max(games, 1):.2f} on average",
            f"seconds per move: median {median:.4f}, p99 {p99:.4f}, max {longest:.4f} "
            f"({len(times)} moves)",
            *self._cpu_line(),
        ])

    def _cpu_line(self) -> list[str]:
        """The hint's CPU time per move, which a busy machine does not stretch."""
        times = sorted(self.move_cpu_seconds)
        if not times:
            return []
        median, p99 = percentile(times, 0.5), percentile(times, 0.99)
        return [
            f"CPU seconds per move: median {median:.4f}, p99 {p99:.4f}, max {times[-1]:.4f} "
            f"({len(times)} moves)"
        ]


def _is_row(data: object) -> bool:
    """Whether ``data`` is a row ``play_game`` wrote."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("id"), str)
        and data.get("end") in ENDS
        and isinstance(data.get("cards_home"), int)
        and isinstance(data.get("move_seconds"), list)
        and all(isinstance(s, int | float) for s in data["move_seconds"])
        and all(field in data for field in SETTINGS)
    )


def read_rows(path: str, settings: Settings) -> tuple[ResultsFile, dict[str, dict[str, Any]]]:
    """The rows of an ``--out`` file by id (none if it does not exist yet), and where they end.

    A last row cut short by an interruption is marked to be cut away. Raises
    ``InputError`` if the file is not an autoplay file, or holds a game played
    with other settings (rules, budget, seed or move cap).
    """
    results = ResultsFile(path)
    rows: dict[str, dict[str, Any]] = {}
    wanted = settings.row_fields()
    try:
        with open(path, "rb") as file:
            for number, raw in enumerate(file, 1):
                whole = raw.endswith(b"\n")
                line = line_of(raw, number)
                if not line.strip():  # a blank line
                    results.whole_bytes += len(raw) if whole else 0
                    results.cut_short = not whole
                    continue
                try:
                    data = json.loads(line.decode("utf-8"))
                except (ValueError, RecursionError):
                    data = None
                if not _is_row(data):
                    if not whole:  # the last row, cut short
                        results.cut_short = True
                        break
                    raise InputError(
                        f"--out {path} is not an autoplay file: line {number} is not a game row"
                    )
                for field in SETTINGS:
                    if data[field] != wanted[field]:
                        raise InputError(
                            f"--out {path} line {number} was played with {field} "
                            f"{json.dumps(data[field])}, not {json.dumps(wanted[field])}: "
                            "give another --out file"
                        )
                rows[data["id"]] = data
                results.whole_bytes += len(raw)
                results.unterminated = not whole
    except FileNotFoundError:
        pass  # a new file; a missing folder shows when it is opened for writing
    except OSError as error:
        raise InputError(f"cannot read --out {path}: {error.strerror}") from None
    return results, rows


def first_games(deals: DealSource, games: int | None) -> DealSource:
    """The first ``games`` deals of ``deals`` (all of them if None)."""
    if games is None:
        return deals
    if isinstance(deals, DealRange):
        return DealRange(deals.numbers[:games])
    return DealList(dict(itertools.islice(deals, games)))


def run(args: argparse.Namespace) -> int:
    settings = Settings(rules_from(args), args.budget, args.seed, args.max_moves)
    if args.out and not args.out.endswith(OUT_SUFFIX):
        raise InputError(f"--out {args.out}: the file name must end in {OUT_SUFFIX}")
    deals = first_games(deal_source(args.deals, args.deal_file, settings.rules.decks), args.games)
    previous, rows = read_rows(args.out, settings) if args.out else (None, {})
    if previous:
        recorded = {
            ident: row["deal"] if isinstance(row.get("deal"), str) else None
            for ident, row in rows.items()
        }
        check_resumed(previous.path, recorded, deals)
    done = {ident: row for ident, row in rows.items() if ident in deals}
    tally = Tally()
    for row in done.values():
        tally.add(row)
    remaining = deals.total - len(done)
    todo = ((ident, text) for ident, text in deals if ident not in done)
    writer = ResultsWriter(previous) if previous else None
    moves_played = multiprocessing.Value("q", 0)
    progress = RunProgress(
        "autoplay", "games", deals.total, shown_on(sys.stderr, args.no_progress), sys.stderr,
        done=tally.games, counts=tally.counts,
        # Read without its lock: a worker stopped while holding it would hang the read.
        activity=Activity("moves", lambda: int(moves_played.get_obj().value)),
    )
    stopped: KeyboardInterrupt | None = None
    with sigterm_as_ctrl_c():
        try:
            with progress:
                if remaining:
                    games = play_games(todo, settings, min(args.jobs, remaining), moves_played)
                    with contextlib.closing(games):
                        for row in games:
                            with ctrl_c_held():  # a game is counted if and only if it is written
                                tally.add(row)
                                if writer:
                                    writer.write(row)
                            progress.update(tally.games, tally.counts)
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (Terminated)
            stopped = stop
        finally:
            if writer:
                writer.close()
    print(f"rules: {settings.rules.to_text()}; budget: {settings.budget} s per move; "
          f"seed: {settings.seed}; move cap: {settings.max_moves}")
    print(tally.summary())
    if stopped is not None:
        left = deals.total - tally.games
        return say_stopped("autoplay", stopped, f"{left} games", bool(args.out))
    return 0


__all__ = [
    "MOVE_CAP",
    "REPEATS",
    "Settings",
    "Tally",
    "move_seed",
    "play_game",
    "play_games",
    "run",
]
