"""The terminal's new-deal screen offers what the web's does, through bonanza.play:
a winnable deal of a grade, today's daily deal, a share code, the same deal
again; a deal that cannot be dealt is said on the message line, and the table
keeps its game."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from bonanza.core import Deal, Rules
from bonanza.play.chosen_deals import NONE_READY
from bonanza.session import Origin, Status
from bonanza.solver.grading import Grade
from bonanza.storage import SQLiteStorage
from bonanza.tui.deal_choice import NewDealChoice, read_deal_box
from tests.tui.stocked import TODAY, Clock, choose_kind, stock_deal
from tests.tui.test_session_play import SIZE, app_on, message, status, typed

pytestmark = pytest.mark.anyio

async def test_a_winnable_deal_of_a_grade_then_none_ready(storage: SQLiteStorage) -> None:
    stock_deal(storage, 9, Grade.HARD)
    app = app_on(storage, start=typed(7), clock=Clock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await choose_kind(app, pilot, "hard")
        assert screen.query_one("#deal", Input).disabled  # the deal box is for any deal
        await pilot.press("enter")
        assert message(app) == "New winnable deal, hard"
        record = app.record
        assert record.deal == Deal.from_number(9).id and record.origin is Origin.WINNABLE
        assert record.extra["grade"] == "hard" and record.client == "terminal"
        assert "Deal 9" not in status(app)  # never the deal while it is played
        await choose_kind(app, pilot, "easy")
        await pilot.press("enter")
        assert " ".join(message(app).split()) == NONE_READY  # play's sentence, as it is
        assert app.record.id == record.id and app.session.status is Status.PLAYING


async def test_winnable_deals_are_klondikes_only(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7, Rules.preset("westcliff")))
    async with app.run_test(size=SIZE) as pilot:
        screen = await choose_kind(app, pilot, "medium")
        await pilot.press("enter")
        assert app.screen is screen  # it stays open, and says why
        problem = str(screen.query_one("#problem", Static).render())
        assert problem.startswith("Winnable and daily deals are dealt for Klondike only")


async def test_the_same_deal_again_replays_the_last_game(storage: SQLiteStorage) -> None:
    vegas = Rules.preset("vegas-3")
    app = app_on(storage, start=typed(123, vegas))
    async with app.run_test(size=SIZE) as pilot:
        first = app.record
        await pilot.press("space")
        await choose_kind(app, pilot, "replay")
        await pilot.press("enter")
        assert app.record.id != first.id and app.record.deal == first.deal
        assert app.session.rules == vegas and app.record.origin is Origin.REPLAY
        assert app.game.move_count == 0
    ended = storage.get_game(first.id)
    assert ended is not None and ended.status is Status.LOST


async def test_the_daily_deal_not_ready_keeps_the_game(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7), clock=Clock())
    async with app.run_test(size=SIZE) as pilot:
        first = app.record.id
        await choose_kind(app, pilot, "daily")
        await pilot.press("enter")
        said = " ".join(message(app).split())
        assert said.startswith(f"The daily deal of {TODAY} is not ready yet")
        assert app.record.id == first and app.session.status is Status.PLAYING


def test_the_deal_box_reads_deals_and_share_codes() -> None:
    rules = Rules()
    assert read_deal_box(" 7 ", rules) == NewDealChoice(rules, "7")
    assert read_deal_box("", rules) == NewDealChoice(rules)
    assert read_deal_box("Ab3-_xY9zQ0w", rules) == NewDealChoice(rules, share="Ab3-_xY9zQ0w")
    link = "http://localhost:8000/?share=Ab3-_xY9zQ0w"
    assert read_deal_box(link, rules) == NewDealChoice(rules, share="Ab3-_xY9zQ0w")
    assert read_deal_box("123456789012", rules) == NewDealChoice(rules, "123456789012")
    for empty in ("http://localhost:8000/?share=", "/?share= &x=1"):  # before: "not found"
        assert read_deal_box(empty, rules) == "That share link names no deal."
    problem = read_deal_box("abc", rules)
    assert isinstance(problem, str) and "is not a deal" in problem
