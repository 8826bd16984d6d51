"""Limits past what the C solver takes (``--memory-limit``; ``--passes`` of two decks)
are one line and status 2, or taken as the same game, never an OverflowError."""

from __future__ import annotations

import pytest

from bonanza.cli.solve import MAX_MEMORY_MB
from bonanza.core import Deal, Rules
from bonanza.solver import solve
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
