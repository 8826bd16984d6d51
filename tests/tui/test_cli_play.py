"""``bonanza play`` refuses a save it cannot use: one line on stderr, exit 2, no game started."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bonanza.cli import main

TIMEOUT = 60
"""Seconds: the command should answer at once; a started game would hang until then."""
EXIT_BAD_INPUT = 2


def play(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home), "TERM": "dumb"}
    return subprocess.run(
        [sys.executable, "-m", "bonanza", "play", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env,
    )


def assert_one_line_refusal(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode == EXIT_BAD_INPUT, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    [line] = lines
    assert line.startswith("bonanza play: ")
    for word in words:
        assert word in line
    assert result.stdout == ""  # no game was drawn
    return line


def saved_game(elapsed: str) -> str:
    return (
        '{"format": "bonanza-game", "version": 1, "deal": "7", "moves": [], "redo": [], '
        f'"elapsed": {elapsed}}}'
    )


@pytest.mark.parametrize("constant", ["NaN", "Infinity"])
def test_a_save_with_a_non_finite_number_is_refused(tmp_path: Path, constant: str) -> None:
    save = tmp_path / "game.json"
    save.write_text(saved_game(constant))
    line = assert_one_line_refusal(
        play("--save", str(save), home=tmp_path), str(save), constant
    )
    assert "left as it is" in line
    assert (tmp_path / "game.json").exists()  # left, not renamed nor lost


def test_a_directory_as_save_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    assert_one_line_refusal(play("--save", str(folder), home=tmp_path), str(folder))
    assert folder.is_dir() and not list(folder.iterdir())


# The same checks in process (quicker): each refuses before the game would start.


def refusal(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["play", *args]) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("number", ["-Infinity", "1e999", "-1e400"])
def test_other_non_finite_numbers_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str
) -> None:
    save = tmp_path / "game.json"
    save.write_text(saved_game(number))
    assert number in refusal(["--save", str(save)], capsys)


@pytest.mark.parametrize("deal", [["5"], ["--new"]])
def test_a_directory_is_refused_even_for_a_new_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], deal: list[str]
) -> None:
    assert "is not a file" in refusal([*deal, "--save", str(tmp_path)], capsys)


def test_a_save_under_a_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert "not a directory" in refusal(["--save", str(blocker / "game.json")], capsys)


def test_a_file_that_is_not_a_save_is_refused_and_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31: it was renamed to NAME.unreadable; it may be the player's own file."""
    save = tmp_path / "game.json"
    for text in ("[1", '{"format": "other"}', "my notes"):
        save.write_text(text)
        before = save.stat().st_mtime_ns
        for new in ([], ["--new"], ["7"]):  # nor written over by a new game
            assert "left as it is" in refusal(["--save", str(save), *new], capsys)
        assert save.read_text() == text and save.stat().st_mtime_ns == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.json"]


def test_a_corrupt_save_is_refused_in_one_line(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.write_text("{not json")
    line = assert_one_line_refusal(play("--save", str(save), home=tmp_path), "not JSON")
    assert "give another --save file" in line
    assert save.read_text() == "{not json"


def test_play_refuses_a_pipe_in_one_line(tmp_path: Path) -> None:
    """Issue 31: with stdin or stdout not a terminal it wrote escape codes into the pipe."""
    assert_one_line_refusal(play("--new", home=tmp_path), "needs a terminal")


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file"
)
def test_an_unreadable_save_is_refused_and_left_alone(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.write_text("{}")
    save.chmod(0)
    assert_one_line_refusal(play("--save", str(save), home=tmp_path), "cannot read")
    assert save.exists()
