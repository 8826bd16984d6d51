"""A game resumed where an auto finish can win offers it at once, as a move there would."""

from __future__ import annotations

import pytest

from bonanza.storage import SQLiteStorage
from bonanza.tui.words import AUTO_OFFER, RESUMED
from tests.session.test_auto_finish_solver import late_known_session
from tests.tui.test_session_play import (
    SIZE,
    app_on,
    message,
    play_until_auto,
    settle,
    winning_deal,
)

pytestmark = pytest.mark.anyio


async def test_a_stored_game_that_can_be_finished_offers_the_finish_when_resumed(
    storage: SQLiteStorage,
) -> None:
    deal, line = winning_deal()
    app = app_on(storage, random_deals=lambda: deal)
    async with app.run_test(size=SIZE):
        play_until_auto(app, line)
        assert AUTO_OFFER in message(app)
    again = app_on(storage)  # the program opened again: the game comes from the store
    async with again.run_test(size=SIZE):
        assert again.record.id == app.record.id
        assert message(again) == f"{RESUMED}\n{AUTO_OFFER}"


async def test_a_saved_game_the_solver_can_finish_offers_it_when_resumed(
    storage: SQLiteStorage,
) -> None:
    session = late_known_session(5)  # every card known, the greedy finish not offered
    assert session.auto_move() is None
    app = app_on(storage, start=session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)  # the finisher's solve, in its worker
        assert message(app) == f"{RESUMED}\n{AUTO_OFFER}"
