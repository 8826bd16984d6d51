"""Rule 20, bare bases (search_locks.h, with the proof): a base whose kids
could never leave it again before it goes home takes none of them until then.

The rule runs only where it usually pays (a search's first position once it
is not decided at once, and after many dead-end tests), so these tests make
it run at every position (``Sides.BARE_EVERY``) or ask it directly
(``_search.dead_end_rule``), and count where it fired: every position it
calls lost must be lost to the search without it, and every verdict of a
search that uses it everywhere must be the verdict without it.
"""

from __future__ import annotations

import random

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Prune, Sides, _search, solve
from bonanza.solver.search import core_arguments
from tests.solver.rule_checks import random_positions, where_it_fires_everywhere

WITHOUT = Prune.ALL & ~Prune.BARE_BASES & ~Prune.CHAIN
"""The search without rule 20, nor rule 24, whose chain of facts holds rule 20's argument."""
EVERYWHERE = Sides.DEFAULT | Sides.BARE_EVERY
RULE_8, RULE_20 = 8, 20
"""What ``dead_end_rule`` answers for a position rule 8 or rule 20 finds lost."""
LOST_AT_ONCE = (509, 670)
"""Draw-1 deals that rule 20 proves lost at their start (rule 8 does not):
without it the search needs 28.6 M nodes for each (docs/solver.md)."""
START_NODES = 20_000
"""Rule 20 runs on the first position once the search has gone on a while
(the portfolio's second round): a deal so proved takes at most this many."""
WITHOUT_NODES = 1_000_000
POSITIONS = 1500
SEARCH_NODES = 20_000
WALKS = 80
WALK_MOVES = 300
CHECK_NODES = 100_000


def test_two_lost_deals_are_proved_lost_from_their_first_position() -> None:
    for number in LOST_AT_ONCE:
        start = Position.initial(Deal.from_number(number), Rules(draw=1))
        assert _search.dead_end_rule(*core_arguments(start)) == RULE_20
        with_rule = solve(start, node_limit=START_NODES, shorten=False)
        assert with_rule.result == "unsolvable", number
        assert with_rule.fired[Prune.BARE_BASES] == 1
        without = solve(start, node_limit=WITHOUT_NODES, shorten=False, prune=WITHOUT)
        assert without.result == "unknown", number
        assert without.fired[Prune.BARE_BASES] == 0


def test_a_search_tries_the_rule_where_it_keeps_finding_bare_bases() -> None:
    # Deal 59 (draw 1, the bench's) is lost; after 50,000 dead-end tests
    # the search tries the rule at its positions, and keeps finding them.
    start = Position.initial(Deal.from_number(59), Rules(draw=1, thoughtful=True))
    with_rule = solve(start, node_limit=WITHOUT_NODES, shorten=False)
    without = solve(start, node_limit=WITHOUT_NODES, shorten=False, prune=WITHOUT)
    assert with_rule.result == without.result == "unsolvable"
    # (156,556 nodes and 8,912 firings, against 435,601 nodes.)
    assert with_rule.fired[Prune.BARE_BASES] > 5000
    assert with_rule.nodes < 0.5 * without.nodes


def test_searches_with_the_rule_everywhere_keep_every_verdict() -> None:
    tally = where_it_fires_everywhere(random_positions(2052, POSITIONS), Prune.BARE_BASES,
                                      EVERYWHERE, SEARCH_NODES)
    assert tally.wrong == []
    # (Seed 2052: the rule fired in 99 of the 1,500 searches, 24,900 times;
    # 51 of those searches were decided by both, 13 of them lost.)
    assert tally.fired >= 80, tally
    assert tally.firings >= 18_000, tally
    assert tally.decided >= 40, tally
    assert tally.lost >= 10, tally


def test_every_position_the_rule_calls_lost_is_lost_without_it() -> None:
    # Random walks that step only to positions rule 8 passes, each child
    # asked: the rule's "lost" must never be a win of the search without it.
    rng = random.Random(2053)
    called = confirmed = walked = asked = 0
    wrong: list[str] = []
    for index in range(WALKS):
        position = Position.initial(Deal.from_number(rng.getrandbits(64)),
                                    Rules(draw=(1, 3)[index % 2]))
        for _ in range(WALK_MOVES):
            alive = []
            for move in position.legal_moves():
                child = position.copy()
                child.apply(move)
                rule = _search.dead_end_rule(*core_arguments(child))
                asked += 1
                if rule == RULE_20:
                    called += 1
                    without = solve(child, node_limit=CHECK_NODES, shorten=False, prune=WITHOUT)
                    confirmed += without.result == "unsolvable"
                    if without.solved:
                        wrong.append(f"{child.rules.to_text()} {child.to_text()}")
                elif rule != RULE_8:
                    alive.append(child)
            walked += 1
            if not alive:
                break
            position = rng.choice(alive)
    assert wrong == []
    # (Seed 2053: 23,723 steps, 129,754 positions asked, 83 called lost by
    # the rule, and all 83 proved lost without it within the nodes.)
    assert walked > WALKS * 200
    assert asked > 100_000
    assert called >= 65, called
    assert confirmed >= 0.9 * called, (confirmed, called)


def test_no_position_of_a_winning_line_is_called_lost() -> None:
    checked = 0
    for number in range(1, 41):
        for draw in (1, 3):
            start = Position.initial(Deal.from_number(number), Rules(draw=draw))
            result = solve(start, node_limit=SEARCH_NODES)
            if not result.solved:
                continue
            board = start.copy()
            for move in result.moves:
                assert _search.dead_end_rule(*core_arguments(board)) == 0, (number, draw)
                checked += 1
                board.apply(move)
    assert checked > 10_000  # (11,422: 40 deals, won in both draw modes or one)
