"""The solver plays Klondike only: Klondike's relatives are refused by name."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, Position, Rules, RulesError
from bonanza.solver import solve
from bonanza.solver.search import core_legal_moves


@pytest.mark.parametrize(
    ("preset", "name"),
    [
        ("double-klondike", "double-klondike"),
        ("double-klondike-3", "double-klondike"),
        ("westcliff", "westcliff"),
        ("easthaven", "easthaven"),
    ],
)
def test_a_relative_of_klondike_is_refused_by_name(preset: str, name: str) -> None:
    rules = Rules.preset(preset)
    deal = Deal.from_number(5, rules.decks)
    with pytest.raises(RulesError, match=f"Klondike only \\(not {name}\\)"):
        solve(deal, rules, node_limit=1000)
    with pytest.raises(RulesError, match="Klondike only"):
        core_legal_moves(Position.initial(deal, rules))


def test_klondike_options_are_still_solved() -> None:
    rules = Rules(draw=3, empty_column=Rules.preset("westcliff").empty_column, recall=False)
    result = solve(Deal.from_number(5), rules, node_limit=200_000)
    assert result.result in ("solved", "unsolvable", "unknown")
