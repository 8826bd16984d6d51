"""Auto finish near the history limit: offered only when the whole finish fits in the
moves the game has room for (both front ends read ``Session.auto_move``)."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, Move, Rules
from bonanza.session import NoAutoFinishError, Session, Status
from tests.web.deals import winning

KLONDIKE = Rules()


def at_the_finish(max_moves: int) -> tuple[Session, int]:
    """A winnable deal played, under a history limit of ``max_moves``, to where an
    unlimited game is first offered the auto finish; and how many moves that finish
    plays."""
    number, line = winning()
    session = Session.new(Deal.parse(number), KLONDIKE, 0.0, max_moves=max_moves)
    trial = Session.new(Deal.parse(number), KLONDIKE, 0.0)
    for move in line:
        if trial.auto_move() is not None:
            break
        trial.play(move, 0.0)
        session.play(move, 0.0)
    finish = trial.auto_finish(1.0)
    assert trial.status is Status.WON
    return session, len(finish)


def finish_line(session: Session) -> list[Move]:
    """The moves of the session's greedy auto finish, played on a copy."""
    trial = Session.from_json(session.to_json())
    return [event.move for event in trial.auto_finish(1.0) if event.move is not None]


def test_the_finish_is_offered_when_it_fits_in_the_room_left() -> None:
    played, finish = at_the_finish(10**6)
    session, _ = at_the_finish(played.game.move_count + finish)
    assert session.max_moves - session.game.move_count == finish
    assert session.auto_move() is not None
    session.auto_finish(1.0)
    assert session.status is Status.WON


def test_no_finish_is_offered_when_it_would_run_past_the_limit() -> None:
    played, finish = at_the_finish(10**6)
    line = finish_line(played)
    session, _ = at_the_finish(played.game.move_count + finish - 1)
    room = session.max_moves - session.game.move_count
    assert room == finish - 1 and session.status is Status.PLAYING
    assert session.auto_move() is None  # no offer: it would stop one move short
    assert not session.offer_finish(line, session.position)  # nor a solved line's
    assert session.auto_move() is None
    with pytest.raises(NoAutoFinishError, match=f"than the {room} moves this game has room for"):
        session.auto_step(1.0)
    assert session.game.move_count == played.game.move_count  # nothing was played
