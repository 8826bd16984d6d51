"""A game won in the terminal shows in the web statistics on the same machine."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from bonanza.core import Rules
from bonanza.session import Origin, Status
from bonanza.storage import SQLiteStorage, local_player
from bonanza.web import create_app
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
