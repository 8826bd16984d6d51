"""Limits past what the C solver takes (``--memory-limit``; ``--passes`` of two decks)
are one line and status 2, or taken as the same game, never an OverflowError."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bonanza.cli.solve import MAX_MEMORY_MB
from bonanza.core import Deal, Position, Rules
from bonanza.solver import solve, wide
from bonanza.solver.search import MAX_MEMORY
from tests.solver.test_cli_errors import run_cli

TOO_MUCH_MEMORY = str(MAX_MEMORY_MB + 1)  # 2**43 MB: 2**63 bytes, one past a C ssize_t


@pytest.mark.parametrize("argv", [
    ["solve", "1"],
    ["solve", "1", "--rules", "double-klondike"],
    ["analyze", "--deals", "1-2", "--jobs", "1", "--no-progress"],
])
def test_a_memory_limit_past_the_solvers_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str],
) -> None:
    status, out, err = run_cli(capsys, *argv, "--memory-limit", TOO_MUCH_MEMORY)
    assert (status, out) == (2, "")
    assert err == (
        f"bonanza {argv[0]}: argument --memory-limit: the memory limit (MB) must be at most "
        f"{MAX_MEMORY_MB}, not {TOO_MUCH_MEMORY}\n"
    )


def test_the_largest_memory_limit_solves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "solve", "1", "--memory-limit", str(MAX_MEMORY_MB))
    assert (status, err) == (0, "")
    assert out.startswith("deal 1 (") and ": solved" in out.splitlines()[0]


def test_solve_refuses_a_memory_limit_past_the_cores() -> None:
    with pytest.raises(ValueError, match="memory_limit must be at most"):
        solve(Deal.from_number(1), Rules(), memory_limit=MAX_MEMORY + 1)


@pytest.mark.parametrize("passes", ["4294967297", "99999999999999999999"])
def test_double_klondike_with_more_passes_than_c_ints_solves_as_unlimited(
    capsys: pytest.CaptureFixture[str], passes: str,
) -> None:
    status, out, err = run_cli(capsys, "solve", "1", "--rules", "double-klondike",
                               "--passes", passes, "--json")
    assert (status, err) == (0, "")
    unlimited = run_cli(capsys, "solve", "1", "--rules", "double-klondike", "--json")[1]
    assert json.loads(out)["result"] == json.loads(unlimited)["result"] == "solved"
    status, out, err = run_cli(capsys, "analyze", "--deals", "1-2", "--rules", "double-klondike",
                               "--passes", passes, "--jobs", "1", "--no-progress")
    assert (status, err) == (0, "")
    assert f"passes={passes}" in out and "solvable: 2 (100.00 %" in out


def test_the_wide_search_keeps_a_pass_limit_the_talon_can_use_up() -> None:
    start = Position.initial(Deal.from_number(1, 2), Rules.preset("double-klondike"))
    talon = len(start.stock) + len(start.waste)
    for passes, allowed in ((2, 1), (talon + 1, talon), (talon + 2, -1), (2**40, -1)):
        start.rules = dataclasses.replace(start.rules, passes=passes)
        assert wide.arguments(start)[8] == allowed
