"""A win opens the win screen: time, score, moves, the records it set, "first win"."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from textual.widgets import Static

from bonanza.core import Deal, Move, Rules, Scoring, format_move
from bonanza.session import Session, Status
from bonanza.storage import SQLiteStorage
from bonanza.storage.records import GameRecord
from bonanza.tui.app import BonanzaApp
from bonanza.tui.new_deal_screen import NewDealScreen
from bonanza.tui.stats_screen import StatsScreen
from bonanza.tui.status_bar import clock_text
from bonanza.tui.win_screen import (
    CHOSEN_APART,
    FIRST_WIN,
    THOUGHTFUL_APART,
    WinFacts,
    WinScreen,
    record_lines,
)
from tests.tui.test_session_play import PLAYER, SIZE, Clock, app_on, typed, winning_deal

pytestmark = pytest.mark.anyio

SLOW = 10_000.0
"""Seconds of an earlier win, beaten by any quick one."""
MANY_MOVES = 999
OTHER_DEAL = 123_456


async def play_to_the_win(app: BonanzaApp, pilot: Any, line: list[Move]) -> None:
    """Play ``line``: all but the last move through the app, the last typed."""
    for move in line[:-1]:
        app.play(move)
    await pilot.press("colon")
    await pilot.press(*format_move(line[-1]), "enter")


def earlier_win() -> GameRecord:
    """A stored headline win of the same rules, of another deal: slow, in many moves."""
    session = Session.new(Deal.from_number(OTHER_DEAL), Rules(), 1.0)
    record = GameRecord.of("earlier", PLAYER, session, 1.0, client="terminal")
    return dataclasses.replace(
        record, status=Status.WON, elapsed=SLOW, moves=MANY_MOVES, score=0, finished_at=2.0
    )


async def test_a_first_win_shows_time_score_moves_and_first_win_and_n_deals_again(
    storage: SQLiteStorage,
) -> None:
    deal, line = winning_deal()
    clock = Clock()
    app = app_on(storage, random_deals=lambda: deal, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_win(app, pilot, line)
        screen = app.screen
        assert isinstance(screen, WinScreen)
        text = screen.text()
        assert text.startswith("You won!")
        assert FIRST_WIN in text
        assert f"Moves {app.game.move_count}" in text
        assert f"Score {app.session.score(clock.now)}" in text
        assert f"Time {clock_text(app.session.elapsed(clock.now))}" in text
        assert f"Deal {deal.id}" in text  # the game is over: the deal is no secret
        await pilot.press("n")
        assert isinstance(app.screen, NewDealScreen)  # over: no question first


async def test_a_win_names_the_records_it_beats_and_esc_closes(storage: SQLiteStorage) -> None:
    deal, line = winning_deal()
    storage.insert_game(earlier_win())
    app = app_on(storage, random_deals=lambda: deal, clock=Clock())
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_win(app, pilot, line)
        screen = app.screen
        assert isinstance(screen, WinScreen)
        text = screen.text()
        assert f"New record: best time 0:00 (was {clock_text(SLOW)})" in text
        assert f"New record: fewest moves {len(line)} (was {MANY_MOVES})" in text
        assert FIRST_WIN not in text
        await pilot.press("escape")
        assert not isinstance(app.screen, WinScreen)
        assert app.session.status is Status.WON


async def test_a_chosen_deal_says_it_counts_apart_and_enter_closes(
    storage: SQLiteStorage,
) -> None:
    deal, line = winning_deal()
    app = app_on(storage, start=typed(deal.id))
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_win(app, pilot, line)
        screen = app.screen
        assert isinstance(screen, WinScreen)
        assert CHOSEN_APART in screen.text() and FIRST_WIN not in screen.text()
        await pilot.press("enter")
        assert not isinstance(app.screen, WinScreen)


def test_the_record_lines_read_as_the_webs() -> None:
    found = {
        "in_records": True,
        "first_win": False,
        "records": [
            {"name": "best_time", "value": 95.0, "previous": 130.4},
            {"name": "longest_streak", "value": 4, "previous": 3},
        ],
    }
    assert record_lines(found, assisted=False) == [
        "New record: best time 1:35 (was 2:10)",
        "New record: longest streak 4 (was 3)",
    ]
    apart = {"in_records": False, "first_win": False, "records": []}
    assert record_lines(apart, assisted=True) == [
        '"Still winnable?" was asked: this game counts apart from your records'
    ]
    assert record_lines(apart, assisted=False, thoughtful=True) == [
        "A thoughtful game, every card face up: it counts apart from your records"
    ]


def test_vegas_figures_are_money() -> None:
    rules = Rules(draw=3, passes=3, scoring=Scoring.VEGAS_CUMULATIVE)
    session = Session.new(Deal.from_number(7), rules, 0.0)
    facts = WinFacts.of(session, 0.0, {}, bankroll=-3)
    assert ("Score", "-$52") in facts.figures
    assert ("Bankroll", "-$3") in facts.figures


def vegas_win(score: int) -> GameRecord:
    """A stored headline Vegas win (draw 3, 3 passes) of ``score`` dollars."""
    rules = Rules(draw=3, passes=3, scoring=Scoring.VEGAS)
    session = Session.new(Deal.from_number(OTHER_DEAL), rules, 1.0)
    record = GameRecord.of(f"vegas{score}", PLAYER, session, 1.0, client="terminal")
    return dataclasses.replace(
        record, status=Status.WON, elapsed=SLOW, moves=MANY_MOVES, score=score, finished_at=2.0
    )


async def test_a_vegas_best_score_is_in_dollars_in_the_stats(storage: SQLiteStorage) -> None:
    # The web's statistics say "$25" (formatScore); the terminal said "Best score 25".
    storage.insert_game(vegas_win(25))
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        text = screen.text()
        assert "Best score $25" in text and "Best score 25" not in text


def test_a_vegas_best_score_record_is_in_dollars_on_the_win_screen() -> None:
    # The web's win dialog says "New record: best score $30 (was -$4)".
    rules = Rules(draw=3, passes=3, scoring=Scoring.VEGAS)
    session = Session.new(Deal.from_number(7), rules, 0.0)
    found = {
        "in_records": True,
        "first_win": False,
        "records": [{"name": "best_score", "value": 30, "previous": -4}],
    }
    facts = WinFacts.of(session, 0.0, found, None)
    assert facts.records == ["New record: best score $30 (was -$4)"]


async def test_a_thoughtful_win_says_it_counts_apart_muted_not_as_a_record(
    storage: SQLiteStorage,
) -> None:
    # The web shows only "New record" and "First win" lines in bold; the terminal
    # showed the thoughtful game's "counts apart" line bold and green, as a record.
    session = Session.new(Deal.from_number(7), Rules(thoughtful=True), 0.0)
    found = {"in_records": False, "first_win": False, "records": []}
    facts = WinFacts.of(session, 0.0, found, None)
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(WinScreen(facts))
        await pilot.pause()
        [line] = app.screen.query(".apart, .record").results(Static)
        assert str(line.render()) == THOUGHTFUL_APART
        assert line.has_class("apart") and not line.has_class("record")
