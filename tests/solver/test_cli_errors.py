"""``bonanza solve`` and ``bonanza analyze`` on bad input, closed pipes and Ctrl-C.

Whatever goes wrong, the user sees one line ``bonanza COMMAND: message`` on
stderr and no traceback, and no result already written is lost.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bonanza.cli import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_INTERNAL_ERROR,
    EXIT_INTERRUPTED,
    main,
)
from bonanza.cli.analyze import pending, summarize
from bonanza.cli.deal_source import DealRange
from bonanza.cli.results_file import CSV_FIELDS, Outcome
from bonanza.core import Deal, Game, Rules
from bonanza.core.deal import MAX_DEAL_NUMBER
from bonanza.solver import SolverError

# A draw-3 deal the solver needs several seconds for: still searching when interrupted.
SLOW_DEAL = "13403359238029943187"
SETTLE_SECONDS = 1.5  # time for the process to start and get deep into the search
STOP_SECONDS = 2.0  # how soon it must end after Ctrl-C
ANALYZE_SETTLE_SECONDS = 3.0  # analyze starts a worker process, which imports the solver
ANALYZE_STOP_SECONDS = 4.0  # ... and must end it too: under a loaded CI, 2 s once fell short
BINARY_CONTENTS = {
    "random bytes": bytes(range(256)) * 4,
    "NUL bytes": b"7\x00\x00\x00\n",
    "invalid UTF-8": b"7\n\xff\xfe not text\n",
}


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``bonanza ARGV`` run in this process."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # argparse's errors
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def default_sigint() -> None:
    """Let the child take Ctrl-C as from a terminal, even where the test run
    itself was started in the background (which ignores SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def bonanza(*argv: str, stdout: int = subprocess.PIPE) -> Iterator[subprocess.Popen[str]]:
    """``python -m bonanza ARGV`` as its own process group, as a terminal starts it;
    killed on leaving if a failed test left it running."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bonanza", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,
        preexec_fn=default_sigint,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def assert_one_line_error(err: str, command: str, *words: str) -> None:
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(f"bonanza {command}: "), err
    for word in words:
        assert word in err, (word, err)


@pytest.mark.parametrize("content", BINARY_CONTENTS.values(), ids=BINARY_CONTENTS.keys())
def test_solve_refuses_a_binary_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "deal.bin"
    path.write_bytes(content)
    status, out, err = run_cli(capsys, "solve", str(path))
    assert status == EXIT_BAD_INPUT and out == ""
    assert_one_line_error(err, "solve", str(path), "not a text file")


def test_solve_refuses_a_deeply_nested_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    status, _, err = run_cli(capsys, "solve", str(path))
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "solve", str(path))


def test_solve_names_the_file_of_a_bad_saved_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.txt"
    path.write_text("not a game\n")
    status, _, err = run_cli(capsys, "solve", str(path))
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "solve", str(path), "saved")


@pytest.mark.parametrize("content", BINARY_CONTENTS.values(), ids=BINARY_CONTENTS.keys())
def test_analyze_refuses_a_binary_deal_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "deals.bin"
    path.write_bytes(content)
    out_file = tmp_path / "run.jsonl"
    status, _, err = run_cli(capsys, "analyze", "--deal-file", str(path), "--out",
                             str(out_file), "--no-progress")
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "analyze", str(path), "not a text file", "line ")
    assert not out_file.exists()


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("run.jsonl", BINARY_CONTENTS["random bytes"]),
        ("run.jsonl", BINARY_CONTENTS["invalid UTF-8"]),
        ("run.jsonl", b"my notes, not results\n"),
        ("run.csv", BINARY_CONTENTS["random bytes"]),
        ("run.csv", b"id,deal\n1,1\n"),
    ],
)
def test_analyze_refuses_an_out_file_that_is_not_results_and_leaves_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, content: bytes
) -> None:
    out_file = tmp_path / name
    out_file.write_bytes(content)
    status, _, err = run_cli(capsys, "analyze", "--deals", "1-2", "--jobs", "1", "--out",
                             str(out_file), "--no-progress")
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "analyze", str(out_file), "line 1")
    assert out_file.read_bytes() == content


@pytest.mark.parametrize("where", ["missing/run.jsonl", "folder.jsonl"])
def test_analyze_refuses_an_out_file_it_cannot_open(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    (tmp_path / "folder.jsonl").mkdir()
    out_file = tmp_path / where
    status, out, err = run_cli(capsys, "analyze", "--deals", "1-2", "--jobs", "1", "--out",
                               str(out_file), "--no-progress")
    assert status == EXIT_BAD_INPUT and out == ""
    assert_one_line_error(err, "analyze", str(out_file))


@pytest.mark.parametrize(
    "argv",
    [["solve", "7"], ["analyze", "--deals", "1-2", "--jobs", "1", "--no-progress"]],
    ids=["solve", "analyze"],
)
def test_a_closed_pipe_ends_quietly(argv: list[str]) -> None:
    # The reader is gone before anything is written (as once `head -c 10` has
    # read its bytes), so every write meets a broken pipe.
    reader, writer = os.pipe()
    os.close(reader)
    with bonanza(*argv, stdout=writer) as process:
        os.close(writer)
        _, err = process.communicate(timeout=30)
    assert err == ""
    assert process.returncode == EXIT_BROKEN_PIPE


def test_a_huge_range_is_planned_at_once() -> None:
    started = time.perf_counter()
    deals = DealRange(range(1, 10**15))
    done = {"1": Outcome("solved", 0.1), "3": Outcome("unknown", 1.0)}
    todo = pending(deals, done)
    assert [next(todo), next(todo), next(todo)] == [("2", "2"), ("4", "4"), ("5", "5")]
    assert deals.total == 10**15 - 1
    assert time.perf_counter() - started < 1
    assert "999999999999999" in deals and "0" not in deals and "05" not in deals
    assert DealRange(range(0, MAX_DEAL_NUMBER + 1)).total == 2**64  # len() would overflow


def test_analyze_streams_a_huge_range(tmp_path: Path) -> None:
    out_file = tmp_path / "run.jsonl"
    with bonanza("analyze", "--deals", "1-100000000000000", "--jobs", "1", "--out",
                 str(out_file), "--no-progress") as process:
        deadline = time.monotonic() + 10
        while not (out_file.exists() and out_file.read_text().count("\n") >= 2):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=STOP_SECONDS)
    assert process.returncode == EXIT_INTERRUPTED
    assert_one_line_error(err, "analyze", "interrupted", "99999999999", "rerun to resume")
    finished = int(out.split("deals: ")[1].split()[0])
    assert finished == len(out_file.read_text().splitlines()) >= 2


@pytest.mark.parametrize(
    ("deals", "words"),
    [
        ("1-", ["'1-'", "last deal"]),
        (f"1-{MAX_DEAL_NUMBER + 1}", [str(MAX_DEAL_NUMBER)]),
        (str(MAX_DEAL_NUMBER + 1), [str(MAX_DEAL_NUMBER)]),
        ("5-3", ["'5-3'"]),
        ("x", ["'x'"]),
        ("\uff11-\uff13", ["deal range"]),  # fullwidth digits, which `deal` refuses too
        ("+1-3", ["deal range"]),
        ("1_0-20", ["deal range"]),
    ],
)
def test_analyze_refuses_bad_deal_ranges(
    capsys: pytest.CaptureFixture[str], deals: str, words: list[str]
) -> None:
    status, out, err = run_cli(capsys, "analyze", "--deals", deals, "--no-progress")
    assert status == EXIT_BAD_INPUT and out == ""
    assert_one_line_error(err, "analyze", *words)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", ["no deals in", "empty"]),
        ("# comments only\n\n   \n# and blank lines\n", ["no deals in", "comments"]),
        ("1\n2\nnot-a-deal\n4\n", ["line 3", "not-a-deal"]),
        (f"1\n{MAX_DEAL_NUMBER + 1}\n", ["line 2", "out of range"]),
        ("a\t1\nb\t2\n# note\na\t3\n", ["line 4", "'a'", "line 1"]),
        ("a\t1\n3\t2\n7\n", ["line 3", "'3'", "line 2"]),
        ("a\t1\n\t2\n", ["line 2", "id"]),
    ],
    ids=["empty", "comments", "bad line", "number too big", "same id", "same as a line",
         "no id"],
)
def test_analyze_refuses_a_bad_deal_file_before_solving(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, words: list[str]
) -> None:
    deal_file = tmp_path / "deals.txt"
    deal_file.write_text(content)
    out_file = tmp_path / "run.jsonl"
    status, out, err = run_cli(capsys, "analyze", "--deal-file", str(deal_file), "--jobs",
                               "1", "--out", str(out_file), "--no-progress")
    assert status == EXIT_BAD_INPUT and out == ""
    assert_one_line_error(err, "analyze", str(deal_file), *words)
    assert not out_file.exists()


def test_error_rows_do_not_count_as_deals() -> None:
    rows: list[dict[str, object]] = [
        {"id": "1", "result": "solved", "seconds": 0.5},
        {"id": "2", "result": "error", "error": "not a deal"},
        {"id": "3", "result": "error", "error": "not a deal"},
    ]
    summary = summarize(rows)
    assert "deals: 1\n" in summary and "solvable: 1 (100.00 %" in summary
    assert "errors: 2" in summary


def test_analyze_solves_again_the_error_rows_of_older_versions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "run.jsonl"
    out_file.write_text(json.dumps({"id": "2", "deal": "2", "result": "error",
                                    "error": "was bad"}) + "\n")
    status, out, _ = run_cli(capsys, "analyze", "--deals", "2-3", "--jobs", "1", "--out",
                             str(out_file), "--no-progress")
    assert status == 0
    assert "deals: 2\n" in out and "solvable: 2 (100.00 %" in out and "errors" not in out
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert sorted((row["id"], row["result"]) for row in rows) == [
        ("2", "error"), ("2", "solved"), ("3", "solved")]


def _rows(out_file: Path) -> list[dict[str, str]]:
    """Every row of a results file, each line parsed (any line that is not a row fails)."""
    if out_file.suffix == ".csv":
        with out_file.open(newline="") as file:
            lines = file.read().split("\r\n")
        assert lines[0] == ",".join(CSV_FIELDS) and lines[-1] == ""
        rows = [dict(zip(CSV_FIELDS, next(csv.reader([line])), strict=True))
                for line in lines[1:-1]]
    else:
        text = out_file.read_text()
        assert text.endswith("\n")
        rows = [json.loads(line) for line in text.splitlines()]
    for row in rows:
        assert row["result"] in ("solved", "unsolvable", "unknown"), row
    return rows


def _analyze_into(capsys: pytest.CaptureFixture[str], out_file: Path,
                  deals: str) -> tuple[int, str, str]:
    """``bonanza analyze --deals DEALS`` on one job, resuming ``out_file``."""
    return run_cli(capsys, "analyze", "--deals", deals, "--jobs", "1", "--out", str(out_file),
                   "--no-progress")


@pytest.mark.parametrize("name", ["run.jsonl", "run.csv"])
def test_resume_cuts_away_a_half_written_last_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    out_file = tmp_path / name
    assert _analyze_into(capsys, out_file, "2-3")[0] == 0
    half_row = '{"id": "4", "res' if name.endswith(".jsonl") else "4,4,sol"
    with out_file.open("a", newline="") as file:
        file.write(half_row)
    status, out, _ = _analyze_into(capsys, out_file, "2-5")
    assert status == 0 and "deals: 4\n" in out
    assert sorted(row["id"] for row in _rows(out_file)) == ["2", "3", "4", "5"]


@pytest.mark.parametrize("name", ["run.jsonl", "run.csv"])
def test_resume_keeps_a_whole_last_row_that_lacks_its_newline(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    out_file = tmp_path / name
    assert _analyze_into(capsys, out_file, "2-3")[0] == 0
    out_file.write_bytes(out_file.read_bytes().rstrip(b"\r\n"))
    status, out, _ = _analyze_into(capsys, out_file, "2-4")
    assert status == 0 and "deals: 3\n" in out
    assert sorted(row["id"] for row in _rows(out_file)) == ["2", "3", "4"]


@pytest.mark.parametrize(("garbage", "at_end"), [
    ("my notes, not results\r\n", False),
    ("hello\r\n", False),
    ("4,4,maybe,12\r\n", False),  # a result no row has
    ("4,4,solved,12,x,,3,,draw=1,0,0,0,0,0,0\r\n", False),  # seconds not a number
    ("my notes", True),  # a last line without its line end, not a row cut short
])
def test_resume_refuses_a_csv_file_with_a_garbage_line_and_leaves_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, garbage: str, at_end: bool
) -> None:
    out_file = tmp_path / "run.csv"
    assert _analyze_into(capsys, out_file, "2-3")[0] == 0
    header, first, second = out_file.read_bytes().decode().splitlines(keepends=True)
    lines = [header, first, second, garbage] if at_end else [header, first, garbage, second]
    content = "".join(lines).encode()
    out_file.write_bytes(content)
    status, out, err = _analyze_into(capsys, out_file, "2-5")
    assert (status, out) == (EXIT_BAD_INPUT, "")
    assert err == (f"bonanza analyze: --out {out_file} is not a results file: line "
                   f"{4 if at_end else 3} is not a result row: is it the right file?\n")
    assert out_file.read_bytes() == content


def test_resume_skips_a_csv_row_cut_short_mid_file_as_older_versions_left_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "run.csv"
    assert _analyze_into(capsys, out_file, "2-3")[0] == 0
    with out_file.open("a", newline="") as file:
        file.write("4,4,sol\r\n")
    status, out, _ = _analyze_into(capsys, out_file, "2-4")
    assert status == 0 and "deals: 3\n" in out
    with out_file.open(newline="") as file:
        ids = [line.split(",")[0] for line in file.read().split("\r\n")[1:-1]]
    assert ids == ["2", "3", "4", "4"]


def test_solve_takes_a_rules_preset(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "solve", "7", "--rules", "klondike-3", "--json")
    assert status == 0
    rules = json.loads(out)["rules"]
    assert rules["draw"] == 3 and rules["thoughtful"] is True
    status, out, _ = run_cli(capsys, "solve", "7", "--rules", "vegas-1", "--draw", "3", "--json")
    rules = json.loads(out)["rules"]
    assert (rules["draw"], rules["passes"], rules["scoring"]) == (3, 1, "vegas")


def test_a_preset_replaces_a_saved_games_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(Game(Deal.from_number(7), Rules(draw=3)).to_json()))
    _, out, _ = run_cli(capsys, "solve", str(path), "--json")
    assert json.loads(out)["rules"]["draw"] == 3
    _, out, _ = run_cli(capsys, "solve", str(path), "--rules", "klondike", "--json")
    assert json.loads(out)["rules"]["draw"] == 1


def test_analyze_takes_a_rules_preset(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "analyze", "--deals", "7-7", "--rules", "klondike-3",
                             "--jobs", "1", "--no-progress")
    assert status == 0 and "rules: draw=3 " in out and "thoughtful=on" in out


def test_a_file_error_is_one_line_and_other_os_errors_surface(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreadable(text: str, rules: Rules) -> None:
        raise PermissionError(13, "Permission denied", "/saved/game.json")

    monkeypatch.setattr("bonanza.cli.solve.load_start", unreadable)
    status, _, err = run_cli(capsys, "solve", "game.json")
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "solve", "/saved/game.json", "Permission denied")

    def broken(text: str, rules: Rules) -> None:
        raise OSError("a bug, not a user's file")

    monkeypatch.setattr("bonanza.cli.solve.load_start", broken)
    with pytest.raises(OSError, match="a bug"):
        main(["solve", "game.json"])


def _interrupt(
    process: subprocess.Popen[str], settle: float = SETTLE_SECONDS, stop: float = STOP_SECONDS
) -> tuple[str, str, float]:
    """Ctrl-C as a terminal sends it (to the whole process group): stdout, stderr, seconds."""
    time.sleep(settle)
    assert process.poll() is None, "finished before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    sent = time.monotonic()
    out, err = process.communicate(timeout=stop)
    return out, err, time.monotonic() - sent


def test_ctrl_c_stops_solve() -> None:
    with bonanza("solve", SLOW_DEAL, "--draw", "3", "--time-limit", "60") as process:
        out, err, seconds = _interrupt(process)
    assert seconds < STOP_SECONDS
    assert process.returncode == EXIT_INTERRUPTED
    assert_one_line_error(err, "solve", "interrupted")
    assert out == ""


def test_ctrl_c_stops_analyze_with_its_summary() -> None:
    last = str(int(SLOW_DEAL) + 2)
    with bonanza("analyze", "--deals", f"{SLOW_DEAL}-{last}", "--draw", "3", "--jobs", "1",
                 "--time-limit", "60", "--no-progress") as process:
        out, err, seconds = _interrupt(process, ANALYZE_SETTLE_SECONDS, ANALYZE_STOP_SECONDS)
    assert seconds < ANALYZE_STOP_SECONDS
    assert process.returncode == EXIT_INTERRUPTED
    assert_one_line_error(err, "analyze", "interrupted", "3 deals left")
    assert "deals: 0\n" in out and "solvable: 0" in out


def test_a_solver_bug_is_one_line_asking_for_a_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuted(*args: object, **kwargs: object) -> None:
        raise SolverError("solver bug: move 3 (12) is illegal")

    monkeypatch.setattr("bonanza.cli.solve.solve", refuted)
    status, _, err = run_cli(capsys, "solve", "7")
    assert status == EXIT_INTERNAL_ERROR
    assert err.strip().splitlines() == [
        "bonanza solve: internal error, please report it: solver bug: move 3 (12) is illegal"
    ]


def test_ctrl_c_while_the_commands_load_still_names_the_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("bonanza.cli.build_parser", interrupted)
    status, _, err = run_cli(capsys, "solve", "7")
    assert status == EXIT_INTERRUPTED
    assert err == "bonanza solve: interrupted\n"


@pytest.mark.parametrize(
    ("command", "rules", "decks"),
    [("analyze", "klondike", 2), ("analyze", "double-klondike", 1), ("autoplay", "klondike", 2)],
)
def test_a_deal_file_line_of_the_other_deck_count_is_refused_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, rules: str, decks: int
) -> None:
    """A deal of the wrong number of decks at line 3: refused before any deal is played,
    naming the file and the line, as every other bad line is."""
    deal_file = tmp_path / "deals.txt"
    wrong = Deal.from_number(5, decks).code
    deal_file.write_text(f"1\n2\n{wrong}\n")
    out_file = tmp_path / "run.jsonl"
    status, out, err = run_cli(capsys, command, "--deal-file", str(deal_file), "--rules", rules,
                               "--jobs", "1", "--out", str(out_file), "--no-progress")
    assert status == EXIT_BAD_INPUT and out == ""
    assert_one_line_error(err, command, f"{deal_file} line 3")
    assert not out_file.exists()
