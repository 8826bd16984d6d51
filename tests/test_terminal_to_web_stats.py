"""A game won in the terminal shows in the web statistics on the same machine, and a
daily deal won in the terminal in the web's daily statistics."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from bonanza.core import Rules
from bonanza.play.deal_stock import DealStock
from bonanza.session import Origin, Status
from bonanza.solver.grading import Grade
from bonanza.storage import SQLiteStorage, Storage, local_player
from bonanza.web import create_app
from bonanza.web.service import GameService
from tests.tui.conftest import NEVER, finds_nothing
from tests.tui.stocked import TODAY, Clock, settle, stock_deal, win_by_solver
from tests.tui.test_session_play import (
    AUTO_STEP,
    SIZE,
    FakeAdvisor,
    play_until_auto,
    winning_deal,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2 for its TestClient
    from starlette.testclient import TestClient

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_terminal_win_counts_in_the_web_statistics(tmp_path: Path) -> None:
    from bonanza.tui.app import BonanzaApp

    db = tmp_path / "bonanza.db"
    deal, line = winning_deal()
    terminal = SQLiteStorage(db)
    player = local_player(terminal)
    app = BonanzaApp(
        terminal,
        player,
        rules=Rules(),
        advisor=FakeAdvisor(),
        random_deals=lambda: deal,  # a random deal, as far as the game knows
        auto_step=AUTO_STEP,
        stock=quiet_stock(terminal, time.time),
    )
    async with app.run_test(size=SIZE) as pilot:
        play_until_auto(app, line)
        await pilot.press("a")
        while app.session.status is Status.PLAYING:
            await pilot.pause(AUTO_STEP)
    assert app.record.origin is Origin.RANDOM and app.record.client == "terminal"
    moves, elapsed = app.game.move_count, app.session.elapsed(0.0)
    terminal.close()

    web_storage = SQLiteStorage(db)
    web = create_app(web_storage, local_player=local_player(web_storage), advisor=FakeAdvisor())
    with TestClient(web) as client:
        answer = client.get("/api/stats")
        assert answer.status_code == 200
        stats = answer.json()
    assert stats["chosen"] == []
    [group] = stats["groups"]
    assert group["rules"] == Rules().to_dict()
    assert group["played"] == 1 and group["won"] == 1 and group["current_streak"] == 1
    assert group["fewest_moves"] == moves
    assert group["best_time"] == round(elapsed, 1)


def quiet_stock(storage: Storage, clock: Callable[[], float]) -> DealStock:
    """A deal stock whose filler never starts: the test stocks its deal by hand."""
    return DealStock(storage, clock, finder=finds_nothing, first_delay=NEVER)


async def test_a_daily_deal_won_in_the_terminal_counts_in_the_web_daily_statistics(
    tmp_path: Path,
) -> None:
    from bonanza.tui.app import BonanzaApp
    from bonanza.tui.daily_screen import DailyScreen

    db = tmp_path / "bonanza.db"
    clock = Clock()
    terminal = SQLiteStorage(db)
    player = local_player(terminal)
    stock_deal(terminal, 9, Grade.MEDIUM)
    app = BonanzaApp(
        terminal, player, advisor=FakeAdvisor(), clock=clock, stock=quiet_stock(terminal, clock)
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("D")
        assert isinstance(app.screen, DailyScreen)
        await settle(app, pilot)
        await pilot.press("enter")  # today's daily deal
        assert app.record.extra["daily"] == TODAY
        win_by_solver(app)
        await pilot.pause()
    assert app.record.client == "terminal" and app.record.status is Status.WON
    terminal.close()

    web_storage = SQLiteStorage(db)
    web = create_app(
        web_storage, clock, local_player=local_player(web_storage), advisor=FakeAdvisor()
    )
    service: GameService = web.state.service
    service.stock = quiet_stock(web_storage, clock)
    with TestClient(web) as client:
        answer = client.get("/api/daily?draw=1")
        assert answer.status_code == 200
        page = answer.json()
    assert page["today"] == TODAY
    stats = page["stats"]
    assert (stats["played"], stats["won"], stats["current_streak"]) == (1, 1, 1)
    assert page["days"][0] == {"day": TODAY, "today": True, "result": "won"}
