"""Rule 18: with a draw of more than one card and a recycle left, rule 8's
relaxation takes as playable only the talon cards that the draws reach (from the
pointer, or from a fresh stock), and the others once a card before them, or the
card after them, has left the talon (the proof is at ``home_reach``,
search_dead_ends.h).

Differential tests over thousands of positions, each asserting that the rule
fires: small positions with a deep stock against the brute force, positions met
in random play against the search without the rule, and whole draw-3 deals,
which it decides in fewer nodes."""

from __future__ import annotations

import dataclasses
import functools
import random
from types import ModuleType

from bonanza.core import Deal, EmptyColumn, Position, Rules
from bonanza.solver import Prune, solve
from tests.benchmark_script import load
from tests.core.strategies import random_position
from tests.solver.brute import talon_endgame
from tests.solver.rule_checks import against_brute_force, against_the_search_without

WITHOUT = Prune.ALL & ~Prune.STOCK_CYCLE
COLUMNS = 2
"""A small position's columns (few, so that the brute force can decide it)."""
STOCK_SHARE = 0.5
WASTE_SHARE = 0.2
"""Of a small position's loose cards, the shares dealt to the stock and the waste."""
LOOSE_CARDS = (10, 11, 12)
DRAWS = (2, 3)
PASSES = (None, 2, 3)
BRUTE_CASES = 300
BRUTE_LIMIT = 8_000
"""Positions the brute force stores at most (a larger case is left out)."""
PLAYOUT_CASES = 1500
PLAYOUT_NODES = 20_000
MOST_PLAYOUT_MOVES = 120
DEALS = 60
DEAL_NODES = 300_000


@functools.cache
def _harness() -> ModuleType:
    return load("soundness", "soundness_harness")


def _strict_rules(rng: random.Random) -> Rules:
    """Rules under which small endgames are often lost: no recall, whole runs
    only, kings only into spaces."""
    return Rules(columns=COLUMNS, draw=rng.choice(DRAWS), passes=rng.choice(PASSES),
                 empty_column=EmptyColumn.KING, recall=False, partial_runs=False,
                 thoughtful=True)


def deep_stock_position(rng: random.Random) -> Position:
    """A small endgame on a few columns with most of its loose cards in the
    stock and the waste: each suit's top few ranks are out, dealt to the
    columns (the top card face up), the stock and the waste."""
    return talon_endgame(rng, rng.choice(LOOSE_CARDS), COLUMNS, "stock", STOCK_SHARE,
                         WASTE_SHARE, lambda: _strict_rules(rng))


def test_small_positions_with_a_deep_stock_agree_with_the_brute_force() -> None:
    rng = random.Random(1818)
    tally = against_brute_force((deep_stock_position(rng) for _ in range(BRUTE_CASES)),
                                Prune.STOCK_CYCLE, BRUTE_LIMIT)
    assert tally.wrong == []
    # (Seed 1818: all 300 small enough for the brute force; the rule fired in
    # 61 of them, and 43 are lost.)
    assert tally.decided >= 280
    assert tally.fired >= 40
    assert tally.lost >= 30


def _playout_position(rng: random.Random) -> Position:
    """A position met in random play of a random deal under random rules, draw
    2 or 3 (the soundness harness's rules otherwise)."""
    rules = dataclasses.replace(_harness().random_rules(rng), draw=rng.choice(DRAWS))
    return random_position(rng.getrandbits(64), rng.randrange(MOST_PLAYOUT_MOVES), rules)


def test_positions_of_random_play_keep_their_verdicts_and_the_rule_fires() -> None:
    rng = random.Random(1881)
    tally = against_the_search_without(
        (_playout_position(rng) for _ in range(PLAYOUT_CASES)), Prune.STOCK_CYCLE, PLAYOUT_NODES)
    assert tally.wrong == []
    # (Seed 1881: 1,413 of the 1,500 decided by both, 962 of them lost; the
    # rule fired in 341.)
    assert tally.decided >= 1300
    assert tally.lost >= 800
    assert tally.fired >= 250


def test_draw_3_deals_are_decided_alike_in_fewer_nodes() -> None:
    rules = Rules(draw=3, thoughtful=True)
    rng = random.Random(2718)
    with_nodes = without_nodes = compared = 0
    for _ in range(DEALS):
        position = Position.initial(Deal.from_number(rng.getrandbits(64)), rules)
        with_rule = solve(position, node_limit=DEAL_NODES, shorten=False)
        without = solve(position, node_limit=DEAL_NODES, shorten=False, prune=WITHOUT)
        if "unknown" not in (with_rule.result, without.result):
            compared += 1
            assert with_rule.result == without.result
        with_nodes += with_rule.nodes
        without_nodes += without.nodes
    # (Seed 2718: 566,322 nodes with the rule, 826,442 without, deals left
    # undecided counting their 300,000.)
    assert compared >= 50
    assert with_nodes * 4 < without_nodes * 3
