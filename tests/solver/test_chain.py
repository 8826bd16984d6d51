"""Rule 24, chained locks (search_chain.h): facts that every winning line obeys,
each proven in rule 8's relaxation narrowed by the facts before it. Draw-3
deal 1361 is lost to one at its first position; random positions searched
with the rule at every dead-end test agree with the search without it."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Prune, Sides, _search, solve
from bonanza.solver.search import core_arguments
from tests.solver.rule_checks import random_positions, where_it_fires_everywhere


def test_deal_1361_is_lost_at_its_start() -> None:
    start = Position.initial(Deal.from_number(1361), Rules(draw=3))
    lost, frozen, pairs = _search.chain_facts(*core_arguments(start))
    assert lost == 1
    # The queen of spades (parked under its twin) and the four of hearts (no
    # base at its first move) leave first for home.
    assert frozen == (1 << (3 * 13 + 11)) | (1 << (2 * 13 + 3))
    assert pairs
    assert _search.dead_end_rule(*core_arguments(start)) == 24
    result = solve(start, node_limit=100_000, shorten=False)
    assert result.result == "unsolvable"
    assert result.fired[Prune.CHAIN] == 1
    assert solve(start, node_limit=100_000, shorten=False,
                 prune=Prune.ALL & ~Prune.CHAIN).result == "unknown"


def test_reach_sets_gives_the_relaxation_with_cards_held_back() -> None:
    start = Position.initial(Deal.from_number(1361), Rules(draw=3))
    every_card = (1 << 52) - 1
    home, _ = _search.reach_sets(*core_arguments(start), 0, 0)
    assert home == every_card  # rule 8 alone sees no lock
    ace_of_hearts = 2 * 13
    held, _ = _search.reach_sets(*core_arguments(start), 1 << ace_of_hearts, 0)
    assert not held >> ace_of_hearts & 1 and held != every_card  # the hearts wait on it
    with pytest.raises(TypeError):
        _search.reach_sets(0)


def test_agrees_with_the_search_without_it() -> None:
    tally = where_it_fires_everywhere(random_positions(2401, 200), Prune.CHAIN,
                                      Sides.DEFAULT | Sides.CHAIN_EVERY, 30_000)
    assert tally.fired >= 10 and tally.decided >= 5
    assert tally.wrong == []
