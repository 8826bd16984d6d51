"""Perft: move-sequence counts from fixed positions, against stored data and a naive generator."""

from __future__ import annotations

from pathlib import Path

import pytest

from bonanza.core import Position, Rules
from tests.core.naive import legal_moves as naive_moves
from tests.core.perft.counts import divide, perft

DATA = Path(__file__).parent / "perft" / "perft.txt"
VARIANT_DATA = Path(__file__).parent / "perft" / "variants.txt"


def _cases(data: Path = DATA) -> list[tuple[str, Position, list[int]]]:
    cases = []
    for line in data.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, rules_text, position_text, counts = (part.strip() for part in line.split("|"))
        position = Position.from_text(position_text, Rules.from_text(rules_text))
        cases.append((name, position, [int(count) for count in counts.split()]))
    return cases


CASES = _cases()
VARIANT_CASES = _cases(VARIANT_DATA)
NAIVE_NODES = 5000
"""The naive generator checks the deepest stored count below this."""


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


def test_variant_data_covers_every_game() -> None:
    games = {position.rules.game for _, position, _ in VARIANT_CASES}
    assert games == {"double-klondike", "westcliff", "easthaven"}
    draws = {position.rules.draw for _, position, _ in VARIANT_CASES if position.rules.decks == 2}
    assert draws == {1, 3}
    assert len({tuple(counts) for _, _, counts in VARIANT_CASES}) == len(VARIANT_CASES)


@pytest.mark.parametrize(
    ("name", "position", "counts"), VARIANT_CASES, ids=[c[0] for c in VARIANT_CASES]
)
def test_variant_perft(name: str, position: Position, counts: list[int]) -> None:
    for depth, expected in enumerate(counts, 1):
        assert perft(position, depth) == expected, f"{name} depth {depth}"
    depth = max(d for d, count in enumerate(counts, 1) if count < NAIVE_NODES or d == 1)
    assert perft(position, depth, naive_moves) == counts[depth - 1], (
        f"{name}: naive {divide(position, depth, naive_moves)} fast {divide(position, depth)}"
    )
