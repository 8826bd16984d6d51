"""The terminal's new game: the game on the table ends in the new game's start, one
transaction, so a start the store refuses leaves it in play there, as on the web."""

from __future__ import annotations

import pytest

from bonanza.session import Status
from bonanza.storage import NewGame, SQLiteStorage, StorageError
from bonanza.tui.words import REVIEW_OFFER

from .test_session_play import PLAYER, SIZE, FailingStorage, app_on, message, typed

pytestmark = pytest.mark.anyio

STORE_DOWN = "the game store failed: database is locked"


class StartsFailing(FailingStorage):
    """SQLite storage whose writes, new games' starts too, fail while ``failing`` is set."""

    def start_game(self, new: NewGame) -> None:
        if self.failing:
            raise StorageError(STORE_DOWN)
        self.inner.start_game(new)


async def test_a_new_game_the_store_refuses_leaves_the_game_on_the_table_in_play_there(
    storage: SQLiteStorage,
) -> None:
    store = StartsFailing(storage)
    app = app_on(store, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # a draw: the game counts
        first = app.record.id
        store.failing = True
        app.new_game(typed(8))
        await pilot.pause()
        assert app.record.deal == "8" and f"Not stored: {STORE_DOWN}" in message(app)
        assert REVIEW_OFFER in message(app)  # the table's game was lost all the same
    old = storage.get_game(first)
    assert old is not None and old.status is Status.PLAYING  # not ended without the start
    assert [game.id for game in storage.playing_games(PLAYER, "terminal")] == [first]


async def test_a_new_game_stores_the_ended_game_as_the_table_has_it(
    storage: SQLiteStorage,
) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "space")
        first = app.record.id
        app.new_game(typed(8))
        await pilot.pause()
        assert app.record.deal == "8" and "Not stored" not in message(app)
    old = storage.get_game(first)
    assert old is not None and (old.status, old.moves) == (Status.LOST, 2)
    assert [game.id for game in storage.playing_games(PLAYER, "terminal")] == [app.record.id]


async def test_a_game_stored_late_ends_the_game_another_terminal_started_meanwhile(
    storage: SQLiteStorage,
) -> None:
    store = StartsFailing(storage)
    store.failing = True
    app = app_on(store, start=typed(7))  # its first write fails: not in the store yet
    assert not app.keeper.stored
    other = app_on(storage, start=typed(9))  # meanwhile, another terminal starts a game
    store.failing = False
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # its next write stores it, as a new game's start
        assert app.keeper.stored and "Not stored" not in message(app)
    assert [game.id for game in storage.playing_games(PLAYER, "terminal")] == [app.record.id]
    ended = storage.get_game(other.record.id)
    assert ended is not None and ended.status is Status.ABANDONED  # no move: it never counted
