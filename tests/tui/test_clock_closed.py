"""The clock counts only the time the game is on screen: closing the program
stops it, reopening starts it again (a timed game's clock runs on: every
second counts there)."""

from __future__ import annotations

import pytest

from bonanza.core import Rules, Scoring
from bonanza.session import Session
from bonanza.storage import SQLiteStorage
from tests.tui.test_session_play import SIZE, Clock, app_on, status, typed

pytestmark = pytest.mark.anyio

PLAYED = 20.0
"""Seconds of play before closing."""
AWAY = 50.0
"""Seconds the program stays closed: under the 60 s a pause between actions counts."""


def stored_elapsed(storage: SQLiteStorage, game_id: str, now: float) -> float:
    record = storage.get_game(game_id)
    assert record is not None
    return Session.from_json(record.state).elapsed(now)


async def test_time_with_the_program_closed_does_not_count(storage: SQLiteStorage) -> None:
    clock = Clock()
    app = app_on(storage, start=typed(7), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # the clock starts
        clock.now += PLAYED
        await pilot.press("space")
        assert app.session.elapsed(clock.now) == PLAYED
    clock.now += AWAY  # closed
    assert stored_elapsed(storage, app.record.id, clock.now) == PLAYED
    again = app_on(storage, clock=clock)
    async with again.run_test(size=SIZE) as pilot:
        assert again.record.id == app.record.id
        assert again.session.elapsed(clock.now) == PLAYED  # not PLAYED + AWAY
        assert status(again).endswith("0:20")
        clock.now += 5  # on screen: it runs again
        assert again.session.elapsed(clock.now) == PLAYED + 5
        await pilot.press("space")
    assert stored_elapsed(storage, app.record.id, clock.now) == PLAYED + 5


async def test_a_timed_games_clock_runs_on_while_closed(storage: SQLiteStorage) -> None:
    clock = Clock()
    rules = Rules(scoring=Scoring.TIMED)
    app = app_on(storage, start=typed(7, rules), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        start = app.session.elapsed(clock.now)
    clock.now += AWAY
    again = app_on(storage, clock=clock)
    async with again.run_test(size=SIZE):
        assert again.session.elapsed(clock.now) == start + AWAY
