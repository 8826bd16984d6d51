"""``--rules`` names Klondike's relatives in every command that takes it; a
command that cannot play one yet says so in one line, with status 2."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import bonanza.cli.play as cli_play
from bonanza.cli import EXIT_BAD_INPUT, build_parser, main
from bonanza.cli.options import rules_from
from bonanza.cli.solve import solver_rules
from bonanza.core import Deal, Rules
from bonanza.core.errors import RulesError
from bonanza.core.rules import ALL_PRESETS, VARIANT_PRESETS
from bonanza.tui.app import BonanzaApp

RULE_COMMANDS = {
    "play": [],
    "deal": ["7"],
    "solve": ["7"],
    "analyze": ["--deals", "1-2"],
    "autoplay": ["--deals", "1-2"],
}
"""Each command that takes ``--rules``, with the arguments it needs besides."""
SOLVER_COMMANDS = ("solve", "analyze")
"""The commands whose rules are played with every card known."""
NOT_YET = "the solver plays Klondike only (not {game}) yet"
"""What the solver said of a relative before it learnt them."""


@pytest.mark.parametrize("preset", sorted(ALL_PRESETS))
@pytest.mark.parametrize("command", sorted(RULE_COMMANDS))
def test_every_command_takes_every_preset(command: str, preset: str) -> None:
    args = build_parser().parse_args([command, *RULE_COMMANDS[command], "--rules", preset])
    expected = Rules.preset(preset)
    if command in SOLVER_COMMANDS:
        assert solver_rules(args) == dataclasses.replace(expected, thoughtful=True)
    else:
        assert rules_from(args) == expected


def one_line(err: str, command: str) -> str:
    """The one line of ``err``, checked: it names the command, and no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"bonanza {command}: "), err
    assert "Traceback" not in err
    return lines[0]


def one_line_refusal(capsys: pytest.CaptureFixture[str], command: str) -> str:
    return one_line(capsys.readouterr().err, command)


def test_deal_shows_a_relatives_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "7", "--rules", "westcliff"]) == 0
    board = capsys.readouterr().out
    assert board.startswith("Deal 7 (Westcliff: ")
    assert " 1   2   3   4   5   6   7   8   9  10" in board and "stock 21, waste 1" in board
    assert main(["deal", "7", "--rules", "double-klondike"]) == 0
    assert "stock 59, waste 0" in capsys.readouterr().out  # deal 7 of two decks
    one_deck_code = Deal.from_number(7).code
    assert main(["deal", one_deck_code, "--rules", "double-klondike"]) == EXIT_BAD_INPUT
    assert "104" in one_line_refusal(capsys, "deal")


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[BonanzaApp]:
    """The apps ``bonanza play`` starts, kept instead of run."""
    apps: list[BonanzaApp] = []
    monkeypatch.setattr(BonanzaApp, "run", lambda app, *args, **kwargs: apps.append(app))
    monkeypatch.setattr(cli_play, "check_terminal", lambda: None)  # pytest has no terminal
    return apps


@pytest.mark.parametrize("preset", sorted(VARIANT_PRESETS))
def test_play_starts_a_relative(tmp_path: Path, preset: str, started: list[BonanzaApp]) -> None:
    db = str(tmp_path / "games.db")
    assert main(["play", "--new", "--db", db, "--rules", preset]) == 0
    assert main(["play", "7", "--db", db, "--rules", preset]) == 0
    rules = Rules.preset(preset)
    assert [app.session.rules for app in started] == [rules, rules]
    assert started[1].game.deal == Deal.from_number(7, rules.decks)
    assert [app.game.deal.decks for app in started] == [rules.decks] * 2


def test_play_refuses_a_deal_of_the_wrong_decks(
    tmp_path: Path, started: list[BonanzaApp], capsys: pytest.CaptureFixture[str]
) -> None:
    code = Deal.from_number(7).code
    db = str(tmp_path / "games.db")
    assert main(["play", code, "--db", db, "--rules", "double-klondike-3"]) == EXIT_BAD_INPUT
    assert "104" in one_line_refusal(capsys, "play")
    assert started == []


def refuse(name: str) -> Any:
    """A stand-in for a solver function that does not play the game yet."""

    def refusing(*args: Any, **kwargs: Any) -> Any:
        raise RulesError(NOT_YET.format(game="westcliff"))

    refusing.__name__ = name
    return refusing


@pytest.mark.parametrize(
    ("command", "module", "function"),
    [
        ("solve", "bonanza.cli.solve", "solve"),
        ("analyze", "bonanza.cli.analyze", "solve"),
        ("autoplay", "bonanza.cli.autoplay", "advise"),
    ],
)
def test_a_game_the_solver_does_not_play_yet_is_one_line_and_status_2(
    command: str, module: str, function: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setattr(f"{module}.{function}", refuse(function))
    extra = ["--jobs", "1", "--no-progress"] if command != "solve" else []
    argv = [command, *RULE_COMMANDS[command], "--rules", "westcliff", *extra]
    assert main(argv) == EXIT_BAD_INPUT
    line = one_line_refusal(capsys, command)
    assert line == f"bonanza {command}: {NOT_YET.format(game='westcliff')}"


@pytest.mark.parametrize("preset", sorted(VARIANT_PRESETS))
def test_solve_answers_for_a_relative_or_says_it_cannot(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["solve", "7", "--rules", preset, "--time-limit", "1"])
    captured = capsys.readouterr()
    if status == 0:
        assert captured.out.startswith(f"deal 7 ({Rules.preset(preset).title}: ")
    else:  # not played yet: one line, never a traceback
        assert status == EXIT_BAD_INPUT and captured.out == ""
        one_line(captured.err, "solve")
