"""Rule 23, a base gone home (search_gone.h, with the proof): where a card's
first move must send it home, the cards of its suit below it are home just
after, and a kid lying then on its other base (its base in that suit gone
home, coming back only after the card) may be stranded there.

The rule runs only where it usually pays (a search's first position once it
is not decided at once, and after many dead-end tests on one card a test), so
these tests make it run at every position (``Sides.GONE_EVERY``) or ask it
directly (``_search.dead_end_rule``): every verdict of a search that uses it
everywhere must be the verdict without it. (tests/solver/test_bare_bases.py
also asks it at every position of winning lines: it calls none lost.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Prune, Sides, _search, solve
from bonanza.solver.search import core_arguments
from tests.solver.rule_checks import where_it_fires_everywhere

WITHOUT = Prune.ALL & ~Prune.GONE_BASE
EVERYWHERE = Sides.DEFAULT | Sides.GONE_EVERY
RULE_23 = 23
"""What ``dead_end_rule`` answers for a position rule 23 finds lost."""
GONE_DEAL = 1582
"""A draw-1 deal rule 23 proves lost at its start: the five of hearts must go
home at its first move, and the three of spades is left on the four of
diamonds (docs/solver.md); without the rule the search needs 293 M nodes."""
START_NODES = 20_000
WITHOUT_NODES = 1_000_000
WON_BY_A_LINE = ("KSQDJSTD9C8D7S6H5C4H3C/9sTH/KHQS/KDQCJDTC9H/jc8cts5D4C3H2C/7hQH/"
                 "acjh7c9D8S7D6C5H 8hkc4d6d - -326 7")
"""A position of a winning line of draw-1 deal 534 that a first prototype
called lost (the relaxation after the first move stopped before the bases
its given facts uncover: search_dead_ends.h, reach_with)."""
DEALS = 1000
SEARCH_NODES = 20_000


def test_a_lost_deal_is_proved_lost_from_its_first_position() -> None:
    for rules in (Rules(draw=1), Rules(draw=3), Rules(draw=1, passes=1)):
        start = Position.initial(Deal.from_number(GONE_DEAL), rules)
        assert _search.dead_end_rule(*core_arguments(start)) == RULE_23
        with_rule = solve(start, node_limit=START_NODES, shorten=False)
        assert with_rule.result == "unsolvable"
        assert with_rule.fired[Prune.GONE_BASE] == 1
    start = Position.initial(Deal.from_number(GONE_DEAL), Rules(draw=1))
    without = solve(start, node_limit=WITHOUT_NODES, shorten=False, prune=WITHOUT)
    assert without.result == "unknown"
    assert without.fired[Prune.GONE_BASE] == 0


def test_a_won_position_is_not_called_lost() -> None:
    position = Position.from_text(WON_BY_A_LINE, Rules(draw=1))
    assert _search.dead_end_rule(*core_arguments(position)) == 0
    assert solve(position, node_limit=WITHOUT_NODES, shorten=False, prune=WITHOUT).solved
    assert solve(position, node_limit=WITHOUT_NODES, shorten=False, sides=EVERYWHERE).solved


def _deal_starts(seed: int, count: int) -> Iterator[Position]:
    """First positions of random deals under several rule sets."""
    rng = random.Random(seed)
    rule_sets = (Rules(draw=1), Rules(draw=3), Rules(draw=1, passes=1),
                 Rules(draw=1, recall=False), Rules(draw=3, passes=3),
                 Rules(draw=1, partial_runs=False))
    for index in range(count):
        yield Position.initial(Deal.from_number(rng.getrandbits(64)),
                               rule_sets[index % len(rule_sets)])


def test_searches_with_the_rule_everywhere_keep_every_verdict() -> None:
    tally = where_it_fires_everywhere(_deal_starts(2305, DEALS), Prune.GONE_BASE, EVERYWHERE,
                                      SEARCH_NODES)
    assert tally.wrong == []
    # (Seed 2305: the rule fired in 20 of the 1,000 searches, 1,232 times;
    # 11 of those searches were decided by both.)
    assert tally.fired >= 10, tally
    assert tally.firings >= 1000, tally
    assert tally.decided >= 5, tally
