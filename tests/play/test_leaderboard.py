"""The daily leaderboard (``bonanza.play.leaderboard``): games started and won as a front end
starts and plays them, on a real SQLite store; which enter, and the display names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bonanza.core import Deal, Rules
from bonanza.play import Invalid, StartRequest, choose_start, start_game
from bonanza.play.chosen_deals import daily_overview
from bonanza.play.daily import daily_rules
from bonanza.play.deal_stock import DealStock, stock_key
from bonanza.play.leaderboard import (
    ANONYMOUS,
    NAME_LENGTH,
    choose_name,
    clean_name,
    daily_leaderboard,
    player_name,
)
from bonanza.solver import solve
from bonanza.storage import SQLiteStorage
from bonanza.storage.protocol import StockedDeal
from bonanza.storage.records import GameRecord

from .test_games import never_finds

NOON = 1_764_590_400.0  # 2025-12-01 12:00 UTC
DAILY = Deal.from_number(5)
"""Today's daily deal of draw 1 (the only deal stocked): the solver wins it quickly."""


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[SQLiteStorage]:
    store = SQLiteStorage(tmp_path / "games.db")
    store.add_stocked_deal(StockedDeal(DAILY.id, stock_key(daily_rules(1)), "easy", 0.2))
    yield store
    store.close()


@pytest.fixture
def stock(storage: SQLiteStorage) -> DealStock:
    return DealStock(storage, lambda: NOON, finder=never_finds, first_delay=0)


def play_to_the_end(
    storage: SQLiteStorage,
    stock: DealStock,
    player: str,
    request: StartRequest,
    *,
    pace: float = 1.0,
    peek: bool = False,
    look_ahead: int = 0,
) -> GameRecord:
    """Start ``request`` for ``player`` at noon, store it, and win it with the solver's line,
    a move every ``pace`` seconds (asking "still winnable?" first with ``peek``; first
    playing ``look_ahead`` moves of it, taking back one by undo and the rest by restart)."""
    start = choose_start(storage, stock, player, request, NOON, lambda: DAILY)
    record, session = start_game(storage, player, start, NOON)
    storage.insert_game(record)
    if peek:
        session.peek()
    now = NOON
    line = solve(start.deal, start.rules).moves
    if look_ahead:
        for move in line[:look_ahead]:
            session.play(move, now)
        session.undo(now)
        session.restart(now)
    for move in line:
        now += pace
        session.play(move, now)
    assert session.status.value == "won"
    record.update(session, now)
    record.version += 1
    storage.update_game(record)
    return record


def daily(draw: int = 1) -> StartRequest:
    return StartRequest(daily_rules(draw), daily="today")


