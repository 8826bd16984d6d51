"""Bad options and arguments get one line naming the command, and exit status 2."""

from __future__ import annotations

import pytest

from bonanza.cli import main

BAD_COMMAND_LINES = [
    (["deal", "--draw", "x"], "bonanza deal:", "--draw"),
    (["deal"], "bonanza deal:", "DEAL"),
    (["play", "--bogus"], "bonanza play:", "--bogus"),
    (["play", "--draw", "many"], "bonanza play:", "--draw"),
    (["play", "--rules", "spider"], "bonanza play:", "westcliff"),  # the presets are listed
    (["solve", "7", "--rules", "spider"], "bonanza solve:", "double-klondike"),
    (["serve", "--port", "x"], "bonanza serve:", "--port"),
    (["solve"], "bonanza solve:", "DEAL"),
    (["analyze", "--jobs", "0"], "bonanza analyze:", "--jobs"),
    (["autoplay", "--budget", "-1"], "bonanza autoplay:", "--budget"),
    (["nonsense"], "bonanza:", "nonsense"),
    ([], "bonanza:", "COMMAND"),
]


@pytest.mark.parametrize(("argv", "prefix", "named"), BAD_COMMAND_LINES)
def test_a_bad_command_line_gets_one_line_and_status_2(
    argv: list[str], prefix: str, named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        status = main(argv)
        raise SystemExit(status)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(prefix) and named in lines[0]
    assert "usage:" not in captured.err and "Traceback" not in captured.err
    assert captured.out == ""
