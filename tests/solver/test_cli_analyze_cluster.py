"""``bonanza analyze --cluster``: the same rows as a local run, resumable, stopped by Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pytest

from bonanza.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED
from bonanza.cli.analyze import TIME_PARTS
from tests.solver.test_cli_errors import (
    STOP_SECONDS,
    assert_one_line_error,
    bonanza,
    run_cli,
)

pytestmark = pytest.mark.forks  # analyze's worker pool: not in the sanitizer run

DEALS = "13-24"  # draw 1: solved deals and an unsolvable one (20), each in under a second
START_SECONDS = 60  # for a local cluster to start and solve its first deals on a loaded machine
FIRST_ROWS = 3  # rows written before the run is interrupted
RESUMED_DEALS = 4  # deals past the interrupted run's last, for the rerun to solve
UNREACHABLE_WAIT = 0.5  # seconds to wait for a scheduler that is not there


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a cluster of two worker threads in this process (quick to start)."""
    with distributed.LocalCluster(  # type: ignore[no-untyped-call]  # distributed leaves its __init__ unannotated
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def rows_of(path: Path) -> dict[str, dict[str, Any]]:
    """Each row of a JSONL results file by id, without its times (which vary run to run)."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    by_id = {row.pop("id"): row for row in rows}
    assert len(by_id) == len(rows), "a deal was written twice"
    for row in by_id.values():
        for name in ("seconds", "cpu_seconds", *TIME_PARTS):
            row.pop(name)
    return by_id


def analyze(capsys: pytest.CaptureFixture[str], out: Path, *options: str) -> tuple[int, str]:
    status, stdout, _ = run_cli(capsys, "analyze", "--deals", DEALS, "--out", str(out),
                                "--no-progress", *options)
    return status, stdout


def test_cluster_rows_match_a_local_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, scheduler: str
) -> None:
    status, local_summary = analyze(capsys, tmp_path / "local.jsonl", "--jobs", "2")
    assert status == 0
    status, cluster_summary = analyze(capsys, tmp_path / "cluster.jsonl", "--cluster", scheduler)
    assert status == 0
    local = rows_of(tmp_path / "local.jsonl")
    assert rows_of(tmp_path / "cluster.jsonl") == local
    assert {row["result"] for row in local.values()} == {"solved", "unsolvable"}
    counts = [line for line in local_summary.splitlines()
              if not line.startswith(("seconds", "CPU seconds"))]
    assert all(line in cluster_summary for line in counts)


def test_a_local_cluster_stops_on_ctrl_c_and_resumes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, scheduler: str
) -> None:
    out = tmp_path / "run.jsonl"
    with bonanza("analyze", "--deals", "1-100000", "--cluster", "local", "--jobs", "2",
                 "--out", str(out), "--no-progress") as process:
        deadline = time.monotonic() + START_SECONDS
        while not (out.exists() and out.read_text().count("\n") >= FIRST_ROWS):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        sent = time.monotonic()
        _, err = process.communicate(timeout=STOP_SECONDS)
        stopped = time.monotonic() - sent
    assert process.returncode == EXIT_INTERRUPTED and stopped < STOP_SECONDS
    assert_one_line_error(err, "analyze", "interrupted", "rerun to resume")
    with pytest.raises(ProcessLookupError):  # its workers are gone with it
        os.killpg(process.pid, 0)
    first = rows_of(out)
    assert len(first) >= FIRST_ROWS

    last = max(map(int, first)) + RESUMED_DEALS
    status, _, _ = run_cli(capsys, "analyze", "--deals", f"1-{last}", "--out", str(out),
                           "--no-progress", "--cluster", scheduler)
    assert status == 0
    resumed = rows_of(out)  # each deal once: the rerun solved only those left
    new = {ident: row for ident, row in resumed.items() if ident not in first}
    assert set(resumed) >= set(map(str, range(1, last + 1))) and len(new) >= RESUMED_DEALS
    deal_file = tmp_path / "new.txt"
    deal_file.write_text("".join(f"{ident}\t{ident}\n" for ident in new))
    status, _, _ = run_cli(capsys, "analyze", "--deal-file", str(deal_file), "--jobs", "2",
                           "--out", str(tmp_path / "local.jsonl"), "--no-progress")
    assert status == 0 and rows_of(tmp_path / "local.jsonl") == new


def test_an_unreachable_cluster_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bonanza.cli.cluster.CONNECT_SECONDS", UNREACHABLE_WAIT)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{free.getsockname()[1]}"
    status, _, err = run_cli(capsys, "analyze", "--deals", DEALS, "--cluster", address)
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "analyze", address, "no Dask scheduler")
    status, _, err = run_cli(capsys, "analyze", "--deals", DEALS, "--cluster", "nowhere")
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "analyze", "nowhere")
    assert not list(tmp_path.iterdir())


def test_without_dask_the_error_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    status, _, err = run_cli(capsys, "analyze", "--deals", DEALS, "--cluster", "local")
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "analyze", "pip install -e '.[cluster]'", ".whl[cluster]")
