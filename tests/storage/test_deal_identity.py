"""One deal, one identity (``bonanza.play.deal_identity``), on SQLite and on a real
PostgreSQL: a deal typed as its code is the deal of its number, a replay however it
was typed, and a replay never enters the daily leaderboard."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from bonanza.core import Deal, Rules
from bonanza.play import StartRequest, choose_start, start_game
from bonanza.play.daily import daily_rules
from bonanza.play.deal_stock import DealStock, stock_key
from bonanza.play.leaderboard import daily_leaderboard
from bonanza.session import Origin
from bonanza.storage.protocol import StockedDeal
from bonanza.storage.records import GameRecord
from tests.play.test_games import never_finds
from tests.play.test_leaderboard import DAILY, NOON, daily, play_to_the_end

SEVEN = Deal.from_number(7)
DAILY_DAY = datetime.date(2025, 12, 1)
"""The day of ``NOON``."""


@pytest.fixture
def stock(store: Any) -> DealStock:
    """The stock of ``store`` (of both kinds), holding the daily deal of draw 1."""
    store.add_stocked_deal(StockedDeal(DAILY.id, stock_key(daily_rules(1)), "easy", 0.2))
    return DealStock(store, lambda: NOON, finder=never_finds, first_delay=0)


def started(store: Any, stock: DealStock, request: StartRequest, player: str = "ann") -> GameRecord:
    """``request`` started and stored for ``player`` at noon (random deals are deal 7)."""
    start = choose_start(store, stock, player, request, NOON, lambda: SEVEN)
    record, _session = start_game(store, player, start, NOON)
    store.insert_game(record)
    return record


def test_a_deal_typed_as_its_code_is_the_deal_of_its_number(store: Any, stock: DealStock) -> None:
    unknown = started(store, stock, StartRequest(Rules(), deal_text=Deal.from_number(8).code))
    assert unknown.deal == Deal.from_number(8).code  # no number known for it: its code
    by_number = started(store, stock, StartRequest(Rules(), deal_text="7"))
    by_code = started(store, stock, StartRequest(Rules(), deal_text=f" {SEVEN.code} "))
    by_cards = started(store, stock, StartRequest(Rules(), deal_text=SEVEN.listing))
    assert by_number.deal == by_code.deal == by_cards.deal == "7"
    assert by_code.state["typed"] == f" {SEVEN.code} "  # what the player typed is kept
    assert started(store, stock, StartRequest(Rules(), deal_text=SEVEN.code), "bob").deal == (
        SEVEN.code  # another player's deal 7 names nothing of bob's
    )


def test_a_deal_first_typed_as_its_code_is_a_replay_when_dealt_by_its_number(
    store: Any, stock: DealStock
) -> None:
    typed = started(store, stock, StartRequest(Rules(), deal_text=SEVEN.code))
    assert typed.deal == SEVEN.code and typed.origin is Origin.TYPED
    again = started(store, stock, StartRequest(Rules()))  # the random deal is deal 7
    assert again.origin is Origin.REPLAY
    assert started(store, stock, StartRequest(Rules()), "bob").origin is Origin.RANDOM


@pytest.mark.parametrize("chosen_first", [False, True])
def test_the_daily_deal_typed_as_its_code_first_is_a_replay_off_the_leaderboard(
    store: Any, stock: DealStock, chosen_first: bool
) -> None:
    """Typed before the day's deal is chosen (stored under its code) or after (under
    the daily deal's number): either way the daily game after it is a replay."""
    if chosen_first:
        stock.daily(DAILY_DAY, 1)
    practice = play_to_the_end(store, stock, "dee", StartRequest(Rules(), deal_text=DAILY.code))
    assert practice.deal == (DAILY.id if chosen_first else DAILY.code)
    replay = play_to_the_end(store, stock, "dee", daily(), pace=0.1)
    assert replay.origin is Origin.REPLAY and replay.deal == DAILY.id
    first = play_to_the_end(store, stock, "ann", daily(), pace=2.0)
    board = daily_leaderboard(store, "dee", 1, NOON + 3600)
    assert [(row["elapsed"], row["you"]) for row in board["fastest"]] == [
        (round(first.elapsed, 1), False)
    ]


def test_a_deal_typed_as_its_code_keeps_its_number_after_a_statistics_reset(
    store: Any, stock: DealStock
) -> None:
    """The games a reset archives still name the deal's number."""
    play_to_the_end(store, stock, "ann", StartRequest(Rules(), deal_text="7"))
    assert store.archive_finished_games("ann") == 1
    by_code = started(store, stock, StartRequest(Rules(), deal_text=SEVEN.code))
    assert by_code.deal == "7"
    assert store.played_deals("ann") == ["7"]  # once, though in two games
    assert store.played_deals("bob") == []
