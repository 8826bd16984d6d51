"""Ending games left in play (``bonanza.play.idle``), as leaving them ends them."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, Rules
from bonanza.core.errors import SaveError
from bonanza.play.idle import ended_if_idle, last_action
from bonanza.session import Session, Status
from bonanza.storage.records import GameRecord

CREATED = 1_000.0
DAY = 86_400.0


def stored(*move_times: float) -> GameRecord:
    """A game of deal 7 created at ``CREATED``, one draw played at each time, as stored."""
    session = Session.new(Deal.from_number(7), Rules(), CREATED)
    for at in move_times:
        session.play("sw", at)
    return GameRecord.of("g", "ann", session, move_times[-1] if move_times else CREATED)


def test_a_game_played_and_left_is_lost_at_its_last_move() -> None:
    record = stored(CREATED + 10, CREATED + 40)
    ended = ended_if_idle(record, CREATED + DAY)
    assert ended is not None
    assert (ended.status, ended.finished_at, ended.version) == (
        Status.LOST, CREATED + 40, record.version + 1,
    )
    assert ended.elapsed == pytest.approx(30.0)  # the time stands where the player left
    assert Session.from_json(ended.state).status is Status.LOST


def test_a_game_left_before_any_move_is_abandoned_when_created() -> None:
    record = stored()
    ended = ended_if_idle(record, CREATED + DAY)
    assert ended is not None
    assert (ended.status, ended.finished_at, ended.moves) == (Status.ABANDONED, CREATED, 0)


def test_a_game_played_since_the_cutoff_is_left_alone() -> None:
    record = stored(CREATED + 10, CREATED + 2 * DAY)
    assert last_action(record, Session.from_json(record.state)) == CREATED + 2 * DAY
    assert ended_if_idle(record, CREATED + DAY) is None
    assert ended_if_idle(record, CREATED + 3 * DAY) is not None


def test_a_game_over_already_is_left_alone() -> None:
    record = stored(CREATED + 10)
    ended = ended_if_idle(record, CREATED + DAY)
    assert ended is not None
    assert ended_if_idle(ended, CREATED + 2 * DAY) is None


def test_a_state_that_cannot_be_read_is_a_save_error() -> None:
    record = stored(CREATED + 10)
    record.state = {"format": "bonanza-session", "version": -1}
    with pytest.raises(SaveError):
        ended_if_idle(record, CREATED + DAY)
