"""benchmarks/play_strength_compare.py: two engines' runs, compared deal by deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.benchmark_script import load

COMPARE = load("play_strength_compare", "play_strength_compare")


def _write(path: Path, results: dict[str, bool]) -> str:
    rows = [{"deal": deal, "won": won, "end": "won" if won else "no move", "moves": 100}
            for deal, won in results.items()]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows) + '{"deal": "cut')
    return str(path)


def test_mcnemar_matches_the_binomial_tail() -> None:
    assert COMPARE.mcnemar_p(0, 0) == 1.0
    assert COMPARE.mcnemar_p(3, 3) == 1.0
    assert COMPARE.mcnemar_p(0, 6) == pytest.approx(2 / 64)  # 2 * (1/2)^6
    assert COMPARE.mcnemar_p(1, 9) == pytest.approx(2 * 11 / 1024)
    assert COMPARE.mcnemar_p(9, 1) == COMPARE.mcnemar_p(1, 9)


def test_only_common_deals_count_and_discordant_ones_decide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _write(tmp_path / "old.jsonl", {"1": True, "2": False, "3": False, "4": True})
    new = _write(tmp_path / "new.jsonl", {"2": True, "3": True, "4": True, "9": False})
    assert COMPARE.main([old, new]) == 0
    out = capsys.readouterr().out
    assert "deals in both: 3" in out
    assert "first: won 1 " in out and "second: won 3 " in out
    assert "by the first only: 0; by the second only: 2" in out


def test_a_missing_file_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert COMPARE.main([str(tmp_path / "none.jsonl"), str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No such file" in err
