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


VEGAS_UNLIMITED = (
    "Vegas scoring has no unlimited passes: give --passes a number, or leave it out for "
    "Vegas's own"
)


@pytest.mark.parametrize("argv", [
    ["deal", "5", "--rules", "vegas-3", "--passes", "unlimited"],
    ["deal", "5", "--scoring", "vegas", "--passes", "unlimited"],
    ["solve", "5", "--rules", "vegas-3", "--passes", "unlimited"],
    ["analyze", "--deals", "1", "--jobs", "1", "--time-limit", "0.1", "--no-progress",
     "--rules", "vegas-1", "--passes", "unlimited"],
    ["autoplay", "--deals", "1", "--jobs", "1", "--max-moves", "1", "--no-progress",
     "--rules", "vegas-1", "--passes", "unlimited"],
])
def test_unlimited_passes_under_vegas_scoring_are_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Not replaced by Vegas's passes without a word: Vegas has no unlimited passes.
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == f"bonanza {argv[0]}: {VEGAS_UNLIMITED}\n" and captured.out == ""


@pytest.mark.parametrize(("options", "passes"), [
    (["--scoring", "vegas", "--draw", "1"], "1 pass"),  # Vegas's own, as documented
    (["--scoring", "vegas", "--draw", "3"], "3 passes"),
    (["--rules", "vegas-3", "--passes", "5"], "5 passes"),
    (["--rules", "vegas-3", "--scoring", "standard", "--passes", "unlimited"],
     "unlimited passes"),
])
def test_vegas_passes_left_out_or_given_are_played(
    options: list[str], passes: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deal", "5", *options]) == 0
    assert f", {passes}, " in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize(("passes", "words"), [("unlimited", "unlimited"), ("2", "2")])
def test_rules_errors_give_the_passes_as_typed_not_as_python(
    passes: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Easthaven deals its stock onto the columns: one pass only ("not None" was shown).
    assert main(["deal", "5", "--rules", "easthaven", "--passes", passes]) == 2
    captured = capsys.readouterr()
    assert captured.err == ("bonanza deal: a stock dealt onto every column is never turned "
                            f"over: passes must be 1, not {words}\n")
