from __future__ import annotations

from bonanza.core import Deal, Position, Rules, render
from tests.core.tables import table


def test_board_shows_columns_stock_and_foundations() -> None:
    position = Position.initial(Deal.from_number(7), Rules())
    board = render(position)
    lines = board.splitlines()
    assert lines[0].startswith("[24]")
    assert lines[3].split() == ["4D", "5c", "3s", "ks", "9d", "2h", "9s"]
    assert "stock 24, waste 0" in board


def test_hidden_and_unicode_forms() -> None:
    position = Position.initial(Deal.from_number(7), Rules())
    hidden = render(position, hide=True, unicode=True)
    assert "5c" not in hidden and "##" in hidden
    assert "4♦" in hidden and "J♥" in hidden
    thoughtful = Position.initial(Deal.from_number(7), Rules(thoughtful=True))
    assert "##" not in render(thoughtful, hide=True)


def test_foundations_and_waste() -> None:
    position = table(["KS", "KH"], waste="QH JH", rules=Rules(draw=3), recycles=2)
    board = render(position)
    assert board.splitlines()[0].split() == ["[", "0]", "QH", "JH", "KC", "KD", "TH", "QS"]
    assert "recycled 2x" in board
    assert str(position) == board
