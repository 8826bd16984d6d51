"""``bonanza analyze``: solve many deals in parallel and summarize their solvability."""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from bonanza.cli.options import whole_number
from bonanza.cli.solve import (
    add_solver_rule_options,
    memory_bytes,
    one_line_error,
    solver_rules,
)
from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError
from bonanza.core.position import Position
from bonanza.core.rules import Rules
from bonanza.solver import solve
from bonanza.solver.report import InputError, result_data
from bonanza.solver.stats import percentile, wilson_interval

CSV_FIELDS = ("id", "deal", "result", "nodes", "seconds", "limit", "states", "moves")
RESULTS = ("solved", "unsolvable", "unknown", "error")


def deal_range(text: str) -> range:
    """``A-B`` (inclusive) or a single number, for argparse."""
    first, _, last = text.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal range like 1-10000") from None
    if low < 0 or high < low:
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal range like 1-10000")
    return range(low, high + 1)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="solve many deals and report solvability",
        description="Solve a range or file of deals in parallel; summarize solvability.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--deals", type=deal_range, metavar="A-B", help="deal numbers A to B")
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
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.error = one_line_error(f"bonanza {parser.prog.split()[-1]}")
    parser.set_defaults(func=run)


def read_deal_file(path: str) -> list[tuple[str, str]]:
    """(id, deal) pairs from a deal file; the id defaults to the line number."""
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except OSError as error:
        raise InputError(f"cannot read deal file {path}: {error.strerror}") from None
    deals = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        ident, tab, deal = line.partition("\t")
        if not tab:
            ident, deal = str(number), line
        deals.append((ident.strip(), deal.strip()))
    return deals


def _solve_one(task: tuple[str, str, Rules, float | None, int | None]) -> dict[str, Any]:
    ident, text, rules, time_limit, memory_limit = task
    try:
        deal = Deal.parse(text)
    except BonanzaError as error:
        return {"id": ident, "deal": text, "result": "error", "error": str(error)}
    start = Position.initial(deal, rules)
    result = solve(start, time_limit=time_limit, memory_limit=memory_limit)
    return {"id": ident, "deal": deal.id, **result_data(result, start)}


def _read_done(path: str) -> dict[str, dict[str, Any]]:
    """Rows already in an output file, by id."""
    done: dict[str, dict[str, Any]] = {}
    if not os.path.exists(path):
        return done
    with open(path, encoding="utf-8", newline="") as file:
        if path.endswith(".csv"):
            for row in csv.DictReader(file):
                try:
                    seconds = float(row.get("seconds") or "")
                except ValueError:
                    continue  # a line cut short by an interruption
                if row.get("id") and row.get("result") in RESULTS:
                    done[row["id"]] = {**row, "seconds": seconds}
        else:
            for line in file:
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by an interruption
                if isinstance(row, dict) and "id" in row and row.get("result") in RESULTS:
                    done[str(row["id"])] = row
    return done


class _Writer:
    """Appends one row per finished deal and flushes it at once."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.file: TextIO | None = None
        self.csv: Any = None
        if path:
            fresh = not os.path.exists(path) or os.path.getsize(path) == 0
            self.file = open(path, "a", encoding="utf-8", newline="")  # noqa: SIM115
            if path.endswith(".csv"):
                self.csv = csv.DictWriter(self.file, CSV_FIELDS, extrasaction="ignore")
                if fresh:
                    self.csv.writeheader()

    def write(self, row: dict[str, Any]) -> None:
        if self.file is None:
            return
        if self.csv is not None:
            flat = dict(row)
            flat["moves"] = " ".join(move["move"] for move in row.get("moves", []))
            self.csv.writerow(flat)
        else:
            self.file.write(json.dumps(row) + "\n")
        self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def _progress(done: int, total: int, counts: dict[str, int], stream: TextIO) -> None:
    width = 30
    filled = width * done // total if total else width
    bar = "#" * filled + "-" * (width - filled)
    summary = " ".join(f"{key} {counts.get(key, 0)}" for key in ("solved", "unsolvable", "unknown"))
    stream.write(f"\r[{bar}] {done}/{total} {summary}")
    stream.flush()


def summarize(rows: list[dict[str, Any]]) -> str:
    """Solvable share with its Wilson interval, counts and time percentiles."""
    counts = {key: sum(row["result"] == key for row in rows) for key in
              ("solved", "unsolvable", "unknown", "error")}
    total = len(rows)
    low, high = wilson_interval(counts["solved"], total)
    times = sorted(float(row.get("seconds") or 0) for row in rows)
    lines = [
        f"deals: {total}",
        f"solvable: {counts['solved']} ({100 * counts['solved'] / max(total, 1):.2f} %, "
        f"95 % Wilson interval {100 * low:.2f}-{100 * high:.2f} %)",
        f"unsolvable: {counts['unsolvable']}",
        f"unknown: {counts['unknown']}",
    ]
    if counts["error"]:
        lines.append(f"errors: {counts['error']}")
    median, p90, p99 = (percentile(times, f) for f in (0.5, 0.9, 0.99))
    longest = times[-1] if times else 0.0
    lines.append(
        f"seconds per deal: median {median:.4f}, p90 {p90:.4f}, p99 {p99:.4f}, max {longest:.4f}"
    )
    return "\n".join(lines)


def _results(iterator: Any) -> Iterator[dict[str, Any]]:
    """The pool's results, waking every half second so that Ctrl-C is seen at once."""
    while True:
        try:
            row: dict[str, Any] = iterator.next(timeout=0.5)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return
        yield row


def _tasks(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    if args.deals is not None:
        for number in args.deals:
            yield str(number), str(number)
    else:
        yield from read_deal_file(args.deal_file)


def run(args: argparse.Namespace) -> int:
    rules = solver_rules(args)
    if args.out and not args.out.endswith((".jsonl", ".csv")):
        raise InputError(f"--out {args.out}: the file name must end in .jsonl or .csv")
    tasks = list(_tasks(args))
    done = _read_done(args.out) if args.out else {}
    if args.retry_unknown:
        done = {ident: row for ident, row in done.items() if row["result"] != "unknown"}
    rows = [done[ident] for ident, _ in tasks if ident in done]
    memory = memory_bytes(args)
    todo = [(ident, text, rules, args.time_limit, memory) for ident, text in tasks
            if ident not in done]
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["result"]] = counts.get(row["result"], 0) + 1
    writer = _Writer(args.out)
    show = not args.no_progress
    interrupted = False
    try:
        with multiprocessing.Pool(min(args.jobs, max(len(todo), 1))) as pool:
            if show:
                _progress(len(rows), len(tasks), counts, sys.stderr)
            for row in _results(pool.imap_unordered(_solve_one, todo)):
                rows.append(row)
                counts[row["result"]] = counts.get(row["result"], 0) + 1
                writer.write(row)
                if show:
                    _progress(len(rows), len(tasks), counts, sys.stderr)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        writer.close()
        if show:
            sys.stderr.write("\n")
    memory = f"{args.memory_limit} MB" if args.memory_limit else "1024 MB"
    print(f"rules: {rules.to_text()}; time limit: {args.time_limit or 'none'}; "
          f"memory limit: {memory}")
    print(summarize(rows))
    if interrupted:
        print(f"interrupted: {len(tasks) - len(rows)} deals left; rerun to resume")
        return 130
    return 0


__all__ = ["run", "summarize"]
