"""``bonanza analyze``'s times in parts and its ``--shorten``.

Each JSONL row gives the solver's ``seconds`` in parts: ``search_seconds``
(the search's own), ``expand_seconds`` (the winning line's expansion into
moves) and ``cut_seconds`` (its shortening; ``cut`` the moves it took out),
adding up to ``seconds``; the summary adds them up over the run and gives the
search's own seconds per deal. ``--shorten`` changes nothing but the lines.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bonanza.cli.analyze import TIME_PARTS, summarize
from bonanza.cli.results_file import CPULESS_CSV_FIELDS, CSV_FIELDS
from bonanza.core import Deal, Game, Rules
from tests.solver.test_cli_errors import run_cli

pytestmark = pytest.mark.forks  # analyze's worker pool: not in the sanitizer run

DEALS = "13-24"  # draw 1: solved deals and an unsolvable one (20), each in under a second
SPLIT = re.compile(
    r"seconds in all \(the solver's\): (?P<total>[\d.]+) = searching (?P<search>[\d.]+) "
    r"\+ expanding lines (?P<expand>[\d.]+) \+ shortening lines (?P<cut>[\d.]+)\n"
)


def _analyze(capsys: pytest.CaptureFixture[str], out: Path, *options: str) -> str:
    status, stdout, _ = run_cli(capsys, "analyze", "--deals", DEALS, "--jobs", "2", "--out",
                                str(out), "--no-progress", *options)
    assert status == 0
    return stdout


def _rows(out: Path) -> dict[str, dict[str, Any]]:
    return {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}


def test_rows_give_the_time_in_parts_and_the_summary_adds_them_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run.jsonl"
    summary = _analyze(capsys, out)
    rows = _rows(out)
    assert {row["result"] for row in rows.values()} == {"solved", "unsolvable"}
    for row in rows.values():
        parts = [row[name] for name in TIME_PARTS]
        assert min(parts) >= 0 and isinstance(row["cut"], int)
        assert sum(parts) == pytest.approx(row["seconds"], abs=2e-6), row["id"]
        if row["result"] == "solved":
            assert row["expand_seconds"] > 0
        else:
            assert row["expand_seconds"] == row["cut_seconds"] == row["cut"] == 0
    found = SPLIT.search(summary)
    assert found, summary
    total, search, expand, cut = (float(found[name]) for name in ("total", "search", "expand",
                                                                  "cut"))
    assert search + expand + cut == pytest.approx(total, abs=3e-4)  # (each to 4 places)
    assert total == pytest.approx(sum(row["seconds"] for row in rows.values()), abs=1e-4)
    assert search == pytest.approx(sum(row["search_seconds"] for row in rows.values()), abs=1e-4)
    assert "seconds searching per deal: median " in summary
    assert "lines shortened: auto" in summary
    assert summary == summarize_with_header(summary, rows)


def summarize_with_header(summary: str, rows: dict[str, dict[str, Any]]) -> str:
    """``summary`` with its summary part made again from the rows by ``summarize``."""
    header = summary.split("\n", 1)[0]
    return f"{header}\n{summarize(rows.values())}\n"


def test_shortening_changes_nothing_but_the_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Deal by deal the same verdicts and nodes with ``--shorten`` always, never
    and auto; every line wins; none is longer than the search's own (never),
    and auto's are the search's own for these Klondike deals (short lines)."""
    runs = {}
    for when in ("always", "never", "auto"):
        out = tmp_path / f"{when}.jsonl"
        _analyze(capsys, out, "--shorten", when, "--lines")
        runs[when] = _rows(out)
    always, never, auto = runs["always"], runs["never"], runs["auto"]
    assert always.keys() == never.keys() == auto.keys()
    for ident, row in never.items():
        for run in runs.values():
            assert (run[ident]["result"], run[ident]["nodes"]) == (row["result"], row["nodes"])
            game = Game(Deal.parse(run[ident]["deal"]), Rules.from_dict(run[ident]["rules"]))
            for move in run[ident]["line"]:
                game.play(move)
            assert game.is_won == (row["result"] == "solved"), ident
        assert len(always[ident]["line"]) + always[ident]["cut"] == len(row["line"])
        assert row["cut"] == row["cut_seconds"] == 0
        assert auto[ident]["line"] == row["line"]
    assert sum(row["cut"] for row in always.values()) > 0


def test_easthaven_lines_are_shortened_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run.jsonl"
    _analyze(capsys, out, "--rules", "easthaven", "--time-limit", "10")
    rows = _rows(out)
    assert sum(row["cut"] for row in rows.values()) > 0
    assert all(row["cut_seconds"] > 0 for row in rows.values() if row["cut"])


def test_a_resumed_run_splits_the_time_of_its_own_deals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run.jsonl"
    run_cli(capsys, "analyze", "--deals", "13-16", "--jobs", "1", "--out", str(out),
            "--no-progress")
    summary = _analyze(capsys, out)
    assert "deals: 12\n" in summary
    assert re.search(r"seconds in all \(the solver's\): [\d.]+; this run's 8 deals: [\d.]+ = "
                     r"searching [\d.]+ \+ expanding lines", summary), summary
    assert "seconds searching per deal (this run's): median" in summary


def test_rows_of_older_versions_have_no_parts() -> None:
    summary = summarize([{"id": "1", "result": "solved", "seconds": 0.5},
                         {"id": "2", "result": "unsolvable", "seconds": 0.25}])
    assert summary.endswith("seconds in all (the solver's): 0.7500")


def test_csv_rows_keep_their_columns(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "run.csv"
    summary = _analyze(capsys, out)
    assert SPLIT.search(summary)
    with out.open(newline="") as file:
        reader = csv.DictReader(file)
        rows = list(reader)
        assert tuple(reader.fieldnames or ()) == CSV_FIELDS
    # The CPU time, as JSONL rows give it: a number, never more than a little
    # over the wall clock's seconds (a thread's CPU time cannot outrun them).
    assert CSV_FIELDS[-1] == "cpu_seconds" and len(rows) == 12
    for row in rows:
        assert 0 <= float(row["cpu_seconds"]) <= float(row["seconds"]) + 1e-3, row["id"]
    cpu = re.search(r"CPU seconds in all[^\d]*([\d.]+)", summary)
    assert cpu and float(cpu[1]) == pytest.approx(
        sum(float(row["cpu_seconds"]) for row in rows), abs=1e-3)


def test_a_csv_file_without_the_cpu_column_is_resumed_in_its_own(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run.csv"
    out.write_text(",".join(CPULESS_CSV_FIELDS) + "\r\n", encoding="utf-8")
    _analyze(capsys, out)
    with out.open(newline="") as file:
        reader = csv.DictReader(file)
        rows = list(reader)
    assert tuple(reader.fieldnames or ()) == CPULESS_CSV_FIELDS
    assert len(rows) == 12 and all(None not in row for row in rows)


def test_the_help_says_what_each_time_covers(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "analyze", "--help")
    assert status == 0
    words = " ".join(out.split())
    for part in ("search_seconds", "expand_seconds", "cut_seconds", "--shorten"):
        assert part in words
