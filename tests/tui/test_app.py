"""The terminal game, driven headless through Textual's Pilot."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bonanza.core import Deal, Move, Pile, Position, Rules, format_move
from bonanza.core.view import PlayerView
from bonanza.session import Hint, Session, Status, messages
from bonanza.solver.advisor import SolverAdvisor
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.new_deal_screen import NewDealChoice
from bonanza.tui.pile_view import PileView
from tests.tui.test_session_play import SIZE, FakeAdvisor, fake_hint_text, message, status

pytestmark = pytest.mark.anyio


def new_app(
    tmp_path: Path, storage: SQLiteStorage, number: int = 7, rules: Rules | None = None,
    **options: Any,
) -> BonanzaApp:  # fmt: skip
    options.setdefault("advisor", FakeAdvisor())
    return BonanzaApp(
        storage,
        "player",
        start=NewDealChoice(rules or Rules(), str(number)),
        save_path=tmp_path / "save.json",
        **options,
    )


async def test_space_draws_and_u_undoes(tmp_path: Path, storage: SQLiteStorage) -> None:
    app = new_app(tmp_path, storage)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        assert app.game.history == [Move(Pile.STOCK, Pile.WASTE, 1)]
        assert "9♣" in str(app.query_one("#waste", PileView).render())
        await pilot.press("u")
        assert app.game.move_count == 0 and app.game.can_redo
        assert message(app) == "Undid: drew 1 card"  # not "Undid drew 1 card"
        await pilot.press("y")
        assert app.game.move_count == 1
        assert message(app) == "Redid: drew 1 card"


async def test_a_sole_destination_moves_on_one_pick(
    tmp_path: Path, storage: SQLiteStorage
) -> None:
    # Deal 7: column 7's AC can only go home.
    app = new_app(tmp_path, storage)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("7")
        assert app.game.history == [Move(Pile.T7, Pile.FC, 1)]
        assert "Ace of clubs to clubs foundation" in message(app)


async def test_pick_then_drop_with_clicks(tmp_path: Path, storage: SQLiteStorage) -> None:
    # Deal 3: AD (column 1) may go home or onto 2C (column 3), so a click picks it up.
    app = new_app(tmp_path, storage, number=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#t1")
        assert app.selected == Pile.T1 and app.game.move_count == 0
        assert app.query_one("#t1", PileView).has_class("selected")
        await pilot.click("#t3")
        assert app.game.history == [Move(Pile.T1, Pile.T3, 1)]
        assert app.selected is None


async def test_keys_pick_and_f_sends_home(tmp_path: Path, storage: SQLiteStorage) -> None:
    app = new_app(tmp_path, storage, number=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "f")
        assert app.game.history == [Move(Pile.T1, Pile.FD, 1)]
        await pilot.press("4", "5")  # JC cannot go onto 5C: nothing happens
        assert app.game.move_count == 1


async def test_typed_moves_and_errors(tmp_path: Path, storage: SQLiteStorage) -> None:
    app = new_app(tmp_path, storage)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon")
        await pilot.press(*"7f", "enter")
        assert app.game.move_count == 1
        await pilot.press("colon")
        await pilot.press(*"12", "enter")
        assert app.game.move_count == 1
        assert message(app).startswith("Four of diamonds cannot go to column 2")  # in words
        await pilot.press("colon")
        await pilot.press(*"zz", "enter")
        assert "is not a move" in message(app)
        await pilot.press("colon")
        await pilot.press(*"[bold]", "enter")  # markup in the input is shown as typed
        assert "[bold]" in message(app)


@dataclass
class Recording:
    """The solver's advisor (on a small budget), keeping what it was asked and said."""

    solver: SolverAdvisor = field(default_factory=lambda: SolverAdvisor(budget=0.05))
    asked: list[PlayerView] = field(default_factory=list)
    said: list[Any] = field(default_factory=list)

    def hint(self, view: PlayerView) -> Any:
        self.asked.append(view)
        advice = self.solver.hint(view)
        self.said.append(advice)
        return advice

    def progress(self, position: Position) -> bool | None:
        return self.solver.progress(position)


def hinted_piles(app: BonanzaApp) -> set[Pile]:
    return {view.pile for view in app.query(PileView) if view.hinted}


async def test_the_solver_hint_shows_its_words_and_highlights_its_piles(
    tmp_path: Path, storage: SQLiteStorage
) -> None:
    advisor = Recording()
    app = new_app(tmp_path, storage, advisor=advisor)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        (view,) = advisor.asked
        assert view == app.session.view()  # the view, never the position
        (advice,) = advisor.said
        assert advice.move == Move(Pile.T7, Pile.FC, 1)  # the ace of clubs goes home
        assert hinted_piles(app) == {Pile.T7, Pile.FC}
        assert message(app) == advice.text  # the engine's words, as it said them
        assert "A♣" in message(app)


async def test_a_hinted_draw_lights_up_the_stock(tmp_path: Path, storage: SQLiteStorage) -> None:
    draw = Move(Pile.STOCK, Pile.WASTE, 1)
    app = new_app(tmp_path, storage, advisor=FakeAdvisor(move=draw))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert Pile.STOCK in hinted_piles(app)
        assert message(app) == fake_hint_text(draw)
        await pilot.press("space")  # playing on clears the highlight
        assert not hinted_piles(app)


async def test_no_hint_says_so_in_the_games_words(tmp_path: Path, storage: SQLiteStorage) -> None:
    class Silent(FakeAdvisor):
        def hint(self, view: PlayerView) -> Hint:
            return Hint(None, "")

    app = new_app(tmp_path, storage, advisor=Silent())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert message(app) == messages.NO_HINT
        assert not hinted_piles(app)


async def test_every_move_is_saved_and_resumes(tmp_path: Path, storage: SQLiteStorage) -> None:
    app = new_app(tmp_path, storage)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "space", "7")
    saved = Session.from_json(json.loads((tmp_path / "save.json").read_text()))
    assert saved.game.history == app.game.history and saved.game.move_count == 3
    stored = storage.get_game(app.record.id)
    assert stored is not None and stored.client == "terminal" and stored.moves == 3
    assert Session.from_json(stored.state).game.history == app.game.history

    again = BonanzaApp(storage, "player", advisor=FakeAdvisor())  # from the store
    assert again.record.id == app.record.id and again.game.history == app.game.history
    from_file = BonanzaApp(storage, "player", advisor=FakeAdvisor(), start=saved)
    assert from_file.record.id == app.record.id  # the file's game is the stored one
    assert len(storage.playing_games("player", "terminal")) == 1
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert message(again).startswith("Resumed")
        assert "Moves 3" in status(again)


async def test_escape_cancels_a_pick(tmp_path: Path, storage: SQLiteStorage) -> None:
    app = new_app(tmp_path, storage, number=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        assert app.selected == Pile.T1
        await pilot.press("escape")
        assert app.selected is None and message(app) == ""


async def test_a_win_is_announced(tmp_path: Path, storage: SQLiteStorage) -> None:
    from tests.web.deals import winning

    number, line = winning()
    app = new_app(tmp_path, storage, number=int(number))
    async with app.run_test(size=SIZE) as pilot:
        for move in line[:-1]:
            app.play(move)
        assert "Deal " + number in status(app)  # a typed deal shows what was typed
        await pilot.press("colon")
        await pilot.press(*format_move(line[-1]), "enter")
        assert app.game.is_won and app.session.status is Status.WON
        assert "You won" in message(app)
        assert "Won" in status(app) and f"Deal {Deal.parse(number).id}" in status(app)
    stored = storage.get_game(app.record.id)
    assert stored is not None and stored.status is Status.WON
