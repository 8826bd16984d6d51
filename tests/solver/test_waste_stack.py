"""Rule 17: once no recycle is left, rule 8's relaxation takes the waste as a stack
(a waste card below the top is played only after the card on it has left for home
or a column; the proof is at ``home_reach``, search_dead_ends.h).

Differential tests over thousands of positions, each asserting that the rule fires:
small positions with a deep waste against the brute force, positions met in random
play of games with one or three passes against the search without the rule, and
whole one-pass deals, which it decides in far fewer nodes."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bonanza.core import Deal, EmptyColumn, Position, Rules
from bonanza.solver import Prune, solve
from tests.core.strategies import random_position
from tests.solver.brute import talon_endgame
from tests.solver.rule_checks import against_brute_force, against_the_search_without

WITHOUT = Prune.ALL & ~Prune.WASTE_STACK
COLUMNS = 3
"""A small position's columns (few, so that the brute force can decide it)."""
COLUMNS_OF_KLONDIKE = 7
WASTE_SHARE = 0.6
"""Of a small position's loose cards, the share dealt to the waste."""
LOOSE_CARDS = (7, 8, 9)
BRUTE_CASES = 200
BRUTE_LIMIT = 8_000
"""Positions the brute force stores at most (a larger case is left out)."""
PLAYOUT_CASES = 2000
PLAYOUT_NODES = 20_000
MOST_PLAYOUT_MOVES = 120
ONE_PASS_DEALS = range(1, 21)


def _rules(rng: random.Random, passes: int, columns: int = COLUMNS_OF_KLONDIKE) -> Rules:
    return Rules(
        columns=columns,
        draw=rng.choice((1, 3)),
        passes=passes,
        empty_column=rng.choice(list(EmptyColumn)),
        recall=rng.random() < 0.5,
        partial_runs=rng.random() < 0.5,
        thoughtful=True,
    )


def deep_waste_position(rng: random.Random) -> Position:
    """A small endgame of one pass (no recycle left) on a few columns, with many of
    its loose cards in the waste: each suit's top few ranks are out, dealt to the
    columns (the top card face up), the stock and, mostly, the waste."""
    return talon_endgame(rng, rng.choice(LOOSE_CARDS), COLUMNS, "waste", WASTE_SHARE, 0.1,
                         lambda: _rules(rng, passes=1, columns=COLUMNS))


@pytest.mark.python_bound
def test_small_positions_with_a_deep_waste_agree_with_the_brute_force() -> None:
    rng = random.Random(1717)
    tally = against_brute_force((deep_waste_position(rng) for _ in range(BRUTE_CASES)),
                                Prune.WASTE_STACK, BRUTE_LIMIT)
    assert tally.wrong == []
    # (Seed 1717: 145 of the 200 small enough for the brute force; the rule fired
    # in 19 of them, and 15 are lost.)
    assert tally.decided >= 120
    assert tally.fired >= 15
    assert tally.lost >= 12


def _playout_position(rng: random.Random) -> Position:
    """A position met in random play of a random deal with one or three passes."""
    rules = _rules(rng, passes=rng.choice((1, 3)))
    return random_position(rng.getrandbits(64), rng.randrange(MOST_PLAYOUT_MOVES), rules)


def test_positions_of_limited_pass_games_keep_their_verdicts_and_the_rule_fires() -> None:
    rng = random.Random(4242)
    tally = against_the_search_without(
        (_playout_position(rng) for _ in range(PLAYOUT_CASES)), Prune.WASTE_STACK, PLAYOUT_NODES)
    assert tally.wrong == []
    # (Seed 4242: 1,820 of the 2,000 decided by both; the rule fired in 1,668.)
    assert tally.decided >= 1700
    assert tally.fired >= 1000


def test_one_pass_deals_are_decided_alike_in_far_fewer_nodes() -> None:
    rules = dataclasses.replace(Rules.preset("klondike"), passes=1, thoughtful=True)
    with_nodes = without_nodes = 0
    for number in ONE_PASS_DEALS:
        position = Position.initial(Deal.from_number(number), rules)
        with_rule = solve(position, shorten=False)
        without = solve(position, shorten=False, prune=WITHOUT)
        assert with_rule.result == without.result != "unknown"
        with_nodes += with_rule.nodes
        without_nodes += without.nodes
    # (Draw 1, one pass, deals 1-20: 1,829,301 nodes with the rule against
    # 12,725,515 without.)
    assert with_nodes * 3 < without_nodes
