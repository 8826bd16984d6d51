"""``bonanza analyze``: solve many deals in parallel and summarize their solvability."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from bonanza.cli.cluster import LOCAL, cluster_client, cluster_results
from bonanza.cli.deal_source import DealSource, check_resumed, deal_source, parse_deal_range
from bonanza.cli.jobs import (
    ctrl_c_held,
    say_stopped,
    sigterm_as_ctrl_c,
    worker_results,
)
from bonanza.cli.options import whole_number
from bonanza.cli.progress import RunProgress, add_progress_option, shown_on
from bonanza.cli.results_file import (
    CSV_FIELDS,
    OUT_SUFFIXES,
    RESULTS,
    TIME_PARTS,
    VERDICTS,
    Outcome,
    ResultsWriter,
    read_results,
)
from bonanza.cli.solve import (
    SHORTEN,
    add_solver_rule_options,
    memory_bytes,
    solver_rules,
)
from bonanza.cli.solver_io import InputError, moves_data, verdict_data
from bonanza.core.deal import Deal
from bonanza.core.position import Position
from bonanza.core.rules import Rules
from bonanza.solver import SolveResult, solve
from bonanza.solver.search import DEFAULT_MEMORY, Clock, Shorten
from bonanza.solver.stats import percentile, wilson_interval

DEFAULT_MEMORY_MB: Final = DEFAULT_MEMORY // 2**20  # the solver core's default (256)
Task = tuple[str, str, Rules, float | None, Clock, int | None, bool, Shorten]
"""A deal to solve: id, deal, rules, time limit and its clock, memory limit, whether to
add its line, and whether to shorten it (``solve``'s ``shorten``: ``SHORTEN``,
``--shorten``'s choices, as ``bonanza solve`` has them)."""
TIMES_HELP: Final = (
    "Times are the solver's, per deal: its search, then for a win the expansion of its "
    "line into moves and the line's shortening (rows give each part: "
    "search_seconds, expand_seconds, cut_seconds, adding up to seconds); replaying the "
    "line to check it and writing the row are not counted. These seconds are wall-clock "
    "time; cpu_seconds (rows, JSONL and CSV, and the summary) is the CPU time of the thread "
    "that ran the solver over the same span, which other work on the machine does not inflate."
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="solve many deals and report solvability",
        description="Solve a range or file of deals in parallel; summarize solvability.",
        epilog=TIMES_HELP,
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--deals", type=parse_deal_range, metavar="A-B", help="deal numbers A to B")
    source.add_argument(
        "--deal-file", metavar="F", help="one deal per line, optionally 'id<TAB>deal'"
    )
    add_solver_rule_options(parser)
    parser.add_argument(
        "--jobs", type=whole_number("the number of jobs"), default=os.cpu_count() or 1, metavar="N",
        help="worker processes (default: all cores)",
    )
    parser.add_argument(
        "--out", metavar="F", help="per-deal results, .jsonl or .csv; a rerun resumes it"
    )
    parser.add_argument(
        "--retry-unknown", action="store_true",
        help="when resuming, solve again the deals left unknown (say with a longer limit)",
    )
    parser.add_argument(
        "--lines", action="store_true",
        help="add each deal's winning line to its row: JSONL 'line' in move notation and "
        "'moves' spelled out (some 15 KB a row), in CSV the 'moves' column; without it a row "
        "keeps the verdict, nodes, times and the line's length (about 0.35 KB)",
    )
    parser.add_argument(
        "--shorten", choices=tuple(SHORTEN), default="auto",
        help="shorten each winning line (--lines, and rows' line_length) to the fewest moves "
        "through its positions: 'auto' only where it pays (Easthaven's stock dealt onto the "
        "columns, lines of over 300 moves), 'always', or 'never' (default: auto)",
    )
    parser.add_argument(
        "--cluster", metavar="ADDRESS",
        help=f"solve on Dask distributed: a scheduler's address (tcp://host:8786), or "
        f"'{LOCAL}' for a local cluster of --jobs workers; needs the cluster extra",
    )
    add_progress_option(parser)
    parser.set_defaults(func=run)


def _solve_one(task: Task) -> dict[str, Any]:
    """One deal's row: lean, or with its winning line if ``lines``."""
    ident, text, rules, time_limit, clock, memory_limit, lines, shorten = task
    deal = Deal.parse(text, rules.decks)  # checked before the run started
    start = Position.initial(deal, rules)
    result = solve(start, time_limit=time_limit, clock=clock, memory_limit=memory_limit,
                   shorten=shorten)
    row = {"id": ident, "deal": deal.id, **verdict_data(result, rules), **time_parts(result),
           "cut": result.cut, "line_length": len(result.moves)}
    if lines:
        row["moves"] = moves_data(start, result.moves)
        row["line"] = [move["move"] for move in row["moves"]]
    return row


def time_parts(result: SolveResult) -> dict[str, float]:
    """``result.seconds`` in ``TIME_PARTS``, rounded as ``seconds`` is in a row (to the
    microsecond), the search's part the rest, so that they add up to it."""
    seconds = round(result.seconds, 6)
    expand, cut = round(result.expand_seconds, 6), round(result.cut_seconds, 6)
    search = round(max(seconds - expand - cut, 0.0), 6)
    return dict(zip(TIME_PARTS, (search, expand, cut), strict=True))


class Tally:
    """Each result's count and the seconds per deal: all a summary needs, however long the run.

    Error rows (written by older versions for deals that did not parse) are
    counted apart and never in the solvable share. ``parts`` sums the
    seconds of ``TIME_PARTS`` over the deals added with them (rows of older
    versions lack them, and a resumed run reads only the result and seconds
    of the rows it skips); ``searching`` holds each such deal's search seconds.
    """

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.seconds = array("d")
        self.parts = dict.fromkeys(TIME_PARTS, 0.0)
        self.parted = 0  # deals in parts
        self.parted_seconds = 0.0  # their seconds
        self.searching = array("d")
        self.cpu = 0.0  # the CPU seconds of the deals whose rows give them
        self.cpu_deals = 0

    def add(self, result: str, seconds: float, parts: Mapping[str, Any] | None = None) -> None:
        self.counts[result] += 1
        if result in VERDICTS:
            self.seconds.append(seconds)
            if parts is not None and all(name in parts for name in TIME_PARTS):
                for name in TIME_PARTS:
                    self.parts[name] += float(parts[name] or 0)
                self.parted += 1
                self.parted_seconds += seconds
                self.searching.append(float(parts["search_seconds"] or 0))
            if parts is not None and parts.get("cpu_seconds") not in (None, ""):
                self.cpu += float(parts["cpu_seconds"])
                self.cpu_deals += 1

    @property
    def finished(self) -> int:
        """Deals solved, proven unsolvable or left unknown."""
        return sum(self.counts[verdict] for verdict in VERDICTS)

    def summary(self) -> str:
        """Solvable share with its Wilson interval, counts and time percentiles."""
        total, solved = self.finished, self.counts["solved"]
        low, high = wilson_interval(solved, total)
        lines = [
            f"deals: {total}",
            f"solvable: {solved} ({100 * solved / max(total, 1):.2f} %, "
            f"95 % Wilson interval {100 * low:.2f}-{100 * high:.2f} %)",
            f"unsolvable: {self.counts['unsolvable']}",
            f"unknown: {self.counts['unknown']}",
        ]
        if self.counts["error"]:
            lines.append(f"errors: {self.counts['error']} (not counted above)")
        times = sorted(self.seconds)
        median, p90, p99 = (percentile(times, f) for f in (0.5, 0.9, 0.99))
        longest = times[-1] if times else 0.0
        lines.append(
            f"seconds per deal: median {median:.4f}, p90 {p90:.4f}, p99 {p99:.4f}, "
            f"max {longest:.4f}"
        )
        lines.extend(self._parts_summary())
        return "\n".join(lines)

    def _parts_summary(self) -> list[str]:
        """The lines of the time in parts: searching, expanding lines, shortening them."""
        total = sum(self.seconds)
        if not self.parted:
            return [f"seconds in all (the solver's): {total:.4f}"]
        search, expand, cut = (self.parts[name] for name in TIME_PARTS)
        split = (f"searching {search:.4f} + expanding lines {expand:.4f} "
                 f"+ shortening lines {cut:.4f}")
        if self.parted == self.finished:
            spent = f"seconds in all (the solver's): {total:.4f} = {split}"
        else:
            spent = (f"seconds in all (the solver's): {total:.4f}; this run's "
                     f"{self.parted} deals: {self.parted_seconds:.4f} = {split}")
        times = sorted(self.searching)
        median, p90, p99 = (percentile(times, f) for f in (0.5, 0.9, 0.99))
        which = "" if self.parted == self.finished else " (this run's)"
        cpu_which = "" if self.cpu_deals == self.finished else f" ({self.cpu_deals} deals')"
        return [
            spent,
            f"seconds searching per deal{which}: median {median:.6f}, p90 {p90:.6f}, "
            f"p99 {p99:.6f}, max {times[-1]:.6f}",
            *([f"CPU seconds in all (the solving thread's){cpu_which}: {self.cpu:.4f}"]
              if self.cpu_deals else []),
        ]


def summarize(rows: Iterable[Mapping[str, Any]]) -> str:
    """The summary of result rows (error rows are not counted as deals)."""
    tally = Tally()
    for row in rows:
        tally.add(row["result"], float(row.get("seconds") or 0), row)
    return tally.summary()


@contextlib.contextmanager
def _solved_rows(
    tasks: Iterable[Task], jobs: int, cluster: str | None
) -> Iterator[Iterator[dict[str, Any]]]:
    """The rows of ``tasks`` as each finishes, solved by a local pool or on ``--cluster``."""
    if cluster is None:
        with worker_results(_solve_one, tasks, jobs) as rows:
            yield rows
    else:
        with cluster_client(cluster, jobs) as (client, check):
            yield cluster_results(client, _solve_one, tasks, jobs, check)


def _verdict_counts(tally: Tally) -> dict[str, int]:
    """Each verdict's count, for the progress shown."""
    return {verdict: tally.counts[verdict] for verdict in VERDICTS}


def done_outcomes(
    outcomes: Mapping[str, Outcome], deals: DealSource, retry_unknown: bool
) -> dict[str, Outcome]:
    """The outcomes read from ``--out`` that count as done for ``deals``."""
    wanted = ("solved", "unsolvable") if retry_unknown else VERDICTS
    return {
        ident: outcome
        for ident, outcome in outcomes.items()
        if outcome.result in wanted and ident in deals
    }


def pending(deals: DealSource, done: Mapping[str, Outcome]) -> Iterator[tuple[str, str]]:
    """The ``(id, deal)`` pairs not yet done, made one at a time."""
    return ((ident, text) for ident, text in deals if ident not in done)


def run(args: argparse.Namespace) -> int:
    rules = solver_rules(args)
    if args.out and not args.out.endswith(OUT_SUFFIXES):
        raise InputError(f"--out {args.out}: the file name must end in .jsonl or .csv")
    deals = deal_source(args.deals, args.deal_file, rules.decks)
    previous = read_results(args.out, rules) if args.out else None
    if previous and previous.done and "rules" not in previous.csv_fields:
        print(f"bonanza analyze: --out {args.out} records no rules (an older CSV file): "
              "its rows are taken as solved under these rules", file=sys.stderr)
    if previous:
        recorded = {
            ident: outcome.deal
            for ident, outcome in previous.done.items()
            if outcome.result in VERDICTS
        }
        check_resumed(previous.path, recorded, deals)
    done = done_outcomes(previous.done if previous else {}, deals, args.retry_unknown)
    tally = Tally()
    for outcome in done.values():
        tally.add(outcome.result, outcome.seconds)
    memory = memory_bytes(args)
    tasks = (
        (ident, text, rules, args.time_limit, args.clock, memory, args.lines,
         SHORTEN[args.shorten])
        for ident, text in pending(deals, done)
    )
    remaining = deals.total - len(done)
    writer = ResultsWriter(previous) if previous else None
    stopped: KeyboardInterrupt | None = None
    with sigterm_as_ctrl_c():
        try:
            with contextlib.ExitStack() as solving:
                rows: Iterator[dict[str, Any]] = iter(())
                if remaining:  # the pool or cluster first, so that its errors come alone
                    rows = solving.enter_context(
                        _solved_rows(tasks, min(args.jobs, remaining), args.cluster)
                    )
                progress = solving.enter_context(RunProgress(
                    "analyze", "deals", deals.total, shown_on(sys.stderr, args.no_progress),
                    sys.stderr, done=tally.finished, counts=_verdict_counts(tally)))
                for row in rows:
                    with ctrl_c_held():  # a row is counted if and only if it is written
                        tally.add(row["result"], row["seconds"], row)
                        if writer:
                            writer.write(row)
                    progress.update(tally.finished, _verdict_counts(tally))
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (Terminated)
            stopped = stop
        finally:
            if writer:
                writer.close()
    megabytes = args.memory_limit or DEFAULT_MEMORY_MB
    limit = f"{args.time_limit} s ({args.clock})" if args.time_limit else "none"
    print(f"rules: {rules.to_text()}; time limit: {limit}; "
          f"memory limit: {megabytes} MB; lines shortened: {args.shorten}")
    print(tally.summary())
    if stopped is not None:
        left = deals.total - tally.finished
        return say_stopped("analyze", stopped, f"{left} deals", bool(args.out))
    return 0


__all__ = ["CSV_FIELDS", "RESULTS", "TIME_PARTS", "Tally", "run", "summarize"]
