"""Share codes in the terminal: x makes one for the deal on the table (kept in the
store, as the web's), shown with its web link; another player plays it from the
new-deal screen's deal box, or with ``bonanza play --share``, once the game it
came from is over."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import bonanza.cli.play as cli_play
from bonanza.cli import main
from bonanza.core import Deal, Rules
from bonanza.play.games import SHARE_NOT_OPEN, share_deal
from bonanza.session import Origin, Status, messages
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.confirm_screen import ConfirmScreen
from tests.tui.test_session_play import EXIT_BAD_INPUT, SIZE, FakeAdvisor, message, typed

pytestmark = pytest.mark.anyio

DRAW_3 = Rules(draw=3)
SHARE_CODE = re.compile(r"Share code (\S+) \(web link /\?share=(\S+)\)")


def player_app(storage: SQLiteStorage, player: str, **options: Any) -> BonanzaApp:
    return BonanzaApp(storage, player, advisor=FakeAdvisor(), **options)


async def deal_box(app: BonanzaApp, pilot: Any, text: str) -> None:
    """N, then ``text`` in the deal box, then Enter."""
    await pilot.press("n")
    if isinstance(app.screen, ConfirmScreen):
        await pilot.press("y")
    await pilot.click("#deal")
    await pilot.press(*text, "enter")
    await pilot.pause()


async def test_a_share_code_is_played_by_another_player_once_the_game_is_over(
    storage: SQLiteStorage,
) -> None:
    ann = player_app(storage, "ann", start=typed(42, DRAW_3))
    async with ann.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        said = message(ann)
        found = SHARE_CODE.search(said)
        assert found is not None and found[1] == found[2], said
        assert "It opens once this game is over (N's deal box, or bonanza play --share)" in said
    share, shared_game = found[1], ann.record.id
    assert ann.session.status is Status.PLAYING

    bob = player_app(storage, "bob", start=typed(5))
    async with bob.run_test(size=SIZE) as pilot:
        await deal_box(bob, pilot, share)
        assert message(bob) == messages.sentence(SHARE_NOT_OPEN)  # not while ann plays it
        assert bob.record.deal == "5" and bob.session.status is Status.PLAYING

    ann = player_app(storage, "ann")  # ann comes back, and leaves that game for another
    async with ann.run_test(size=SIZE) as pilot:
        assert ann.record.id == shared_game
        ann.new_game(typed(8))
    over = storage.get_game(shared_game)
    assert over is not None and over.status is not Status.PLAYING

    bob = player_app(storage, "bob")
    async with bob.run_test(size=SIZE) as pilot:
        await deal_box(bob, pilot, f"http://localhost:8000/?share={share}")
        assert bob.record.deal == Deal.from_number(42).id and bob.record.player == "bob"
        assert bob.session.rules == DRAW_3 and bob.record.origin is Origin.SHARED


def test_play_share_refuses_a_bad_id_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "games.db")
    assert main(["play", "--db", db, "--share", "nope"]) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err.strip().splitlines() == ["bonanza play: shared deal 'nope' not found"]
    assert main(["play", "--db", db, "--share", "nope", "--new"]) == EXIT_BAD_INPUT
    assert "one of them" in capsys.readouterr().err


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[BonanzaApp]:
    """The apps ``bonanza play`` starts, kept instead of run."""
    apps: list[BonanzaApp] = []
    monkeypatch.setattr(BonanzaApp, "run", lambda app, *args, **kwargs: apps.append(app))
    monkeypatch.setattr(cli_play, "check_terminal", lambda: None)  # pytest has no terminal
    return apps


async def test_play_share_starts_the_shared_deal_once_it_opens(
    tmp_path: Path, started: list[BonanzaApp], capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    store = SQLiteStorage(db)
    try:
        ann = player_app(store, "ann", start=typed(42, DRAW_3))
        share = share_deal(store, ann.record.id)
        assert main(["play", "--db", str(db), "--share", share]) == EXIT_BAD_INPUT
        assert capsys.readouterr().err.strip() == f"bonanza play: {SHARE_NOT_OPEN}"
        async with ann.run_test(size=SIZE):
            ann.new_game(typed(8))  # the game of deal 42 is over: its share opens
    finally:
        store.close()
    assert main(["play", "--db", str(db), "--share", "/?share="]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err == "bonanza play: --share '/?share=' names no deal\n"
    assert main(["play", "--db", str(db), "--share", f"/?share={share}"]) == 0
    [app] = started
    assert app.record.deal == Deal.from_number(42).id and app.session.rules == DRAW_3
    assert app.record.origin is Origin.SHARED and app.record.client == "terminal"
