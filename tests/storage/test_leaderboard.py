"""The daily leaderboard's reads (``bonanza.storage.leaderboard``), on SQLite and on a real
PostgreSQL: which stored games enter a board, in what order, with which names."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

from bonanza.core import Rules
from bonanza.play.daily import DAILY_KEY, daily_rules
from bonanza.session.status import Origin, Status
from bonanza.storage.leaderboard import (
    Board,
    Order,
    board_entries,
    display_name,
    set_display_name,
)
from bonanza.storage.records import TAKEN_BACK, GameRecord, rules_key

DAY = "2025-12-01"
MIDNIGHT = 1_764_547_200.0  # 2025-12-01 00:00 UTC
NOON = MIDNIGHT + 43_200
BOARD = Board(DAY, rules_key(daily_rules(1)), MIDNIGHT, MIDNIGHT + 86_400)
IDS = itertools.count()


def won(player: str, elapsed: float, moves: int, **changes: Any) -> GameRecord:
    """A daily game of ``DAY`` (draw 1) won at the first try, started at noon."""
    rules: Rules = changes.pop("rules", daily_rules(1))
    record = GameRecord(
        id=f"g{next(IDS)}",
        player=player,
        deal="7",
        rules_key=rules_key(rules),
        state={},
        status=Status.WON,
        origin=Origin.SHARED,
        created_at=NOON,
        started_at=NOON,
        finished_at=NOON + elapsed,
        elapsed=elapsed,
        moves=moves,
        extra={DAILY_KEY: DAY},
    )
    return dataclasses.replace(record, **changes)


def board(store: Any, order: Order = Order.TIME, first: int = 10, asker: str = "") -> list[Any]:
    return [
        (e.place, e.player, e.name, e.elapsed, e.moves)
        for e in board_entries(store, BOARD, order, first, asker)
    ]


def test_won_daily_games_enter_fastest_first_or_fewest_moves_first(store: Any) -> None:
    for record in (won("ann", 300.0, 120), won("bob", 200.0, 140), won("cy", 200.0, 90)):
        store.insert_game(record)
    assert board(store) == [
        (1, "cy", None, 200.0, 90), (2, "bob", None, 200.0, 140), (3, "ann", None, 300.0, 120),
    ]  # fmt: skip
    assert [row[1] for row in board(store, Order.MOVES)] == ["cy", "ann", "bob"]


def test_only_a_first_unassisted_won_game_of_the_day_under_the_daily_rules_enters(
    store: Any,
) -> None:
    store.insert_game(won("ann", 300.0, 120))
    others = [
        won("assisted", 10.0, 80, assisted=True),
        won("replay", 10.0, 80, origin=Origin.REPLAY),
        won("typed", 10.0, 80, origin=Origin.TYPED),
        won("thoughtful", 10.0, 80, rules=Rules(draw=1, thoughtful=True)),
        won("draw3", 10.0, 80, rules=daily_rules(3)),
        won("vegas", 10.0, 80, rules=Rules.preset("vegas-1")),
        won("lost", 10.0, 80, status=Status.LOST),
        won("playing", 10.0, 80, status=Status.PLAYING, finished_at=None),
        won("other-day", 10.0, 80, extra={DAILY_KEY: "2025-11-30"}),
        won("not-daily", 10.0, 80, extra={}),
        won("from-the-calendar", 10.0, 80, created_at=NOON + 86_400, finished_at=NOON + 86_410),
        won("started-before", 10.0, 80, created_at=MIDNIGHT - 5, finished_at=MIDNIGHT + 5),
        won("reset", 10.0, 80, archived=True),
    ]
    for record in others:
        store.insert_game(record)
    assert [row[1] for row in board(store)] == ["ann"]
    assert [row[1] for row in board(store, Order.MOVES)] == ["ann"]


def test_a_player_enters_once_at_their_best_and_pruned_games_still_count(store: Any) -> None:
    store.insert_game(won("ann", 300.0, 80))
    store.insert_game(won("ann", 250.0, 130))  # (only a race could store two first games)
    store.insert_game(won("bob", 280.0, 100))
    assert store.prune_finished(NOON + 10_000) == 3  # folded: their figures are kept
    assert board(store) == [(1, "ann", None, 250.0, 130), (2, "bob", None, 280.0, 100)]
    assert board(store, Order.MOVES) == [(1, "ann", None, 300.0, 80), (2, "bob", None, 280.0, 100)]


def test_a_won_game_after_an_earlier_game_of_the_deal_stays_off_whatever_its_origin_says(
    store: Any,
) -> None:
    """Rows stored before replays were marked give a second game of the daily deal as
    ``shared``: the earlier game stored keeps it off the board, in any state, pruned
    or archived too."""
    store.insert_game(won("ann", 300.0, 120))
    for player, first in (
        ("left", dict(status=Status.LOST)),
        ("playing", dict(status=Status.PLAYING, finished_at=None)),
        ("reset", dict(archived=True)),
        ("slower", {}),
        ("pruned", dict(status=Status.LOST, finished_at=NOON - 550)),
    ):
        store.insert_game(won(player, 10.0, 80, created_at=NOON - 600, started_at=NOON - 600,
                              **{"finished_at": NOON - 500, **first}))
        store.insert_game(won(player, 5.0, 70))  # its origin says shared
    store.insert_game(won("yesterday", 10.0, 80, created_at=MIDNIGHT - 5, finished_at=MIDNIGHT + 5))
    store.insert_game(won("yesterday", 20.0, 90))  # (a game of the day before is not of the board)
    assert store.prune_finished(NOON - 520) == 2  # "pruned"'s and "yesterday"'s first games
    assert [row[1] for row in board(store)] == ["slower", "yesterday", "ann"]
    # "slower" enters with its first game, not its faster second one:
    assert [row[3] for row in board(store)] == [10.0, 20.0, 300.0]


def test_names_are_joined_and_the_askers_place_follows_the_first_places(store: Any) -> None:
    for i, player in enumerate(("ann", "bob", "cy", "dee")):
        store.insert_game(won(player, 100.0 + i, 100 - i))
    set_display_name(store, "bob", "Bob <b>")
    set_display_name(store, "dee", "Dee")
    assert display_name(store, "bob") == "Bob <b>" and display_name(store, "ann") is None
    assert board(store, first=2, asker="dee") == [
        (1, "ann", None, 100.0, 100),
        (2, "bob", "Bob <b>", 101.0, 99),
        (4, "dee", "Dee", 103.0, 97),
    ]
    assert [row[:3] for row in board(store, Order.MOVES, first=1, asker="ann")] == [
        (1, "dee", "Dee"), (4, "ann", None),
    ]  # fmt: skip
    assert board(store, first=0, asker="nobody") == []


def test_fewest_moves_counts_the_moves_a_game_took_back_pruned_or_not(store: Any) -> None:
    """``extra["taken_back"]`` (undo and restart) adds to a game's moves on the board;
    rows stored before it was counted have none."""
    store.insert_game(won("ann", 300.0, 100, extra={DAILY_KEY: DAY, TAKEN_BACK: 40}))
    store.insert_game(won("bob", 200.0, 120))
    store.insert_game(won("cy", 250.0, 110, extra={DAILY_KEY: DAY, TAKEN_BACK: 5}))
    expected = [(1, "cy", None, 250.0, 115), (2, "bob", None, 200.0, 120),
                (3, "ann", None, 300.0, 140)]  # fmt: skip
    assert board(store, Order.MOVES) == expected
    assert board(store)[0] == (1, "bob", None, 200.0, 120)
    assert store.prune_finished(NOON + 10_000) == 3  # folded: their extra is kept
    assert board(store, Order.MOVES) == expected
