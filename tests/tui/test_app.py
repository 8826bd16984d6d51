"""The terminal game, driven headless through Textual's Pilot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bonanza.core import Deal, Game, Move, Pile, Rules
from bonanza.tui.app import BonanzaApp
from bonanza.tui.pile_view import PileView

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def new_app(tmp_path: Path, number: int = 7, rules: Rules | None = None) -> BonanzaApp:
    return BonanzaApp(Game(Deal.from_number(number), rules or Rules()), tmp_path / "save.json")


def message(app: BonanzaApp) -> str:
    return str(app.query_one("#message").render())


async def test_space_draws_and_u_undoes(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("space")
        assert app.game.history == [Move(Pile.STOCK, Pile.WASTE, 1)]
        assert "9♣" in str(app.query_one("#waste", PileView).render())
        await pilot.press("u")
        assert app.game.move_count == 0 and app.game.can_redo
        await pilot.press("y")
        assert app.game.move_count == 1


async def test_a_sole_destination_moves_on_one_pick(tmp_path: Path) -> None:
    # Deal 7: column 7's AC can only go home.
    app = new_app(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("7")
        assert app.game.history == [Move(Pile.T7, Pile.FC, 1)]
        assert "Ace of clubs to clubs foundation" in message(app)


async def test_pick_then_drop_with_clicks(tmp_path: Path) -> None:
    # Deal 3: AD (column 1) may go home or onto 2C (column 3), so a click picks it up.
    app = new_app(tmp_path, number=3)
    async with app.run_test() as pilot:
        await pilot.click("#t1")
        assert app.selected == Pile.T1 and app.game.move_count == 0
        assert app.query_one("#t1", PileView).has_class("selected")
        await pilot.click("#t3")
        assert app.game.history == [Move(Pile.T1, Pile.T3, 1)]
        assert app.selected is None


async def test_keys_pick_and_f_sends_home(tmp_path: Path) -> None:
    app = new_app(tmp_path, number=3)
    async with app.run_test() as pilot:
        await pilot.press("1", "f")
        assert app.game.history == [Move(Pile.T1, Pile.FD, 1)]
        await pilot.press("4", "5")  # JC cannot go onto 5C: nothing happens
        assert app.game.move_count == 1


async def test_typed_moves_and_errors(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("colon")
        await pilot.press(*"7f", "enter")
        assert app.game.move_count == 1
        await pilot.press("colon")
        await pilot.press(*"12", "enter")
        assert app.game.move_count == 1
        assert "not legal" in message(app)
        await pilot.press("colon")
        await pilot.press(*"zz", "enter")
        assert "is not a move" in message(app)


async def test_hint_highlights_a_move(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("h")
        hinted = [view.pile for view in app.query(PileView) if view.hinted]
        assert hinted == [Pile.T7, Pile.FC] or set(hinted) == {Pile.T7, Pile.FC}
        assert "Hint:" in message(app)


async def test_every_move_is_saved_and_resumes(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("space", "space", "7")
    saved = Game.from_json(json.loads((tmp_path / "save.json").read_text()))
    assert saved.history == app.game.history and saved.move_count == 3


async def test_new_deal_and_escape(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test() as pilot:
        first = app.game.deal
        await pilot.press("n")
        assert app.game.deal != first and app.game.move_count == 0
        assert "New deal" in message(app)
        await pilot.press("escape")
        assert app.selected is None


async def test_a_win_is_announced(tmp_path: Path) -> None:
    rules = Rules()
    game = Game(Deal.from_number(7), rules)
    from bonanza.solver import solve

    result = solve(game.position, rules, time_limit=10)
    assert result.solved
    for move in result.moves[:-1]:
        game.play(move)
    app = BonanzaApp(game, tmp_path / "save.json")
    async with app.run_test() as pilot:
        last = result.moves[-1]
        await pilot.press("colon")
        from bonanza.core import format_move

        await pilot.press(*format_move(last), "enter")
        assert app.game.is_won
        assert "You won" in message(app)
