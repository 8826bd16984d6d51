"""A winnable deal's start that the store refuses as stale (another process's start came
first) is prepared again on the deal it took: the stock loses one deal, not one a try."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from bonanza.core import Deal, Rules
from bonanza.play.deal_stock import DealStock, stock_key
from bonanza.play.games import PreparedGame
from bonanza.storage import SQLiteStorage, StaleStartError
from bonanza.storage.protocol import OTHER_STARTED, StockedDeal
from bonanza.web import create_app
from bonanza.web.service import GameService

STOCKED = (9, 4, 16)
"""Deals stocked by hand as easy winnable deals."""
CREATED = 201


def never_finds(rules: Rules, stopping: object) -> None:
    """A finder that finds nothing: the test stocks deals by hand."""
    return None


def test_a_stale_winnable_start_tried_again_takes_one_stocked_deal(tmp_path: Path) -> None:
    app = create_app(SQLiteStorage(tmp_path / "games.db"))
    service: GameService = app.state.service
    service.stock = DealStock(service.storage, service.clock, finder=never_finds)
    for number in STOCKED:
        service.storage.add_stocked_deal(
            StockedDeal(Deal.from_number(number).id, stock_key(Rules()), "easy", 0.1)
        )
    start = service.games.start
    tried: list[str] = []

    async def stale_once(player: str, prepared: PreparedGame) -> None:
        tried.append(prepared.record.deal)
        if len(tried) == 1:  # another process's start stored first
            raise StaleStartError(prepared.record.id, OTHER_STARTED)
        await start(player, prepared)

    service.games.start = stale_once  # type: ignore[method-assign]
    with TestClient(app) as client:
        answer: Any = client.post("/api/games", json={"rules": Rules().to_dict(), "grade": "easy"})
        assert answer.status_code == CREATED, answer.text
        assert answer.json()["grade"] == "easy"
        assert len(tried) == 2 and tried[0] == tried[1]  # the same deal, tried again
        assert service.stock.counts(Rules())["easy"] == len(STOCKED) - 1
