"""The clock stands while the game is off screen (``PlayClock.pause``), and runs
on from when it is back (``resume``) or from the next action."""

from __future__ import annotations

from bonanza.core import Deal, Rules, Scoring
from bonanza.play.idle import last_action
from bonanza.session import Session
from bonanza.session.clock import IDLE_CAP, PlayClock

START = 1_000.0


def running(played: float) -> PlayClock:
    """A clock started at ``START`` and touched ``played`` seconds later."""
    clock = PlayClock()
    clock.touch(START)
    clock.touch(START + played)
    return clock


def test_a_paused_clock_stands_and_resumes_from_the_resume() -> None:
    clock = running(10.0)
    assert clock.pause(START + 15.0)
    assert clock.read(START + 15.0) == 15.0  # 10 played, 5 since the last action
    assert clock.read(START + 10_000.0) == 15.0  # stands, however long
    assert clock.idle_left(START + 10_000.0) == 0.0
    clock.resume(START + 10_000.0)
    assert clock.read(START + 10_007.0) == 22.0
    assert clock.idle_left(START + 10_007.0) == IDLE_CAP - 7.0
    assert clock.last_active == START + 10.0  # the last action is still the last action


def test_an_action_resumes_a_paused_clock() -> None:
    clock = running(10.0)
    clock.pause(START + 10.0)
    clock.touch(START + 500.0)
    assert not clock.paused and clock.read(START + 503.0) == 13.0


def test_pause_does_nothing_before_the_first_move_or_after_the_end() -> None:
    assert not PlayClock().pause(START)
    ended = running(10.0)
    ended.stop(START + 10.0)
    assert not ended.pause(START + 20.0) and ended.read(START + 99.0) == 10.0
    twice = running(10.0)
    assert twice.pause(START + 10.0) and not twice.pause(START + 30.0)


def test_a_timed_clock_never_pauses() -> None:
    session = Session.new(Deal.from_number(7), Rules(scoring=Scoring.TIMED), START)
    assert not session.clock.pause(START + 10.0)
    assert session.elapsed(START + 40.0) == 40.0


def test_pause_survives_saving_and_older_saves_are_not_paused() -> None:
    session = Session.new(Deal.from_number(7), Rules(), START)
    session.draw(START)
    session.draw(START + 10.0)
    session.clock.pause(START + 12.0)
    again = Session.from_json(session.to_json())
    assert again.clock.paused and again.elapsed(START + 900.0) == 12.0
    again.clock.resume(START + 900.0)
    back = Session.from_json(again.to_json())
    assert back.elapsed(START + 903.0) == 15.0
    older = session.to_json()
    del older["clock"]["paused"], older["clock"]["resumed_at"]
    assert not Session.from_json(older).clock.paused


def test_an_idle_game_ends_at_its_last_action_not_at_its_pause() -> None:
    from bonanza.storage.records import GameRecord

    session = Session.new(Deal.from_number(7), Rules(), START)
    session.draw(START + 5.0)
    session.clock.pause(START + 30.0)
    record = GameRecord.of("g", "p", session, START + 30.0)
    assert last_action(record, session) == START + 5.0
