"""``bonanza analyze``'s rows: lean by default (the verdict, nodes, times and the winning
line's length, about a third of a kilobyte), the winning line only with ``--lines``;
files of older rows, which always carried the line spelled out, resume as before; CSV
rows give the time in parts as JSONL rows do."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bonanza.cli.results_file import CSV_FIELDS, TIME_PARTS, UNTIMED_CSV_FIELDS
from bonanza.core import Deal, Game, Rules
from tests.solver.test_cli_errors import run_cli

pytestmark = pytest.mark.forks  # analyze's worker pool: not in the sanitizer run

DEALS = "18-21"  # solved deals and an unsolvable one (20)
MORE_DEALS = "18-23"
LEAN_FIELDS = {"id", "deal", "result", "nodes", "seconds", "cpu_seconds", "limit", "states",
               "rules", *TIME_PARTS, "cut", "line_length"}
LEAN_ROW_BYTES = 500  # a lean row's most: rows with the line spelled out took 10-16 KB
ROUNDING = 2e-6  # each time is rounded to the microsecond


def analyze(capsys: pytest.CaptureFixture[str], out: Path, deals: str, *options: str) -> str:
    """``bonanza analyze`` into ``out``: its summary."""
    status, summary, _ = run_cli(capsys, "analyze", "--deals", deals, "--jobs", "2",
                                 "--out", str(out), "--no-progress", *options)
    assert status == 0
    return summary


def jsonl_rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def csv_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(newline="") as file:
        reader = csv.DictReader(file)
        return list(reader.fieldnames or ()), list(reader)


def test_a_row_keeps_the_verdict_nodes_and_times_and_no_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run.jsonl"
    analyze(capsys, out, DEALS)
    lines = out.read_bytes().splitlines()
    assert max(len(line) for line in lines) < LEAN_ROW_BYTES
    rows = jsonl_rows(out)
    assert {row["result"] for row in rows} == {"solved", "unsolvable"}
    for row in rows:
        assert set(row) == LEAN_FIELDS
        assert (row["line_length"] > 0) == (row["result"] == "solved")  # type: ignore[operator]


def test_a_lean_run_resumes_a_file_of_older_rows_with_whole_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run.jsonl"
    analyze(capsys, out, DEALS, "--lines")
    older = [{key: value for key, value in row.items() if key not in ("line", "line_length")}
             for row in jsonl_rows(out)]  # as rows were written before they were lean
    assert all(isinstance(row["moves"], list) for row in older)
    out.write_text("".join(json.dumps(row) + "\n" for row in older))
    before = out.read_bytes()
    summary = analyze(capsys, out, MORE_DEALS)
    assert "deals: 6\n" in summary
    assert out.read_bytes().startswith(before)  # the older rows stay as they were
    rows = jsonl_rows(out)
    assert [row["id"] for row in rows[len(older):]] in (["22", "23"], ["23", "22"])
    assert all(set(row) == LEAN_FIELDS for row in rows[len(older):])


def test_csv_rows_give_the_time_in_parts_and_the_line_only_with_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lean, whole = tmp_path / "lean.csv", tmp_path / "whole.csv"
    analyze(capsys, lean, DEALS)
    analyze(capsys, whole, DEALS, "--lines")
    fields, rows = csv_rows(lean)
    assert fields == list(CSV_FIELDS)
    assert {"search_seconds", "expand_seconds", "cut_seconds", "cut"} <= set(fields)
    for row in rows:
        parts = sum(float(row[name]) for name in TIME_PARTS)
        assert abs(parts - float(row["seconds"])) <= ROUNDING, row
        assert int(row["cut"]) >= 0 and row["moves"] == ""
    lines = {row["id"]: row for row in csv_rows(whole)[1]}
    for row in rows:
        game = Game(Deal.parse(row["deal"]), Rules.from_text(row["rules"]))
        for move in lines[row["id"]]["moves"].split():
            game.play(move)
        assert game.is_won == (row["result"] == "solved")
        assert len(lines[row["id"]]["moves"].split()) == int(row["line_length"])


def test_an_older_csv_file_without_the_time_in_parts_resumes_in_its_own_columns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "old.csv"
    analyze(capsys, out, DEALS)
    _, rows = csv_rows(out)
    with out.open("w", newline="") as file:  # as Bonanza wrote it before
        writer = csv.DictWriter(file, UNTIMED_CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    status, summary, err = run_cli(capsys, "analyze", "--deals", MORE_DEALS, "--jobs", "1",
                                   "--out", str(out), "--no-progress")
    assert (status, err) == (0, "") and "deals: 6\n" in summary
    fields, rows = csv_rows(out)
    assert fields == list(UNTIMED_CSV_FIELDS) and len(rows) == 6
    assert all(None not in row and len(row) == len(UNTIMED_CSV_FIELDS) for row in rows)
