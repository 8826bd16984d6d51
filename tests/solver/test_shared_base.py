"""Rule 21, two kids and one base (search_locks.h, with the proof): where both
kids of a face-down card must lie on its twin at once before the card on it
can move, and neither can go home first, the position is lost.

The rule runs only where it usually pays (after many dead-end tests), so these
tests make it run at every position (``Sides.SHARED_EVERY``) or ask it
directly (``_search.dead_end_rule``), and count where it fired: every
position it calls lost must be lost to the search without it, and every
verdict of a search that uses it everywhere must be the verdict without it.
(tests/solver/test_bare_bases.py also asks it at every position of winning
lines: it calls none lost.)
"""

from __future__ import annotations

from pathlib import Path

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Prune, Sides, _search, solve
from bonanza.solver.search import core_arguments
from tests.solver.rule_checks import random_positions, where_it_fires_everywhere

WITHOUT = Prune.ALL & ~Prune.SHARED_BASE
EVERYWHERE = Sides.DEFAULT | Sides.SHARED_EVERY
RULE_21 = 21
"""What ``dead_end_rule`` answers for a position rule 21 finds lost."""
LOCKED_DEAL = 859
"""A draw-1 deal lost to the lock of rule 21's proof (the king of clubs
under the six of clubs, the red queens and the king of spades)."""
LOCKED_NODES = 4_000_000
POSITIONS = 1500
SEARCH_NODES = 20_000
CHECK_NODES = 100_000
STORED = Path(__file__).parent / "data" / "shared_base_positions.tsv"
STORED_POSITIONS = 32


def test_the_rule_cuts_the_search_of_a_locked_deal_tenfold() -> None:
    # (Rule 22 cuts it too, so it is off in both searches.)
    start = Position.initial(Deal.from_number(LOCKED_DEAL), Rules(draw=1))
    with_rule = solve(start, node_limit=LOCKED_NODES, shorten=False,
                      prune=Prune.ALL & ~Prune.SQUEEZE)
    without = solve(start, node_limit=LOCKED_NODES, shorten=False,
                    prune=WITHOUT & ~Prune.SQUEEZE)
    # (3.3 M nodes with it, 32.1 M without.)
    assert with_rule.result == "unsolvable"
    assert with_rule.fired[Prune.SHARED_BASE] > 10_000
    assert without.result == "unknown"
    assert without.fired[Prune.SHARED_BASE] == 0


def test_searches_with_the_rule_everywhere_keep_every_verdict() -> None:
    tally = where_it_fires_everywhere(random_positions(2153, POSITIONS), Prune.SHARED_BASE,
                                      EVERYWHERE, SEARCH_NODES)
    assert tally.wrong == []
    # (Seed 2153: the rule fired in 13 of the 1,500 searches, 2,955 times; 9
    # of those searches were decided by both, 1 of them lost.)
    assert tally.fired >= 10, tally
    assert tally.firings >= 2000, tally
    assert tally.decided >= 7, tally


def test_every_stored_position_the_rule_calls_lost_is_lost_without_it() -> None:
    # Positions where the rule fires at the root, found by random walks from
    # random deals (any recall, partial runs or not, draw 1 and 3) through
    # positions rules 8 and 20 pass: it is rare (33 of 81,613 positions in
    # one run of 60 walks, all of one deal), so they are stored.
    checked = 0
    for line in STORED.read_text().splitlines():
        if line.startswith("#"):
            continue
        rules_text, position_text = line.split("\t")
        position = Position.from_text(position_text, Rules.from_text(rules_text))
        assert _search.dead_end_rule(*core_arguments(position)) == RULE_21, position_text
        without = solve(position, node_limit=CHECK_NODES, shorten=False, prune=WITHOUT)
        assert without.result == "unsolvable", position_text
        checked += 1
    assert checked == STORED_POSITIONS
