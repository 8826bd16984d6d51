"""The terminal's "still winnable?" (asked, confirmed, answered; the game marked
assisted) and its review of a lost game, driven through Textual's Pilot."""

from __future__ import annotations

import threading

import pytest

from bonanza.core import Position, Rules
from bonanza.session import Session, Status
from bonanza.session.winnable import ANSWERS, ASSISTED, CONFIRM, LABEL
from bonanza.storage import SQLiteStorage
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.help_screen import HelpScreen
from bonanza.tui.new_deal_screen import NewDealChoice
from bonanza.tui.review_screen import ReviewScreen
from bonanza.tui.stats_screen import StatsScreen
from bonanza.tui.words import NO_REVIEW, REVIEW_OFFER
from tests.tui.test_session_play import SIZE, app_on, message, settle, status

pytestmark = pytest.mark.anyio

ONE_PASS = Rules.preset("vegas-1")


def stored(storage: SQLiteStorage, game_id: str) -> Session:
    record = storage.get_game(game_id)
    assert record is not None
    return Session.from_json(record.state)


async def test_w_asks_first_then_answers_and_marks_the_game_assisted(
    storage: SQLiteStorage,
) -> None:
    app = app_on(storage, start=NewDealChoice(Rules(), "0"))  # the real solver: deal 0 wins
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("W")
        screen = app.screen
        assert isinstance(screen, ConfirmScreen)
        assert LABEL in screen.question and CONFIRM in screen.question
        await pilot.press("n")  # no: nothing is looked at
        assert not isinstance(app.screen, ConfirmScreen)
        assert not app.session.assisted and ASSISTED not in status(app)
        await pilot.press("W", "y")
        await settle(app, pilot)
        assert message(app) == ANSWERS["winnable"]
        assert app.session.assisted and ASSISTED in status(app)
        assert stored(storage, app.record.id).assisted  # written at once
        await pilot.press("space", "W")  # asked again: no second question
        assert not isinstance(app.screen, ConfirmScreen)
        await settle(app, pilot)
        assert message(app) == ANSWERS["winnable"]


async def test_a_lost_position_says_lost_and_names_no_card(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=NewDealChoice(ONE_PASS, "0"))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(24):  # the whole stock drawn at once, in the only pass
            app.action_draw()
        app.action_winnable()
        await pilot.press("y")
        await settle(app, pilot)
        assert message(app) == ANSWERS["lost"]


async def test_assisted_games_are_counted_apart_in_the_stats_screen(
    storage: SQLiteStorage,
) -> None:
    app = app_on(storage, start=NewDealChoice(Rules(), "0"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "W", "y")
        await settle(app, pilot)
        app.new_game(NewDealChoice(Rules(), "1"))  # the assisted game counts as lost
        assert REVIEW_OFFER in message(app)
        await pilot.press("s")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        text = screen.text()
        assert "Assisted games" in text and "Played 1" in text
        assert screen.chosen == []  # a typed deal, but assisted: only counted apart


async def test_v_reviews_the_lost_game(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=NewDealChoice(ONE_PASS, "0"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        assert message(app) == NO_REVIEW
        for _ in range(24):
            app.action_draw()
        lost = app.session
        app.new_game(NewDealChoice(Rules(), "1"))
        assert lost.status is Status.LOST and app.reviewer.lost is lost
        await pilot.press("v")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        text = screen.text()
        assert "The deal was lost at move" in text and "A line that wins" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)


async def test_help_lists_the_labelled_question(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=NewDealChoice(Rules(), "0"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        assert LABEL in " ".join(screen.text().split())


async def test_the_judge_runs_off_the_ui_thread(storage: SQLiteStorage) -> None:
    threads: list[threading.Thread] = []

    def judge(position: Position) -> str:
        threads.append(threading.current_thread())
        return "unknown"

    app = app_on(storage, start=NewDealChoice(Rules(), "0"), judge=judge)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("W", "y")
        await settle(app, pilot)
        assert message(app) == ANSWERS["unknown"]
    assert threads and threads[0] is not threading.main_thread()
