"""Perft: move-sequence counts from fixed positions, against stored data and a naive generator."""

from __future__ import annotations

from pathlib import Path

import pytest

from bonanza.core import Position, Rules
from tests.core.naive import legal_moves as naive_moves
from tests.core.perft.counts import divide, perft

DATA = Path(__file__).parent / "perft" / "perft.txt"


def _cases() -> list[tuple[str, Position, list[int]]]:
    cases = []
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, rules_text, position_text, counts = (part.strip() for part in line.split("|"))
        position = Position.from_text(position_text, Rules.from_text(rules_text))
        cases.append((name, position, [int(count) for count in counts.split()]))
    return cases


CASES = _cases()


def test_data_covers_every_rule_feature() -> None:
    names = {name for name, _, _ in CASES}
    assert len(CASES) >= 12
    for needed in (
        "draw 3 with a short last packet",
        "pass limit reached",
        "recall off",
        "empty column, any card",
        "whole runs only",
    ):
        assert needed in names


@pytest.mark.parametrize(("name", "position", "counts"), CASES, ids=[c[0] for c in CASES])
def test_perft_matches_stored_counts(name: str, position: Position, counts: list[int]) -> None:
    for depth, expected in enumerate(counts, 1):
        found = perft(position, depth)
        assert found == expected, f"{name} depth {depth}: {divide(position, depth)}"


@pytest.mark.parametrize(("name", "position", "counts"), CASES, ids=[c[0] for c in CASES])
def test_naive_generator_agrees(name: str, position: Position, counts: list[int]) -> None:
    depth = 3 if counts[2] < 3000 else 2
    assert perft(position, depth, naive_moves) == counts[depth - 1], (
        f"{name}: naive {divide(position, depth, naive_moves)} fast {divide(position, depth)}"
    )


def test_paired_rule_options_change_the_counts() -> None:
    """Each rule option, on one position, changes what is legal."""
    by_name = {name: counts for name, _, counts in CASES}
    assert by_name["recall on"] != by_name["recall off"]
    assert by_name["empty column, king only"] != by_name["empty column, any card"]
    assert by_name["partial runs"] != by_name["whole runs only"]
    assert by_name["opening, draw 1"] != by_name["opening, draw 3"]
