"""A winnable deal's start that another start came before (stale, prepared again) deals
the deal it took from the stock again: one stocked deal a start, on a real SQLite store."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bonanza.core import Deal, Rules
from bonanza.play import StartRequest
from bonanza.play.deal_stock import DealStock, stock_key
from bonanza.session import Origin, Status
from bonanza.solver.grading import Grade
from bonanza.storage import NewGame, SQLiteStorage
from bonanza.storage.protocol import StockedDeal

from .test_games import NOON, PLAYER, stock, storage  # noqa: F401 (fixtures)
from .test_own_games import Asked, games_of

STOCKED = (9, 4, 16)
"""Deals stocked by hand as easy winnable deals."""


@dataclass(frozen=True)
class Winnable:
    """A player's choice of a winnable deal of ``grade``."""

    rules: Rules
    grade: Grade
    replay: bool = False

    def request(self, last_game: str | None = None) -> StartRequest:
        return StartRequest(self.rules, grade=self.grade)


class RacedOnce:
    """SQLite storage on which, just before the first new game's start is stored,
    another terminal of the player starts a game of deal 8: that start is stale."""

    def __init__(self, inner: SQLiteStorage, deals: DealStock) -> None:
        self.inner = inner
        self.other = games_of(inner, deals)
        self.raced: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def start_game(self, new: NewGame) -> None:
        if not self.raced:
            other = self.other.open(Rules(), Asked(Rules(), "8"), NOON + 1)
            self.raced.append(other.record.id)
        self.inner.start_game(new)


def test_a_stale_winnable_start_dealt_again_takes_one_stocked_deal(
    storage: SQLiteStorage,  # noqa: F811 (the imported fixture)
    stock: DealStock,  # noqa: F811
) -> None:
    for number in STOCKED:
        storage.add_stocked_deal(
            StockedDeal(Deal.from_number(number).id, stock_key(Rules()), "easy", 0.1)
        )
    raced = RacedOnce(storage, stock)
    first = games_of(raced, stock)  # type: ignore[arg-type]  # a SQLite store all the same
    prepared = first.prepare(Winnable(Rules(), Grade.EASY), NOON)
    opened = first.begin(prepared, NOON + 2)  # stale: prepared again, then stored
    assert raced.raced and first.notes == []
    assert opened.stored and opened.record.deal == prepared.record.deal
    assert opened.record.origin is Origin.WINNABLE and opened.record.extra == {"grade": "easy"}
    assert stock.counts(Rules())["easy"] == len(STOCKED) - 1  # one deal taken, not two
    ended = storage.get_game(raced.raced[0])
    assert ended is not None and ended.status is not Status.PLAYING
