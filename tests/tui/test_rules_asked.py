"""``bonanza play --draw 3`` (or any rule option) with a game in progress
resumes that game and says plainly that it keeps its own rules, and how to
play the rules asked for: N opens the new-deal screen on them."""

from __future__ import annotations

from pathlib import Path

import pytest

import bonanza.cli.play as cli_play
from bonanza.cli import main
from bonanza.core import Rules
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.new_deal_screen import NewDealScreen
from tests.tui.test_session_play import SIZE, app_on, message, typed

pytestmark = pytest.mark.anyio

DRAW_3 = Rules.preset("klondike-3")


async def game_in_progress(storage: SQLiteStorage) -> BonanzaApp:
    """A game of deal 7 under Klondike's rules, one move played, left in progress."""
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("7")
    return app


async def test_rules_asked_for_a_resumed_game_are_named_and_n_deals_them(
    storage: SQLiteStorage,
) -> None:
    first = await game_in_progress(storage)
    app = app_on(storage, rules=DRAW_3)
    async with app.run_test(size=SIZE) as pilot:
        assert app.record.id == first.record.id and app.session.rules == Rules()
        said = " ".join(message(app).split())
        assert "under its own rules (Draw 1 · Unlimited passes · Standard), not Draw 3" in said
        assert "press N for a new deal under Draw 3 · Unlimited passes · Standard" in said
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmScreen)  # the game in progress counts
        await pilot.press("y")
        screen = app.screen
        assert isinstance(screen, NewDealScreen) and screen.start_rules == DRAW_3
        await pilot.click("#start")
        await pilot.pause()
        assert app.session.rules == DRAW_3 and app.record.id != first.record.id


async def test_the_same_rules_asked_resume_without_a_word(storage: SQLiteStorage) -> None:
    first = await game_in_progress(storage)
    app = app_on(storage, rules=Rules())
    assert app.record.id == first.record.id
    async with app.run_test(size=SIZE):
        assert message(app) == "Resumed your game"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[BonanzaApp]:
    """The apps ``bonanza play`` starts, kept instead of run."""
    apps: list[BonanzaApp] = []
    monkeypatch.setattr(BonanzaApp, "run", lambda app, *args, **kwargs: apps.append(app))
    monkeypatch.setattr(cli_play, "check_terminal", lambda: None)  # pytest has no terminal
    return apps


def test_the_command_passes_only_the_rules_asked_for(
    tmp_path: Path, started: list[BonanzaApp]
) -> None:
    db = str(tmp_path / "games.db")
    assert main(["play", "--db", db]) == 0  # a new game, left in progress
    assert main(["play", "--db", db, "--draw", "3"]) == 0
    assert main(["play", "--db", db, "--rules", "klondike"]) == 0
    assert main(["play", "--db", db]) == 0
    first, draw_3, klondike, plain = started
    assert {app.record.id for app in started} == {first.record.id}  # resumed each time
    assert draw_3.asked == Rules(draw=3)
    assert klondike.asked is None and plain.asked is None  # its own rules, or none asked
    assert main(["play", "--db", db, "--new", "--draw", "3"]) == 0
    assert started[-1].session.rules == Rules(draw=3) and started[-1].asked is None
