"""``benchmarks/wide_check.py`` compares the C generic search with the Python one
and with the Klondike core, and says so when they disagree."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.benchmark_script import BENCHMARKS, load


def test_it_counts_its_comparisons_and_finds_no_disagreement() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "wide_check.py"), "--positions", "4", "--nodes", "2000"],
        capture_output=True, text=True, timeout=120, check=True, cwd="/",
    )  # fmt: skip
    assert done.stdout.rstrip().endswith("disagreements: 0"), done.stdout
    compared = sum(map(int, re.findall(r"^plain = python: \w+: (\d+)$", done.stdout, re.M)))
    assert compared == 4 * 20  # every position of the 20 rule sets
    assert re.search(r"^macros = core: unsolvable: [1-9]", done.stdout, re.M), done.stdout
    assert re.search(r"^solve = python: solved: [1-9]", done.stdout, re.M), done.stdout


def test_a_disagreement_is_printed_and_fails_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    check = load("wide_check", "wide_check_under_test")
    monkeypatch.setattr(check, "_core_verdict", lambda position: "unsolvable")
    assert check.main(["--positions", "2", "--nodes", "2000"]) == 1
    out = capsys.readouterr().out
    assert "DISAGREE (" in out and not out.rstrip().endswith("disagreements: 0")
