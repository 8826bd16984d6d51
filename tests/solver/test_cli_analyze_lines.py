"""``bonanza analyze --lines``: each solved deal's winning line in its row, in move notation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bonanza.core import Deal, Game, Rules
from tests.solver.test_cli_errors import run_cli

pytestmark = pytest.mark.forks  # analyze's worker pool: not in the sanitizer run

DEALS = "18-21"  # solved deals and an unsolvable one (20) under both draw counts


@pytest.mark.parametrize("draw", ["1", "3"])
def test_each_line_replays_to_a_win(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, draw: str
) -> None:
    out = tmp_path / "run.jsonl"
    status, _, _ = run_cli(capsys, "analyze", "--deals", DEALS, "--draw", draw, "--lines",
                           "--jobs", "2", "--out", str(out), "--no-progress")
    assert status == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {row["result"] for row in rows} == {"solved", "unsolvable"}
    for row in rows:
        game = Game(Deal.parse(row["deal"]), Rules.from_dict(row["rules"]))
        for move in row["line"]:
            game.play(move)
        assert game.is_won == (row["result"] == "solved"), row["id"]
        assert bool(row["line"]) == (row["result"] == "solved")
        # The same line spelled out, and its length as a lean row gives it.
        assert [move["move"] for move in row["moves"]] == row["line"]
        assert row["line_length"] == len(row["line"])


def test_without_lines_rows_have_none(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    status, _, _ = run_cli(capsys, "analyze", "--deals", DEALS, "--jobs", "2", "--out", str(out),
                           "--no-progress")
    assert status == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert not any("line" in row or "moves" in row for row in rows)
