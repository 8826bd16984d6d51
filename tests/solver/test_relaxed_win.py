"""Rule 11's side search ended by a draw-1 win without recall (``Sides.RELAXED_WIN``).

Rule 11's search (the position with draw 1 and unlimited passes) decides only
by "lost"; a draw-1 win found by the search without recall beside it shows it
never will, and both end. That changes no verdict, only the nodes spent."""

from __future__ import annotations

import random

import pytest

from bonanza.core import Deal, Position, Rules
from bonanza.solver import Sides, solve
from tests.solver.test_core import early_position

WITHOUT = Sides.DEFAULT & ~Sides.RELAXED_WIN


def test_a_draw_1_win_without_recall_ends_rule_11s_search_and_decides_sooner() -> None:
    # Draw-3 deal 409 is lost, and won with draw 1: rule 11's search can never
    # prove it lost, yet took 414,000 of its 593,000 nodes. With its search ended
    # early, the exact search proves it lost in 263,000.
    position = Position.initial(Deal.from_number(409), Rules(draw=3))
    quick = solve(position, node_limit=350_000, shorten=False)
    slow = solve(position, node_limit=350_000, shorten=False, sides=WITHOUT)
    assert quick.result == "unsolvable" and quick.relaxed_ended == 1
    assert slow.result == "unknown" and slow.relaxed_ended == 0


def test_without_recall_in_the_rules_there_is_nothing_to_end() -> None:
    # Rule 11's search is then already without recall.
    position = Position.initial(Deal.from_number(409), Rules(draw=3, recall=False))
    assert solve(position, node_limit=100_000, shorten=False).relaxed_ended == 0


@pytest.mark.parametrize("seed", range(2))
def test_ending_rule_11s_search_keeps_verdicts(seed: int) -> None:
    """Started at once, against the side searches without it, on early
    positions of random deals with a draw of 2 or 3, recall on: the same
    verdicts, and it ends rule 11's search in some (2 of 200 in each seed).
    (Rule 11's search usually finds a draw-1 win first by itself.)"""
    rng = random.Random(5800 + seed)
    checked = ended = 0
    while checked < 200:
        position = early_position(rng, Rules(draw=rng.choice((2, 3))))
        with_it = solve(position, node_limit=60_000, shorten=False,
                        sides=Sides.DEFAULT | Sides.AT_ONCE)
        without = solve(position, node_limit=60_000, shorten=False,
                        sides=WITHOUT | Sides.AT_ONCE)
        if "unknown" in (with_it.result, without.result):
            continue
        assert with_it.result == without.result, position.to_text()
        assert without.relaxed_ended == 0
        checked += 1
        ended += with_it.relaxed_ended
    assert ended > 0
