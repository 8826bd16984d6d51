"""The solver's auto finish and safe auto-play, in the browser."""

from __future__ import annotations

from bonanza.core import Deal, Game
from bonanza.core.notation import format_move
from tests.session.test_auto_finish_solver import THOUGHTFUL_3, late_known_session
from tests.session.test_safe_home import KLONDIKE, triggering_move

from .browser import Table, moving_card


def test_the_solver_finish_button_appears_and_wins_the_game(table: Table) -> None:
    session = late_known_session(5)  # the greedy finish is not offered there
    line = [format_move(move) for move in session.game.history]
    table.start(session.game.deal.id, THOUGHTFUL_3.to_dict(), line)
    button = table.page.locator("#btn-auto")
    button.wait_for(state="visible")  # offered by the progress answer
    button.click()
    table.page.locator("#dlg-win").wait_for(state="visible", timeout=30_000)
    assert table.state()["won"]


def test_safe_auto_play_is_a_setting_and_one_undo_takes_its_moves_back(table: Table) -> None:
    number, history, move, sent = triggering_move(1)
    table.start(number, KLONDIKE.to_dict(), [format_move(m) for m in history])
    page = table.page
    page.locator("#btn-settings").click()
    page.locator("#dlg-settings").wait_for(state="visible")
    assert not page.locator("#set-safe-home").is_checked()
    page.locator("#set-safe-home").check()
    page.locator("#btn-settings-save").click()
    table.wait_state(lambda state: state["safe_home"])
    game = Game(Deal.parse(number), KLONDIKE)
    for played in history:
        game.play(played)
    table.drag(moving_card(game, move), table.drop_point(game, move.dest))
    total = len(history) + 1 + sent
    table.wait_moves(total)
    state = table.state()
    assert state["moves"] == total and state["history"][-sent:]
    page.locator("#btn-undo").click()
    table.wait_moves(len(history))
    assert table.state()["moves"] == len(history)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.locator("#btn-settings").click()
    page.locator("#dlg-settings").wait_for(state="visible")
    assert page.locator("#set-safe-home").is_checked()  # kept for the player
