"""``bonanza solve``'s ``--shorten`` (``analyze``'s words) and the CPU time that
``solve`` and ``analyze`` report beside the wall-clock seconds."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bonanza.core import Deal, Rules
from bonanza.solver import solve
from tests.solver.test_cli_errors import run_cli

# Deal 3 (draw 1): the search's own line has 173 moves, shortened 170.
DEAL = "3"
STOPPED = 1.0  # seconds a search is stopped for


def _moves(capsys: pytest.CaptureFixture[str], *options: str) -> int:
    status, out, _ = run_cli(capsys, "solve", DEAL, "--json", *options)
    assert status == 0
    return len(json.loads(out)["moves"])


def test_solve_shortens_always_by_default_and_never_or_auto_on_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = Rules(thoughtful=True)
    own = len(solve(Deal.from_number(int(DEAL)), rules, shorten=False).moves)
    short = len(solve(Deal.from_number(int(DEAL)), rules, shorten=True).moves)
    assert short < own
    assert _moves(capsys) == _moves(capsys, "--shorten", "always") == short
    assert _moves(capsys, "--shorten", "never") == own
    assert _moves(capsys, "--shorten", "auto") == own  # a Klondike line under 300 moves


@pytest.mark.parametrize("value", ["sometimes", "", "ALWAYS", "yes"])
def test_a_bad_shorten_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], value: str,
) -> None:
    status, out, err = run_cli(capsys, "solve", DEAL, "--shorten", value)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "--shorten" in err and "'auto', 'always', 'never'" in err


def test_solve_reports_cpu_time_and_its_help_says_which(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(capsys, "solve", DEAL, "--json")
    assert status == 0
    data = json.loads(out)
    assert 0 <= data["cpu_seconds"] <= data["seconds"] + 0.01
    status, out, _ = run_cli(capsys, "solve", DEAL)
    assert out.splitlines()[-1].endswith(" s CPU)")
    status, out, _ = run_cli(capsys, "solve", "--help")
    assert "wall-clock" in out and "CPU time of the thread" in " ".join(out.split())


def test_cpu_seconds_leave_out_time_the_process_did_not_run() -> None:
    # A search stopped (SIGSTOP) for a second part-way: the wall clock counts
    # that second, the solving thread's CPU time does not.
    code = ("import json\nfrom bonanza.core import Deal, Rules\nfrom bonanza.solver import solve\n"
            "print('go', flush=True)\n"
            "r = solve(Deal.from_number(13403359238029943187), Rules(draw=3, thoughtful=True), "
            "node_limit=6_000_000, shorten=False)\n"
            "print(json.dumps([r.nodes, r.seconds, r.cpu_seconds]))\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "go\n"
    time.sleep(0.2)
    child.send_signal(signal.SIGSTOP)
    time.sleep(STOPPED)
    child.send_signal(signal.SIGCONT)
    out, _ = child.communicate(timeout=120)
    nodes, seconds, cpu_seconds = json.loads(out)
    assert nodes == 6_000_000
    assert cpu_seconds > 0 and seconds - cpu_seconds >= STOPPED - 0.05


def test_analyze_rows_and_summary_give_cpu_seconds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    out = tmp_path / "d.jsonl"
    status, summary, _ = run_cli(capsys, "analyze", "--deals", "1-4", "--jobs", "1",
                                 "--out", str(out), "--no-progress")
    assert status == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(0 <= row["cpu_seconds"] <= row["seconds"] + 0.01 for row in rows)
    line = next(line for line in summary.splitlines() if line.startswith("CPU seconds"))
    assert float(line.rsplit(" ", 1)[1]) == pytest.approx(
        sum(row["cpu_seconds"] for row in rows), abs=1e-3)
    status, out_help, _ = run_cli(capsys, "analyze", "--help")
    assert "cpu_seconds" in out_help and "wall-clock" in out_help
