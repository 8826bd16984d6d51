"""Rule 10 for two decks (search_wide_run.h, ``w_pending``): under Double
Klondike's merged talon macros (draw 1, unlimited passes), a talon card put on
a column is covered by the very next move, as in the Klondike core, so the
position after it tries only the moves onto that card, and is not stored.

Differential tests, each asserting that the rule fires: positions of random
play and small endgames against the search without the rule, and deals that
the rule decides within a small budget where the search without it does not."""

from __future__ import annotations

import dataclasses
import random

from bonanza.core import Deal, EmptyColumn, Position, Rules
from bonanza.solver import Prune, solve
from tests.core.strategies import random_position
from tests.solver.rule_checks import against_the_search_without, assert_won_only_with
from tests.solver.variant_positions import small_variant_position

GAME = "double-klondike"
POSITIONS = 1200
NODES = 20_000
MOST_MOVES = 300
LOOSE_CARDS = (10, 16, 24)
DEAL_NODES = 100_000
DEALS = (1577, 1716, 1953)
"""Deals left unknown at 10 s without the rule (docs/solver.md)."""


def _position(rng: random.Random, index: int) -> Position:
    """Half positions of random play of a deal, half endgames of one suit, two
    suits or all; spaces, recall and runs varied."""
    rules = dataclasses.replace(
        Rules.preset(GAME), empty_column=rng.choice((EmptyColumn.KING, EmptyColumn.ANY)),
        recall=rng.random() < 0.5, partial_runs=rng.random() < 0.7, thoughtful=True,
    )  # fmt: skip
    if index % 2:
        return random_position(rng.getrandbits(64), rng.randrange(MOST_MOVES), rules)
    return small_variant_position(rng.getrandbits(32), rules, rng.choice(LOOSE_CARDS),
                                  suits=rng.choice((1, 2, None)))


def test_positions_keep_their_verdicts_and_the_rule_fires() -> None:
    rng = random.Random(1010)
    tally = against_the_search_without(
        (_position(rng, index) for index in range(POSITIONS)), Prune.COVER_TALON, NODES)
    assert tally.wrong == []
    # (Seed 1010: 1,166 of the 1,200 decided by both, 87 of them lost; the
    # rule fired in 200.)
    assert tally.decided >= 1100
    assert tally.lost >= 60
    assert tally.fired >= 150


def test_it_decides_deals_that_the_search_without_it_does_not() -> None:
    rules = dataclasses.replace(Rules.preset(GAME), thoughtful=True)
    assert_won_only_with(DEALS, rules, Prune.COVER_TALON, DEAL_NODES, DEAL_NODES)


PORTFOLIO_DEALS = (1, 60, 121)
"""Deal 1 is won early only without the rule (422 nodes; unknown at 300,000
with it, and by the plain search), 60 and 121 only with it (200 and 256 nodes;
unknown at 300,000 without it, and by the plain search)."""
PORTFOLIO_NODES = 20_000


def test_the_search_without_it_runs_beside_it() -> None:
    """The rule changes which deals the depth-first order meets a win in early,
    so ``solve`` runs the talon-macro search without it beside the one with it
    (and the plain one): each of these deals is won within a small budget."""
    rules = dataclasses.replace(Rules.preset(GAME), thoughtful=True)
    for number in PORTFOLIO_DEALS:
        deal = Deal.from_number(number, rules.decks)
        result = solve(deal, rules, node_limit=PORTFOLIO_NODES, shorten=False)
        assert result.result == "solved", number
        assert Position.initial(deal, rules).wins_with(result.moves)
