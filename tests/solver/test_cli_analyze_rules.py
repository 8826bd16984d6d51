"""``bonanza analyze --out F``: a file solved under other rules is refused, not mixed in
(issue 31, A2); CSV rows record their rules, and older CSV files still resume."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bonanza.cli import EXIT_BAD_INPUT
from bonanza.cli.report import read_rule_sets
from bonanza.cli.results_file import CSV_FIELDS, UNRULED_CSV_FIELDS
from bonanza.core import Rules
from bonanza.core.rules import Scoring
from tests.solver.test_cli_errors import assert_one_line_error, run_cli

DEALS = "2-4"
MORE_DEALS = "2-6"


def analyze(
    capsys: pytest.CaptureFixture[str], out_file: Path, deals: str, *rules: str
) -> tuple[int, str, str]:
    """``bonanza analyze --deals DEALS RULES`` on one job into ``out_file``."""
    return run_cli(capsys, "analyze", "--deals", deals, *rules, "--jobs", "1",
                   "--out", str(out_file), "--no-progress")


@pytest.mark.parametrize("name", ["d3.jsonl", "d3.csv"])
def test_a_file_solved_under_other_rules_is_refused_and_left_as_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    out_file = tmp_path / name
    assert analyze(capsys, out_file, DEALS, "--draw", "3")[0] == 0
    before = out_file.read_bytes()
    status, out, err = analyze(capsys, out_file, MORE_DEALS, "--draw", "1")
    assert (status, out) == (EXIT_BAD_INPUT, "")
    first_row = "line 2" if name.endswith(".csv") else "line 1"
    assert_one_line_error(err, "analyze", str(out_file), first_row, "draw=3, not draw=1")
    assert out_file.read_bytes() == before
    status, out, err = analyze(capsys, out_file, MORE_DEALS, "--draw", "3", "--passes", "1")
    assert status == EXIT_BAD_INPUT and "passes=unlimited, not passes=1" in err
    # Under its own rules it resumes, and every row records them.
    status, out, _ = analyze(capsys, out_file, MORE_DEALS, "--draw", "3")
    assert status == 0 and "deals: 5\n" in out
    assert {rules for _, rules in recorded_rules(out_file)} == {Rules(draw=3, thoughtful=True)}


def recorded_rules(out_file: Path) -> list[tuple[str, Rules]]:
    """Each row's id and the rules it records."""
    if out_file.suffix == ".csv":
        with out_file.open(newline="") as file:
            rows = list(csv.DictReader(file))
        return [(row["id"], Rules.from_text(row["rules"])) for row in rows]
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    return [(row["id"], Rules.from_dict(row["rules"])) for row in rows]


def test_the_scoring_is_no_reason_to_refuse(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A verdict is the same whatever the scoring (report merges them too)."""
    out_file = tmp_path / "run.jsonl"
    row = {"id": "2", "deal": "2", "result": "solved", "moves": [], "nodes": 1, "seconds": 0.1,
           "limit": None, "states": 1,
           "rules": Rules(thoughtful=True, scoring=Scoring.TIMED).to_dict()}
    out_file.write_text(json.dumps(row) + "\n")
    status, out, err = analyze(capsys, out_file, "2-3")
    assert (status, err) == (0, "") and "deals: 2\n" in out


def test_a_row_whose_rules_cannot_be_read_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "run.jsonl"
    row = {"id": "2", "deal": "2", "result": "solved", "seconds": 0.1, "rules": {"draw": 0}}
    out_file.write_text(json.dumps(row) + "\n")
    status, _, err = analyze(capsys, out_file, "2-3")
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "analyze", str(out_file), "line 1", "draw")


def test_an_older_csv_file_without_rules_resumes_in_its_own_columns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "old.csv"
    assert analyze(capsys, out_file, DEALS, "--draw", "3")[0] == 0
    with out_file.open(newline="") as file:  # as an older Bonanza wrote it
        rows = list(csv.DictReader(file))
    with out_file.open("w", newline="") as file:
        writer = csv.DictWriter(file, UNRULED_CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    status, out, err = analyze(capsys, out_file, MORE_DEALS, "--draw", "3")
    assert status == 0 and "deals: 5\n" in out
    assert err == (f"bonanza analyze: --out {out_file} records no rules (an older CSV file): "
                   "its rows are taken as solved under these rules\n")
    with out_file.open(newline="") as file:
        lines = list(csv.reader(file))
    assert lines[0] == list(UNRULED_CSV_FIELDS)
    assert len(lines) == 6 and all(len(line) == len(UNRULED_CSV_FIELDS) for line in lines)
    (rule_set,) = read_rule_sets([str(out_file)])
    assert rule_set.name == "old.csv (rules not recorded)" and rule_set.rules is None


def test_report_names_a_csv_files_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "d3.csv"
    assert analyze(capsys, out_file, DEALS, "--draw", "3")[0] == 0
    with out_file.open(newline="") as file:
        assert next(csv.reader(file)) == list(CSV_FIELDS)
    (rule_set,) = read_rule_sets([str(out_file)])
    assert rule_set.rules == Rules(draw=3, thoughtful=True)
    assert "draw 3" in rule_set.name