def test_won_daily_games_enter_fastest_first_and_no_assisted_replayed_or_thoughtful_game(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    slow = play_to_the_end(storage, stock, "ann", daily(), pace=3.0)
    fast = play_to_the_end(storage, stock, "bob", daily(), pace=1.0)
    play_to_the_end(storage, stock, "cy", daily(), pace=0.5, peek=True)  # assisted
    play_to_the_end(storage, stock, "dee", StartRequest(Rules(), deal_text=DAILY.id))
    replay = play_to_the_end(storage, stock, "dee", daily(), pace=0.5)  # had the deal before
    thoughtful = Rules(thoughtful=True)
    play_to_the_end(storage, stock, "eve", StartRequest(thoughtful, deal_text=DAILY.id), pace=0.1)
    assert replay.origin.value == "replay"
    choose_name(storage, "bob", "Bob")
    board = daily_leaderboard(storage, "ann", 1, NOON + 3600)
    assert board["day"] == "2025-12-01" and board["draw"] == 1
    assert board["fastest"] == [
        {"place": 1, "name": "Bob", "elapsed": round(fast.elapsed, 1), "moves": fast.moves,
         "you": False},
        {"place": 2, "name": ANONYMOUS, "elapsed": round(slow.elapsed, 1), "moves": slow.moves,
         "you": True},
    ]  # fmt: skip
    assert [row["name"] for row in board["fewest_moves"]] == ["Bob", ANONYMOUS]  # a tie: time
    assert daily_leaderboard(storage, "ann", 3, NOON + 3600)["fastest"] == []
    tomorrow = daily_leaderboard(storage, "ann", 1, NOON + 86_400)
    assert tomorrow["day"] == "2025-12-02" and tomorrow["fastest"] == []
    yesterday = daily_leaderboard(storage, "ann", 1, NOON + 86_400, "2025-12-01")
    assert [row["name"] for row in yesterday["fastest"]] == ["Bob", ANONYMOUS]
    with pytest.raises(Invalid):
        daily_leaderboard(storage, "ann", 2, NOON)
    with pytest.raises(Invalid):
        daily_leaderboard(storage, "ann", 1, NOON, "2025-12-02")  # not out yet


def test_moves_taken_back_by_undo_or_restart_count_on_the_fewest_moves_board(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    """Playing ahead to see the hidden cards, then taking it back, costs the moves played."""
    honest = play_to_the_end(storage, stock, "ann", daily(), pace=3.0)
    looker = play_to_the_end(storage, stock, "bob", daily(), pace=1.0, look_ahead=30)
    assert looker.moves == honest.moves  # the same line won: the game holds as many moves
    board = daily_leaderboard(storage, "ann", 1, NOON + 3600)
    assert [(row["place"], row["moves"], row["you"]) for row in board["fewest_moves"]] == [
        (1, honest.moves, True), (2, honest.moves + 30, False),
    ]  # fmt: skip
    fastest = board["fastest"]
    assert [(row["you"], row["moves"]) for row in fastest] == [(False, honest.moves + 30),
                                                               (True, honest.moves)]


def test_a_display_name_loses_control_and_format_characters_and_is_kept_short(
    storage: SQLiteStorage,
) -> None:
    assert player_name(storage, "ann") is None
    assert choose_name(storage, "ann", "  Ann\u202e\x00\n  the\tGreat\u200b ") == "Ann the Great"
    assert player_name(storage, "ann") == "Ann the Great"
    hostile = "<img src=x onerror=f()>"
    assert choose_name(storage, "ann", hostile) == hostile  # text: escaped where it is shown
    with pytest.raises(Invalid, match=str(NAME_LENGTH)):
        choose_name(storage, "ann", "x" * (NAME_LENGTH + 1))
    assert player_name(storage, "ann") == hostile  # the refused name stored nothing
    assert choose_name(storage, "ann", "   ") is None  # anonymous again
    assert player_name(storage, "ann") is None
    assert clean_name("e\u0301") == "\u00e9"  # one character, as it is shown


def test_a_name_stored_before_the_rules_is_shown_by_them(storage: SQLiteStorage) -> None:
    from bonanza.storage.leaderboard import set_display_name

    set_display_name(storage, "ann", "\x1b[31m" + "y" * 40)
    assert player_name(storage, "ann") == "[31m" + "y" * (NAME_LENGTH - 4)


def test_a_replayed_daily_game_is_still_the_daily_deal_off_the_board(
    storage: SQLiteStorage, stock: DealStock
) -> None:
    first = play_to_the_end(storage, stock, "ann", daily(), pace=2.0)
    again = StartRequest(Rules(draw=3), replay=first.id)  # the old game's rules are dealt
    replay = play_to_the_end(storage, stock, "ann", again, pace=0.5)
    assert replay.extra == first.extra == {"daily": "2025-12-01", "grade": "easy"}
    assert (replay.origin.value, replay.rules_key) == ("replay", first.rules_key)
    board = daily_leaderboard(storage, "ann", 1, NOON + 3600)
    assert [(row["elapsed"], row["you"]) for row in board["fastest"]] == [
        (round(first.elapsed, 1), True)  # the first game, not the faster replay
    ]
    stats = daily_overview(stock, storage, "ann", 1, NOON + 3600)["stats"]
    assert (stats["played"], stats["won"], stats["best_time"]) == (1, 1, round(first.elapsed, 1))
