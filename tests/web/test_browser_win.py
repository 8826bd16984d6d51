"""A whole game won in the browser through real drags and clicks, then its statistics."""

from __future__ import annotations

from bonanza.core import Deal, Game, Rules

from . import deals
from .browser import Table


def test_win_a_whole_game_by_drag_and_click(table: Table) -> None:
    number, moves = deals.winning()
    table.open(f"?deal={number}")
    assert table.page.locator("#deal-typed").inner_text() == number  # typed: safe to show
    assert not table.page.locator("#deal-id").is_visible()
    game = Game(Deal.parse(number), Rules.preset("klondike"))
    for move in moves:
        table.play(game, move)
    page = table.page
    page.locator("#dlg-win").wait_for(state="visible")
    assert page.locator("#win-moves").inner_text() == str(len(moves))
    state = table.state()
    assert state["won"] and state["history"] == deals.texts(moves)
    assert page.locator("#win-score").inner_text() == str(state["score"])
    # Over: the deal's portable ID is shown, in the dialog and in the header.
    assert state["deal"] == number
    assert page.locator("#win-deal").inner_text() == number
    assert page.locator("#deal-id").inner_text() == number
    page.get_by_role("button", name="Statistics").click()
    stats = page.locator("#dlg-stats")
    stats.wait_for(state="visible")
    page.wait_for_selector("#stats-body table")
    text = stats.locator(".stats-chosen").inner_text()  # a typed deal
    assert "Played\t1" in text and "Won\t1" in text and "Win rate\t100%" in text
    assert f"Fewest moves\t{len(moves)}" in text
