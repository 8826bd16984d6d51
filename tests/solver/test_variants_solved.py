"""Klondike's relatives are solved: by the C core where it takes them, else
by the generic search (``solver/generic.py``), never refused."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, Position, Rules
from bonanza.solver import solve


@pytest.mark.parametrize("preset", ["double-klondike", "double-klondike-3", "westcliff",
                                    "easthaven"])
def test_a_relative_of_klondike_gets_a_verdict(preset: str) -> None:
    rules = Rules.preset(preset)
    deal = Deal.from_number(5, rules.decks)
    result = solve(deal, rules, node_limit=1000)
    assert result.result in ("solved", "unsolvable", "unknown")
    if result.solved:
        assert Position.initial(deal, rules).wins_with(result.moves)


def test_klondike_options_are_still_solved() -> None:
    rules = Rules(draw=3, empty_column=Rules.preset("westcliff").empty_column, recall=False)
    result = solve(Deal.from_number(5), rules, node_limit=200_000)
    assert result.result in ("solved", "unsolvable", "unknown")
