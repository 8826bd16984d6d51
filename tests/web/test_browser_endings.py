"""Dead ends, the stuck note, auto finish, and statistics after a loss, in the browser."""

from __future__ import annotations

import pytest

from bonanza.core import Deal, Game

from . import deals
from .browser import Table


def one_pass(scoring: str) -> dict[str, object]:
    return {**deals.ONE_PASS.to_dict(), "scoring": scoring}


def test_no_moves_dialog_offers_undo_and_new_game(table: Table) -> None:
    number, draws = deals.dead_end()
    table.start(number, one_pass("standard"))
    page = table.page
    dialog = page.locator("#dlg-nomoves")
    for count in range(1, draws + 1):
        assert not dialog.is_visible()
        table.click_stock()
        table.wait_moves(count)
    dialog.wait_for(state="visible")
    assert "No moves" in dialog.inner_text()
    assert not page.locator("#nomoves-deal-line").is_visible()  # still playing: no deal ID
    dialog.get_by_role("button", name="Undo last move").click()
    table.wait_moves(draws - 1)
    assert table.state()["has_moves"]
    table.click_stock()
    dialog.wait_for(state="visible")
    dead_end = table.state()["id"]
    dialog.get_by_role("button", name="New game").click()  # deals at once, no other dialog
    table.wait_moves(0)
    fresh = table.wait_state(lambda state: state["id"] != dead_end)
    assert fresh["origin"] == "random" and "deal" not in fresh and fresh["id"] != dead_end
    assert not page.locator("#dlg-new").is_visible()
    # The dead end is over now (lost): its deal ID is shown.
    page.wait_for_function(
        "n => document.getElementById('prev-deal').textContent === 'Last deal ' + n", arg=number
    )


def test_no_moves_in_vegas_offers_only_a_new_game(table: Table) -> None:
    number, draws = deals.dead_end()
    table.start(number, one_pass("vegas"))
    dialog = table.page.locator("#dlg-nomoves")
    for count in range(1, draws + 1):
        table.click_stock()
        table.wait_moves(count)
    dialog.wait_for(state="visible")
    assert dialog.get_by_role("button", name="Undo last move").is_disabled()
    assert not table.state()["can_undo"]  # a card seen from the stock stays seen
    dialog.get_by_role("button", name="Other deal…").click()  # another kind of deal
    table.page.locator("#dlg-new").wait_for(state="visible")


def test_stuck_note_when_no_progress_is_possible(table: Table) -> None:
    pytest.importorskip("bonanza.solver.progress")
    number, line = deals.stuck()
    table.start(number, deals.NO_RECALL.to_dict(), deals.texts(line[:-1]))
    note = table.page.locator("#stuck-note")
    assert table.state()["has_moves"]
    asked: list[str] = []  # the move's answer brings the check: no request follows it
    table.page.on("request", lambda request: asked.append(request.url))
    table.page.wait_for_timeout(800)
    assert not note.is_visible()  # progress was still possible before the last move
    game = Game(Deal.parse(number), deals.NO_RECALL)
    for move in line[:-1]:
        game.play(move)
    table.play(game, line[-1])  # the move after which nothing can help
    note.wait_for(state="visible")
    assert "No further progress" in note.inner_text()
    assert len(asked) == 1 and asked[0].endswith("/moves")
    table.page.locator("#stuck-close").click()
    assert not note.is_visible()
    assert not table.page.locator("#dlg-nomoves").is_visible()


def test_auto_finish_appears_sends_cards_home_and_stops_when_tapped(table: Table) -> None:
    number, moves = deals.winning()
    texts = deals.texts(moves)
    table.open()
    gid = table.api("POST", "/api/games", {"deal": number})["data"]["id"]
    played = 0
    while not table.api("GET", f"/api/games/{gid}")["data"]["auto_finish"]:
        table.api("POST", f"/api/games/{gid}/moves", {"move": texts[played]})
        played += 1
    # One move earlier, the button is not there (until the page's progress check, which
    # the page, ready at once with its game, could otherwise make before the look).
    table.api("POST", f"/api/games/{gid}/undo")
    progress = "**/api/games/*/progress"
    table.page.route(progress, lambda route: route.abort())
    table.open()
    button = table.page.locator("#btn-auto")
    assert not button.is_visible()
    table.page.unroute(progress)
    table.page.locator("#btn-redo").click()
    button.wait_for(state="visible")
    before = table.shown_moves()
    button.click()
    table.page.wait_for_function(
        "n => Number(document.getElementById('st-moves').textContent) >= n", arg=before + 2
    )
    button.click()  # stop
    table.page.wait_for_function(
        "() => document.getElementById('auto-label').textContent === 'Finish'"
    )
    table.page.wait_for_timeout(300)
    stopped = table.state()
    assert not stopped["won"] and stopped["moves"] >= before + 2
    assert table.shown_moves() == stopped["moves"]
    table.page.wait_for_timeout(300)
    assert table.state()["moves"] == stopped["moves"]  # it really stopped
    table.page.keyboard.press("a")  # the shortcut starts it again
    table.page.locator("#dlg-win").wait_for(state="visible")
    assert table.state()["won"]


def test_statistics_after_a_loss(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    table.click_stock()
    table.wait_moves(1)
    page.keyboard.press("n")
    page.locator("#btn-random").click()
    table.wait_moves(0)
    page.locator("#btn-stats").click()
    page.wait_for_selector("#stats-body table")
    # Deal 0 was typed: it counts apart from the headline figures.
    assert "No finished games of random deals yet" in page.locator(".stats-headline").inner_text()
    chosen = page.locator(".stats-chosen")
    text = chosen.inner_text()
    assert text.startswith("Chosen deals (typed, shared or replayed) — not counted above")
    assert "Played\t1" in text and "Won\t0" in text and "Win rate\t0%" in text
    assert "Current streak\t0" in text and "Best time\t–" in text
    page.get_by_role("button", name="Close").click()
