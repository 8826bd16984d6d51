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


def test_opening_the_new_deal_dialog_stops_the_finish(table: Table) -> None:
    """The finish does not go on playing behind the dialog, nor end the game under it
    (a win dialog over a New deal dialog that says the game will count as lost)."""
    session = late_known_session(5)
    line = [format_move(move) for move in session.game.history]
    table.start(session.game.deal.id, THOUGHTFUL_3.to_dict(), line)
    page = table.page
    page.locator("#btn-auto").wait_for(state="visible")
    page.keyboard.press("a")
    table.wait_moves(len(line) + 1, answered=False)
    page.keyboard.press("n")
    page.locator("#dlg-new").wait_for(state="visible")
    page.wait_for_timeout(300)  # a step under way when the dialog opened
    moves = table.state()["moves"]
    page.wait_for_timeout(1000)  # some thirty steps at the reduced motion's pace
    state = table.state()
    assert state["moves"] == moves and not state["won"]
    assert page.locator("#dlg-win").is_hidden()
    assert page.locator("#live").inner_text() == "Auto finish stopped"
    page.keyboard.press("Escape")
    assert page.locator("#auto-label").inner_text() == "Finish"  # offered again
