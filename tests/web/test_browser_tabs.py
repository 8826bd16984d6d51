"""Two tabs on one player: a game started in one ends the game the other shows."""

from __future__ import annotations

from .browser import Table

ELSEWHERE = "Your game went on in another tab or window: it is shown here."


def other_tab_starts_a_game(table: Table) -> Table:
    """A second tab of the same player that starts deal 1 and draws once (a game in progress)."""
    other = Table(table.page.context.new_page(), table.base).open()
    started = other.api("POST", "/api/games", {"deal": "1", "rules": None})
    assert started["status"] == 201, started
    played = other.api("POST", f"/api/games/{started['data']['id']}/moves", {"move": "sw"})
    assert played["status"] == 200, played
    return other.reload()


def test_a_move_on_a_game_ended_in_another_tab_shows_the_game_in_progress(table: Table) -> None:
    table.start("0")
    other = other_tab_starts_a_game(table)
    table.click_stock()  # refused: deal 0's game is over (lost)
    page = table.page
    page.locator("#toast", has_text=ELSEWHERE).wait_for(state="visible", timeout=5_000)
    assert table.face_up_columns() == other.face_up_columns()
    assert table.shown_moves() == 1
    # said once to a screen reader: by the live region, not again by the box as an alert
    page.wait_for_function(f"document.getElementById('live').textContent === {ELSEWHERE!r}")
    assert page.locator("#toast").get_attribute("aria-hidden") == "true"
    table.click_stock()  # played on the game in progress
    table.wait_moves(2)
    assert other.state()["moves"] == 2
    page.keyboard.press("n")
    assert page.locator("#new-lost-note").is_visible()  # the warning is about that game


def test_a_tab_shown_again_catches_up_with_the_other(table: Table) -> None:
    table.start("0")
    other = other_tab_starts_a_game(table)
    table.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    table.page.locator("#toast", has_text=ELSEWHERE).wait_for(state="visible", timeout=5_000)
    assert table.face_up_columns() == other.face_up_columns()
    other.click_stock()
    other.wait_moves(2)
    table.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    table.wait_moves(2)  # the same game, moved on
