"""A player's own fewest moves (the statistics' figure and the records a win sets) count
every move a won game played, those taken back too, as read back from SQLite and from
PostgreSQL: undo cannot farm them. A game stored before taken-back moves were counted
counts its moves alone."""

from __future__ import annotations

from typing import Any

from bonanza.core import Deal, Rules
from bonanza.play.ledger import records_set, statistics
from bonanza.session import Origin, Status
from bonanza.storage.records import TAKEN_BACK, GameRecord, rules_key

PLAYER = "ann"
FINISHED = 2_000.0
OLD_MOVES = 100
"""An older win's moves, stored before moves taken back were counted."""
KEPT, TAKEN = 80, 50
"""A new win's moves kept, and those it took back by undo: 130 played."""


def won(game_id: str, deal: int, moves: int, finished_at: float, **extra: Any) -> GameRecord:
    """A won random deal of Klondike, as a front end stores it."""
    return GameRecord(
        id=game_id, player=PLAYER, deal=Deal.from_number(deal).id, rules_key=rules_key(Rules()),
        state={}, status=Status.WON, origin=Origin.RANDOM, created_at=finished_at - 60,
        finished_at=finished_at, elapsed=60.0, moves=moves, score=500, extra=extra,
    )  # fmt: skip


def test_fewest_moves_counts_the_moves_taken_back(store: Any) -> None:
    store.insert_game(won("old", 3, OLD_MOVES, FINISHED))  # no key: before they were counted
    store.insert_game(won("new", 4, KEPT, FINISHED + 100, **{TAKEN_BACK: TAKEN}))
    new = store.get_game("new")
    assert new is not None and new.extra == {TAKEN_BACK: TAKEN}  # read back
    answer = records_set(store.finished_games(PLAYER), new)
    assert answer["in_records"] and "fewest_moves" not in [r["name"] for r in answer["records"]]
    [group] = statistics(store.finished_games(PLAYER))["groups"]
    assert group["fewest_moves"] == OLD_MOVES  # not the 80 kept of a game that played 130
