"""``bonanza autoplay``: whole games played by the fair hint engine, as a user runs them."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bonanza.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED, main
from bonanza.core import Deal, Game, Rules
from bonanza.core.cards import CARDS

BUDGET = "0.01"  # seconds per hint: tiny, so that the games are quick
ROW_FIELDS = {"id", "deal", "won", "moves", "seconds", "cards_home", "rules", "line"}
STOP_SECONDS = 5.0  # how soon a run must end after Ctrl-C


def easy_listing() -> str:
    """A deal won by sending every card home as it shows: the stock holds the aces
    to sixes in order, and each column's cards rise towards its deepest card."""
    home_order = sorted(range(52), key=lambda card: (card % 13, card // 13))
    stock, tableau = home_order[:24], home_order[24:]
    columns: list[int] = []
    for size in range(1, 8):
        start = size * (size - 1) // 2
        columns.extend(reversed(tableau[start : start + size]))
    return " ".join(str(CARDS[card]) for card in columns + stock)


def dead_listing() -> str:
    """A deal where nothing but the stock ever moves: the aces and queens lie face
    down, under the 2s and three kings, and no other card fits on those."""
    tops = ["2C", "2D", "2H", "2S", "KH", "KD", "KS"]
    buried = ["AC", "AD", "AH", "AS", "QS", "QC", "QH", "QD"]
    others = [str(card) for card in CARDS if str(card) not in tops + buried]
    face_down = iter(buried + others[:13])
    columns: list[str] = []
    for size, top in enumerate(tops, 1):
        columns.extend([*(next(face_down) for _ in range(size - 1)), top])
    return " ".join(columns + others[13:])


@dataclass
class Run:
    status: int
    out: str
    err: str
    rows: list[dict[str, Any]]


def autoplay(*argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``bonanza autoplay ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["autoplay", *argv])
        except SystemExit as exit_:  # argparse's errors
            status = int(exit_.code or 0)
    return status, out.getvalue(), err.getvalue()


def read_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def play(out_file: Path, *argv: str) -> Run:
    status, out, err = autoplay(*argv, "--budget", BUDGET, "--jobs", "2", "--out", str(out_file))
    return Run(status, out, err, read_rows(out_file) if out_file.exists() else [])


@pytest.fixture(scope="module")
def deal_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("deals") / "deals.txt"
    path.write_text(f"easy\t{easy_listing()}\ndead\t{dead_listing()}\n")
    return path


@pytest.fixture(scope="module")
def first(deal_file: Path) -> Run:
    """A run of both deals, with its progress bar."""
    return play(deal_file.parent / "run.jsonl", "--deal-file", str(deal_file))


def test_summary_gives_the_win_rate_with_its_interval(first: Run) -> None:
    assert first.status == 0
    assert "budget: 0.01 s per move" in first.out and "draw=1" in first.out
    assert "games: 2" in first.out
    assert "won: 1 (50.00 %, 95 % Wilson interval 9.45-90.55 %)" in first.out
    # The dead deal can only turn its stock: the engine proves that nothing helps.
    assert "lost: 1 (no move 1, repeat 0, move cap 0)" in first.out
    assert "cards home:" in first.out and "on average" in first.out
    assert "seconds per move: median" in first.out and "p99" in first.out
    assert "CPU seconds per move: median" in first.out
    assert "max" in first.out
    # Not a terminal: one plain line at the end, counting every move the workers played.
    moves = sum(row["moves"] for row in first.rows)
    assert first.err.startswith("bonanza autoplay: 2/2 games (100.0 %)") and "\r" not in first.err
    assert f"; won 1, lost 1; {moves} moves (" in first.err


def test_one_row_per_game(first: Run) -> None:
    rows = {row["id"]: row for row in first.rows}
    assert sorted(rows) == ["dead", "easy"]
    for row in rows.values():
        assert set(row) >= ROW_FIELDS
        asked = len(row["line"]) + (row["end"] == "no move")  # that last hint gave no move
        assert row["moves"] == len(row["line"]) and len(row["move_seconds"]) == asked
        assert row["seconds"] >= sum(row["move_seconds"]) * 0.99
        assert len(row["move_cpu_seconds"]) == asked
        for cpu, wall in zip(row["move_cpu_seconds"], row["move_seconds"], strict=True):
            assert 0 <= cpu <= wall + 0.01  # one thread's CPU time fits in the wall time
        assert row["rules"] == Rules().to_dict()
    assert rows["easy"]["won"] and rows["easy"]["cards_home"] == 52
    assert rows["easy"]["deal"] == Deal.from_listing(easy_listing()).id
    assert not rows["dead"]["won"] and rows["dead"]["cards_home"] == 0
    assert set(rows["dead"]["line"]) <= {"sw", "ws"}  # draws (and recycles) only


def test_rows_tell_the_truth_when_replayed(first: Run) -> None:
    for row in first.rows:
        game = Game(Deal.parse(row["deal"]), Rules.from_dict(row["rules"]))
        for move in row["line"]:
            game.play(move)
        assert game.is_won == row["won"]
        assert sum(game.position.foundations) == row["cards_home"]


def test_a_rerun_resumes_and_plays_nothing_new(first: Run, deal_file: Path) -> None:
    out_file = deal_file.parent / "run.jsonl"
    before = out_file.read_bytes()
    started = time.perf_counter()
    again = play(out_file, "--deal-file", str(deal_file), "--no-progress")
    assert time.perf_counter() - started < 1.0
    assert again.status == 0 and again.err == ""
    assert out_file.read_bytes() == before
    assert again.out == first.out  # the summary counts the rows read, times and all


def test_the_same_seed_plays_the_same_games(tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("3\n6\n")  # their first 30 moves hold sampled hints

    def games(name: str, seed: str) -> dict[str, tuple[bool, list[str]]]:
        run = play(tmp_path / name, "--deal-file", str(deals), "--max-moves", "30",
                   "--seed", seed, "--no-progress")
        return {row["id"]: (row["won"], row["line"]) for row in run.rows}

    assert games("one.jsonl", "7") == games("two.jsonl", "7")


def test_games_takes_the_first_deals_and_the_cap_ends_a_game(tmp_path: Path) -> None:
    out_file = tmp_path / "run.jsonl"
    status, out, _ = autoplay("--deals", "5-1000", "--games", "1", "--max-moves", "3",
                              "--budget", BUDGET, "--out", str(out_file), "--no-progress")
    assert status == 0 and "games: 1" in out and "move cap 1" in out
    [row] = read_rows(out_file)
    assert (row["id"], row["moves"], row["won"], row["end"]) == ("5", 3, False, "move cap")
    # A row cut short by an interruption is cut away and its game played again.
    whole = out_file.read_text()
    out_file.write_text(whole + whole[: len(whole) // 2])
    status, out, _ = autoplay("--deals", "5-6", "--max-moves", "3", "--budget", BUDGET,
                              "--out", str(out_file), "--no-progress")
    assert status == 0 and "games: 2" in out
    assert [row["id"] for row in read_rows(out_file)] == ["5", "6"]


def test_an_out_file_saved_with_a_byte_order_mark_is_resumed(tmp_path: Path) -> None:
    """As some Windows editors save it: the mark kept and new rows appended after it."""
    out_file = tmp_path / "run.jsonl"
    argv = ("--max-moves", "3", "--budget", BUDGET, "--out", str(out_file), "--no-progress")
    assert autoplay("--deals", "5", *argv)[0] == 0
    saved = b"\xef\xbb\xbf" + out_file.read_bytes()
    out_file.write_bytes(saved)
    status, out, err = autoplay("--deals", "5-6", *argv)
    assert (status, err) == (0, "") and "games: 2" in out
    content = out_file.read_bytes()
    assert content.startswith(saved)  # game 5 not played again
    rows = [json.loads(line) for line in content.decode("utf-8-sig").splitlines()]
    assert [row["id"] for row in rows] == ["5", "6"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--deals", "1-3", "--games", "0"], ["number of games", "at least 1"]),
        (["--deals", "1-3", "--budget", "-1"], ["budget", "positive"]),
        (["--deals", "1-3", "--budget", "nan"], ["budget", "positive"]),
        (["--deal-file", "/no/such/deals.txt"], ["/no/such/deals.txt"]),
        (["--deals", "1-3", "--draw", "0"], ["draw"]),
        (["--deals", "1-3", "--out", "games.csv"], [".jsonl"]),
        (["--games", "3"], ["--deals", "--deal-file"]),
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], words: list[str]) -> None:
    status, out, err = autoplay(*argv)
    assert status == EXIT_BAD_INPUT and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("bonanza autoplay: ")
    for word in words:
        assert word in err


def test_an_out_file_of_other_games_is_refused_untouched(first: Run, tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"id": "2", "result": "solved"}) + "\n")
    row = {**first.rows[0], "budget": 1.0}
    played = tmp_path / "played.jsonl"
    played.write_text(json.dumps(row) + "\n")
    for path, words in ((other, "not an autoplay file"), (played, "budget 1.0, not 0.01")):
        before = path.read_bytes()
        status, _, err = autoplay("--deals", "1-2", "--budget", BUDGET, "--out", str(path))
        assert status == EXIT_BAD_INPUT and len(err.splitlines()) == 1 and words in err
        assert path.read_bytes() == before


def default_sigint() -> None:
    """Take Ctrl-C as from a terminal, even in a test run started in the background."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def bonanza(*argv: str) -> Iterator[subprocess.Popen[str]]:
    """``python -m bonanza ARGV`` in its own process group, killed if a test leaves it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bonanza", *argv], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, process_group=0, preexec_fn=default_sigint,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def test_ctrl_c_summarizes_the_games_finished(deal_file: Path, tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text(deal_file.read_text().splitlines()[0] + "\n1\n2\n3\n")
    out_file = tmp_path / "run.jsonl"
    with bonanza("autoplay", "--deal-file", str(deals), "--budget", BUDGET, "--jobs", "1",
                 "--out", str(out_file), "--no-progress") as process:
        deadline = time.monotonic() + 20
        while not (out_file.exists() and out_file.read_text().count("\n") >= 1):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=STOP_SECONDS)
    assert process.returncode == EXIT_INTERRUPTED
    assert err.count("\n") == 1 and "bonanza autoplay: interrupted" in err
    assert "rerun to resume" in err
    finished = int(out.split("games: ")[1].split()[0])
    assert finished == len(read_rows(out_file)) >= 1


def test_a_resume_refuses_a_row_of_another_deal_under_the_same_id(
    first: Run, deal_file: Path, tmp_path: Path
) -> None:
    out_file = tmp_path / "run.jsonl"
    out_file.write_bytes((deal_file.parent / "run.jsonl").read_bytes())
    other = tmp_path / "deals.txt"
    other.write_text("easy\t7\n")
    again = play(out_file, "--deal-file", str(other), "--no-progress")
    easy = Deal.parse(easy_listing()).id
    assert again.status == 2 and again.out == ""
    assert again.err == (f"bonanza autoplay: --out {out_file} holds deal {easy} under id easy, "
                         "where this run has deal 7: give another --out file\n")
    assert out_file.read_bytes() == (deal_file.parent / "run.jsonl").read_bytes()
