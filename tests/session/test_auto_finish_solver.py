"""Auto finish by an injected finisher: offered where the greedy finish is not, and wins."""

from __future__ import annotations

import random

import pytest

from bonanza.core import Deal, Rules
from bonanza.session import Action, Session, Status
from bonanza.session.autofinish import finish_plan
from bonanza.session.errors import NoAutoFinishError
from bonanza.solver.advisor import SolverAdvisor

THOUGHTFUL_3 = Rules(draw=3, thoughtful=True)


def late_known_session(seed: int) -> Session:
    """A thoughtful draw-3 game played at random until the solver can finish it
    and the greedy finish cannot (as ``tests/solver/test_finish.late_positions``)."""
    rng = random.Random(seed)
    finisher = SolverAdvisor()
    for number in range(100):
        session = Session.new(Deal.from_number(number), THOUGHTFUL_3, 0.0)
        for step in range(160):
            moves = session.position.legal_moves()
            if not moves or session.is_over:
                break
            home = [m for m in moves if m.dest.is_foundation]
            session.play(rng.choice(home if home and rng.random() < 0.7 else moves), 0.0)
            late = step > 60 and rng.random() < 0.1 and not session.is_over
            greedy_fails = late and finish_plan(session.position) is None
            if greedy_fails and finisher.finish(session.board_view()):
                return session
    raise AssertionError("no late position found")


def test_the_solver_finishes_where_the_greedy_finish_is_not_offered() -> None:
    session = late_known_session(5)
    assert session.auto_move() is None  # the greedy finish would stall: not offered
    line = SolverAdvisor().finish(session.board_view())
    assert line is not None
    assert session.offer_finish(line, session.position)
    assert session.auto_move() == line[0]
    events = session.auto_finish(1.0)
    assert [e.move for e in events] == line
    assert all(e.action is Action.AUTO for e in events)
    assert events[-1].won and session.status is Status.WON


def test_an_offered_line_is_kept_only_for_its_position() -> None:
    session = late_known_session(5)
    start = session.position
    line = SolverAdvisor().finish(session.board_view())
    assert line is not None
    assert not session.offer_finish(line[1:], start)  # does not replay to a win
    other = next(m for m in start.legal_moves() if m != line[0])
    session.play(other, 1.0)
    assert not session.offer_finish(line, start)  # the game has moved on
    session.undo(2.0)
    assert session.position == start and session.offer_finish(line, start)
    session.play(other, 3.0)
    assert session.auto_move() != line[0] or finish_plan(session.position) is not None
    session.undo(4.0)
    assert session.auto_move() == line[0]  # back where the line starts


def test_a_thoughtful_deal_is_offered_no_finish_before_its_first_move() -> None:
    """Issue 35: all face up, a whole deal would be won with one key at move 0."""
    session = Session.new(Deal.from_number(7), THOUGHTFUL_3, 0.0)
    line = SolverAdvisor().finish(session.board_view())
    assert line is not None  # deal 7 is won from the deal
    assert session.offer_finish(line, session.position)
    assert session.auto_move() is None
    with pytest.raises(NoAutoFinishError, match="after your first move"):
        session.auto_finish(1.0)
    session.play(line[0], 1.0)  # the player's own first move: then it is offered
    assert session.offer_finish(line[1:], session.position)
    assert session.auto_move() == line[1]
