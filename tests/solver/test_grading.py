"""Grading winnable deals: only proven wins are graded, and the measure orders them."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, Position, Rules
from bonanza.core.view import visible_cards
from bonanza.solver import SolveResult, grading, solve
from bonanza.solver.grading import (
    AT_WILL_THRESHOLDS,
    CHECKPOINTS,
    DOWN_CHECKPOINTS,
    THRESHOLDS,
    Grade,
    checkpoint_views,
    grade_deal,
    grade_of,
)
from bonanza.solver.lines import clean_line

EASY_DEAL = 0
"""Draw 1: nearly every layout that fits what the player sees is won."""
HARD_DEAL = 25
"""Draw 1: about a third of those layouts are lost or undecided."""
DRAW_3_PAIR = (9, 17)
"""Draw 3: an easy deal and a hard one."""


@pytest.mark.parametrize(
    ("draw", "easy_number", "hard_number"), [(1, EASY_DEAL, HARD_DEAL), (3, *DRAW_3_PAIR)]
)
def test_an_easy_deal_grades_below_a_hard_one_by_its_measure(
    draw: int, easy_number: int, hard_number: int
) -> None:
    rules = Rules(draw=draw)
    easy = grade_deal(Deal.from_number(easy_number), rules)
    hard = grade_deal(Deal.from_number(hard_number), rules)
    assert easy is not None and hard is not None
    assert easy.measure > hard.measure
    assert (easy.grade, hard.grade) == (Grade.EASY, Grade.HARD)
    again = grade_deal(Deal.from_number(hard_number), rules)  # seeded by the deal
    assert again == hard


def test_only_a_proven_win_is_graded(monkeypatch: pytest.MonkeyPatch) -> None:
    lost = Deal.from_number(3)  # proven lost with draw 3 and one pass
    assert grade_deal(lost, Rules(draw=3, passes=1)) is None
    # A search cut short proves nothing: "unknown" is never winnable.
    cut_short = SolveResult("unknown", [], nodes=10, seconds=1.0, limit="time")
    monkeypatch.setattr(grading, "solve", lambda *args, **kwargs: cut_short)
    assert grade_deal(Deal.from_number(EASY_DEAL), Rules(draw=1)) is None


def test_grading_stops_when_asked() -> None:
    assert grade_deal(Deal.from_number(EASY_DEAL), Rules(draw=1), stopping=lambda: True) is None


def test_grades_cut_the_measure_in_order() -> None:
    for rules, cuts in (
        (Rules(draw=1), AT_WILL_THRESHOLDS),
        (Rules(draw=3), THRESHOLDS),
        (Rules(draw=1, passes=3), THRESHOLDS),  # the stock is not there at will
    ):
        hard_below, easy_from = cuts
        assert grade_of(0.0, rules) is Grade.HARD
        assert grade_of(hard_below, rules) is Grade.MEDIUM
        assert grade_of((hard_below + easy_from) / 2, rules) is Grade.MEDIUM
        assert grade_of(easy_from, rules) is Grade.EASY
        assert grade_of(1.0, rules) is Grade.EASY


def test_layouts_are_drawn_at_the_deal_and_along_the_winning_line() -> None:
    """With draw 3, by the cards not seen yet; with draw 1 and unlimited passes,
    by the face-down cards (the stock can be seen at will)."""
    deal = Deal.from_number(EASY_DEAL)
    for rules, marks in ((Rules(draw=3), CHECKPOINTS), (Rules(draw=1), DOWN_CHECKPOINTS)):
        start = Position.initial(deal, rules)
        line = clean_line(start, solve(start).moves)
        views = checkpoint_views(start, line)
        assert len(views) == len(marks)
        if marks is CHECKPOINTS:
            hidden = [len(view.unseen) for view in views]
            assert hidden[0] == 52 - len(visible_cards(start))
        else:
            hidden = [sum(view.down) for view in views]
            assert hidden[0] == sum(start.down) == 21
        assert hidden == sorted(hidden, reverse=True)
        for share, count in zip(marks, hidden, strict=True):
            assert count <= share * hidden[0]
