"""An illegal typed move is refused in words, never in the engine's notation."""

from __future__ import annotations

import pytest

from bonanza.storage import SQLiteStorage
from tests.tui.test_session_play import SIZE, app_on, message, typed

pytestmark = pytest.mark.anyio

ENGINE_MARKS = ("is not legal in", "/", "----")
"""Pieces of the engine's refusal: its words and its position text."""


async def refusal(storage: SQLiteStorage, text: str) -> str:
    """What deal 7 says when ``text`` is typed as its first move, which is refused."""
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *text, "enter")
        assert app.game.move_count == 0
        return " ".join(message(app).split())


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("5f", "Ten of clubs cannot go to the clubs foundation: "
               "the nine of clubs is not there yet"),
        ("12", "Four of diamonds cannot go to column 2: "
               "only a black ten goes on the jack of hearts"),
        ("47:3", "Column 4 has only 1 face-up card: 3 cannot move"),
        ("ws", "The waste cannot be turned over: the stock is not empty"),
        ("w3", "The waste is empty"),
    ],
)
async def test_an_illegal_typed_move_says_why_in_words(
    storage: SQLiteStorage, text: str, words: str
) -> None:
    said = await refusal(storage, text)
    assert said == words
    assert not any(mark in said for mark in ENGINE_MARKS)


async def test_a_legal_move_without_its_count_is_still_played(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"7f", "enter")  # the ace of clubs goes home
        assert app.game.move_count == 1


@pytest.mark.parametrize("text", ["47:0", "47:00"])
async def test_a_typed_count_of_zero_names_no_hidden_card(
    storage: SQLiteStorage, text: str
) -> None:
    # Deal 7: column 4 is the king of spades, the six of diamonds and the four of
    # spades face down under the seven of hearts.
    said = await refusal(storage, text)
    assert said == "A move takes at least one card"
    assert not any(name in said.lower() for name in ("king", "six", "four", "spades"))
