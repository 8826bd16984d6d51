"""The progress of ``bonanza analyze`` and ``bonanza autoplay`` on stderr: a ``rich`` bar
with rate and time left on a terminal (autoplay's counting moves before a game ends), plain
lines and never a carriage return elsewhere, nothing with ``--no-progress``."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bonanza.cli.progress import Activity, RunProgress, Shown, shown_on
from tests.solver.test_cli_errors import run_cli

BAR = "\u2501"  # rich's bar is drawn with this
ESCAPE = "\x1b"  # terminal control sequences start with it
RUN_SECONDS = 120.0  # the most a run here may take on a loaded machine
READ_SECONDS = 0.1
COLUMNS = "160"  # wide enough for every column of the bar
EVERY = 0.05  # seconds between plain lines, in the test of them
LINES_WITHIN = 0.5  # seconds in which several plain lines must come


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def on_a_terminal(*argv: str) -> str:
    """What ``bonanza ARGV`` writes on stderr when stderr is a terminal (a pseudo-terminal)."""
    controller, terminal = pty.openpty()
    environment = {**os.environ, "COLUMNS": COLUMNS, "TERM": "xterm-256color"}
    environment.pop("NO_COLOR", None)
    process = subprocess.Popen([sys.executable, "-m", "bonanza", *argv], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=terminal, env=environment)
    os.close(terminal)
    written = bytearray()
    deadline = time.monotonic() + RUN_SECONDS
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], READ_SECONDS)
            if ready:
                try:
                    chunk = os.read(controller, 1 << 16)
                except OSError:  # the command ended: the terminal is closed
                    break
                if not chunk:
                    break
                written += chunk
            elif process.poll() is not None:
                break
        assert process.wait(timeout=RUN_SECONDS) == 0
    finally:
        process.kill()
        os.close(controller)
    return written.decode("utf-8", "replace")


def test_what_is_shown_follows_the_stream_and_the_option() -> None:
    assert shown_on(Terminal(), no_progress=False) is Shown.BAR
    assert shown_on(io.StringIO(), no_progress=False) is Shown.LINES
    assert shown_on(Terminal(), no_progress=True) is Shown.NOTHING


def test_off_a_terminal_a_plain_line_comes_every_few_seconds() -> None:
    stream = io.StringIO()
    moves = iter(range(1_000))
    progress = RunProgress("autoplay", "games", 4, Shown.LINES, stream, done=1,
                           counts={"won": 1, "lost": 0},
                           activity=Activity("moves", lambda: next(moves)), every=EVERY)
    with progress:
        time.sleep(LINES_WITHIN)
        progress.update(3, {"won": 2, "lost": 1})
    lines = stream.getvalue().splitlines(keepends=True)
    assert len(lines) >= 3 and all(line.endswith("\n") for line in lines)
    assert "\r" not in stream.getvalue() and ESCAPE not in stream.getvalue()
    assert lines[0].startswith("bonanza autoplay: 1/4 games (25.0 %) in 0:00:00")
    assert "time left unknown" in lines[0]  # no game of this run has ended yet
    last = lines[-1]
    assert last.startswith("bonanza autoplay: 3/4 games (75.0 %)")
    assert re.search(r"games/s, 0:00:0\d left; won 2, lost 1; \d+ moves \(", last), last


def test_off_a_terminal_analyze_ends_with_one_plain_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run_cli(capsys, "analyze", "--deals", "18-21", "--jobs", "1")
    assert status == 0 and "\r" not in err and ESCAPE not in err
    assert err.startswith("bonanza analyze: 4/4 deals (100.0 %) in ")
    assert err.endswith("; solved 3, unsolvable 1, unknown 0\n") and err.count("\n") == 1


def test_no_progress_shows_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "analyze", "--deals", "18-21", "--jobs", "1",
                               "--no-progress")
    assert (status, err) == (0, "") and "deals: 4" in out


def test_on_a_terminal_analyze_shows_a_bar_with_rate_and_time_left() -> None:
    shown = on_a_terminal("analyze", "--deals", "18-21", "--jobs", "1")
    assert BAR in shown and ESCAPE in shown
    last = shown.rsplit("analyze", 1)[-1]  # the bar as it was left
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", last)
    assert re.search(r"4/4 deals +[\d.]+ deals/s +\d:\d\d:\d\d +\d:\d\d:\d\d +"
                     r"solved 3, unsolvable 1, unknown 0", plain), plain


def test_on_a_terminal_autoplay_counts_moves_before_the_first_game_ends(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    # A game of some seconds (its 60 moves at this budget), so that the activity's ticks
    # (every half second) count moves before it ends, even on a loaded machine; at 0.05 s
    # a hint, the whole game could end between two ticks.
    shown = on_a_terminal("autoplay", "--deals", "1-1", "--budget", "0.2", "--max-moves", "60",
                          "--jobs", "1", "--out", str(out))
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    frames = plain.split("autoplay")[1:]
    before_the_end = [frame for frame in frames if "0/1 games" in frame]
    counted = [int(moves) for frame in before_the_end
               for moves in re.findall(r"(\d+) moves ", frame)]
    assert counted and max(counted) > 0, plain  # moves counted while the game went on
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert "1/1 games" in frames[-1] and f" {row['moves']} moves " in frames[-1]


def test_a_run_off_a_terminal_loads_no_rich() -> None:
    probe = ("import sys\nfrom bonanza.cli import main\n"
             "main(['analyze', '--deals', '18-19', '--jobs', '1'])\n"
             "print('rich' in sys.modules)\n")
    printed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                             check=True).stdout
    assert printed.splitlines()[-1] == "False"
