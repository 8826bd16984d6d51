"""Rule 22, a squeeze at a first move (search_squeeze.h, with the proof): where
more cards must lie on bases at some card's first move than the bases that
can have been uncovered by then can hold, the position is lost.

The rule runs only where it usually pays (a search's first position once it
is not decided at once, and after many dead-end tests on two cards a test),
so these tests make it run at every position (``Sides.SQUEEZE_EVERY``) or
ask it directly (``_search.dead_end_rule``), and count where it fired: every
position it calls lost must be lost to the search without it, and every
verdict of a search that uses it everywhere must be the verdict without it.
(tests/solver/test_bare_bases.py also asks it at every position of winning
lines: it calls none lost.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Prune, Sides, _search, solve
from bonanza.solver.search import core_arguments
from tests.solver.rule_checks import where_it_fires_everywhere

WITHOUT = Prune.ALL & ~Prune.SQUEEZE
EVERYWHERE = Sides.DEFAULT | Sides.SQUEEZE_EVERY
RULE_22 = 22
"""What ``dead_end_rule`` answers for a position rule 22 finds lost."""
SQUEEZED_DEAL = 225
"""A draw-1 deal rule 22 proves lost at its start: the six of diamonds never
moves (docs/solver.md); without the rule the search needs 30.8 M nodes."""
START_NODES = 20_000
WITHOUT_NODES = 1_000_000
SEARCH_NODES = 20_000
WALKS = 60
WALK_MOVES = 300
CONFIRM_EVERY = 4
CHECK_NODES = 100_000


def test_a_lost_deal_is_proved_lost_from_its_first_position() -> None:
    start = Position.initial(Deal.from_number(SQUEEZED_DEAL), Rules(draw=1))
    assert _search.dead_end_rule(*core_arguments(start)) == RULE_22
    with_rule = solve(start, node_limit=START_NODES, shorten=False)
    assert with_rule.result == "unsolvable"
    assert with_rule.fired[Prune.SQUEEZE] == 1
    without = solve(start, node_limit=WITHOUT_NODES, shorten=False, prune=WITHOUT)
    assert without.result == "unknown"
    assert without.fired[Prune.SQUEEZE] == 0


def _walks(seed: int, walks: int) -> Iterator[tuple[Position, list[Position]]]:
    """Random walks from random deals (any recall, runs rule and draw) that
    step only to positions rules 8 and 20 to 22 pass: each position, with
    its children rule 22 calls lost at their root."""
    rng = random.Random(seed)
    for index in range(walks):
        rules = Rules(draw=(1, 3)[index % 2], recall=rng.random() < 0.75,
                      partial_runs=rng.random() < 0.8)
        position = Position.initial(Deal.from_number(rng.getrandbits(64)), rules)
        for _ in range(WALK_MOVES):
            alive, squeezed = [], []
            for move in position.legal_moves():
                child = position.copy()
                child.apply(move)
                rule = _search.dead_end_rule(*core_arguments(child))
                if rule == RULE_22:
                    squeezed.append(child)
                elif rule == 0:
                    alive.append(child)
            yield position, squeezed
            if not alive:
                break
            position = rng.choice(alive)


def test_searches_with_the_rule_everywhere_keep_every_verdict() -> None:
    # The positions of random walks with a child the rule calls lost.
    positions = (position for position, squeezed in _walks(2253, WALKS) if squeezed)
    tally = where_it_fires_everywhere(positions, Prune.SQUEEZE, EVERYWHERE, SEARCH_NODES)
    assert tally.wrong == []
    # (Seed 2253: 209 such positions, the rule fired in every search, 647
    # times; all 209 decided by both, 203 lost and 6 won.)
    assert tally.fired >= 180, tally
    assert tally.firings >= 500, tally
    assert tally.decided >= 180, tally
    assert tally.decided - tally.lost >= 3, tally


def test_every_position_the_rule_calls_lost_is_lost_without_it() -> None:
    # Every CONFIRM_EVERY-th position the rule calls lost is searched without it.
    called = searched = confirmed = 0
    wrong: list[str] = []
    for _, squeezed in _walks(2254, WALKS):
        for child in squeezed:
            called += 1
            if called % CONFIRM_EVERY:
                continue
            searched += 1
            without = solve(child, node_limit=CHECK_NODES, shorten=False, prune=WITHOUT)
            confirmed += without.result == "unsolvable"
            if without.solved:
                wrong.append(f"{child.rules.to_text()} {child.to_text()}")
    assert wrong == []
    # (Seed 2254: 312 positions called lost; of the 78 searched, all 78 proved
    # lost without the rule within the nodes.)
    assert called >= 250, called
    assert searched >= 60 and confirmed == searched, (searched, confirmed)
