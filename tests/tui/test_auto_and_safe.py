"""The terminal's solver auto finish and safe auto-play setting, through Textual's Pilot."""

from __future__ import annotations

import pytest

from bonanza.core import Deal
from bonanza.session import Session, Status, messages
from bonanza.storage import SQLiteStorage
from bonanza.storage.player_settings import safe_home
from bonanza.tui.words import SAFE_HOME_OFF, SAFE_HOME_ON
from tests.session.test_auto_finish_solver import late_known_session
from tests.session.test_safe_home import KLONDIKE, triggering_move
from tests.tui.test_session_play import PLAYER, SIZE, FakeAdvisor, app_on, message, settle

pytestmark = pytest.mark.anyio


async def test_a_solves_the_finish_in_a_worker_and_wins(storage: SQLiteStorage) -> None:
    session = late_known_session(5)  # the greedy finish is not offered there
    assert session.auto_move() is None
    app = app_on(storage, start=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await settle(app, pilot)
        for _ in range(2_000):
            if app.session.status is not Status.PLAYING:
                break
            await pilot.pause(0.01)
        assert app.session.status is Status.WON and app.game.is_won


async def test_o_switches_safe_auto_play_which_is_kept_and_one_undo_takes_it_back(
    storage: SQLiteStorage,
) -> None:
    number, history, move, sent = triggering_move(1)
    session = Session.new(Deal.parse(number), KLONDIKE, 0.0)
    for played in history:
        session.play(played, 0.0)
    app = app_on(storage, start=session)
    async with app.run_test(size=SIZE) as pilot:
        assert not app.session.safe.on
        await pilot.press("o")
        assert app.session.safe.on and SAFE_HOME_ON in message(app)
        assert safe_home(storage, PLAYER)
        app.play(move)
        assert app.game.move_count == len(history) + 1 + sent
        assert "sent home safely" in message(app)
        await pilot.press("u")
        assert app.game.move_count == len(history)
    again = app_on(storage)
    async with again.run_test(size=SIZE) as pilot:
        assert again.session.safe.on  # the stored setting, on the resumed game
        await pilot.press("o")
        assert not again.session.safe.on and SAFE_HOME_OFF in message(again)
    assert not safe_home(storage, PLAYER)


async def test_at_the_history_limit_a_hint_is_refused_in_the_webs_words(
    storage: SQLiteStorage,
) -> None:
    limit = 3
    advisor = FakeAdvisor()
    app = app_on(
        storage,
        start=Session.new(Deal.from_number(7), KLONDIKE, 0.0, max_moves=limit),
        advisor=advisor,
    )
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(limit):
            await pilot.press("space")  # draw
        await settle(app, pilot)
        assert app.game.move_count == limit
        await pilot.press("h")
        await settle(app, pilot)
        words = f"this game has reached its limit of {limit} moves: start a new one"
        assert message(app) == messages.refusal(words)
        assert advisor.hints == 0  # no search was run
