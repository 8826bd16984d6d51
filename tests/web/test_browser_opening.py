"""Opening the page: the settings and the game come with it, and so does a new player's
first deal, so the first render waits on no API request; a player's next deal, once
their game is over, on one."""

from __future__ import annotations

from typing import Any

from . import deals
from .browser import Table

WATCH = """
window.__asked = [];
const fetched = window.fetch;
window.fetch = function (url, init) {
  window.__asked.push(`${(init && init.method) || "GET"} ${new URL(url, location.href).pathname}`);
  return fetched.apply(this, arguments);
};
document.addEventListener("DOMContentLoaded", () => {
  window.__themeAtContentLoaded = document.documentElement.dataset.theme;
});
new MutationObserver((_, observer) => {
  if (document.body && document.body.hasAttribute("data-ready")) {
    window.__askedBeforeReady = [...window.__asked];
    observer.disconnect();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
"""


FACE_DOWN_AT_DEAL = 21
THREE = 3
SAVED_DRAW_THREE = """
localStorage.setItem("bonanza.rules", JSON.stringify({
  draw: 3, passes: null, empty_column: "king", recall: true,
  partial_runs: true, thoughtful: false, scoring: "standard",
}));
"""
"""The rules a player chose in this browser before (the page keeps them there)."""


def asked_before_ready(table: Table) -> Any:
    return table.page.evaluate("window.__askedBeforeReady")


def test_a_new_player_plays_their_first_deal_with_no_request_and_resumes_it_with_none(
    table: Table,
) -> None:
    table.page.context.add_init_script(WATCH)
    assert not table.page.context.cookies()
    table.open()
    assert asked_before_ready(table) == []
    first = table.state()  # the page's cookie names the player whose game is drawn
    assert first["status"] == "playing" and first["moves"] == 0
    assert table.page.locator(".card.back:not(.stock-card)").count() == FACE_DOWN_AT_DEAL
    table.click_stock()  # the table drawn from the page plays
    table.wait_moves(1)
    assert table.wait_state(lambda state: state["moves"] == 1)["id"] == first["id"]
    table.reload()
    assert asked_before_ready(table) == []
    assert table.state()["id"] == first["id"] and table.shown_moves() == 1


def test_a_new_player_with_other_saved_rules_gets_a_deal_under_them(table: Table) -> None:
    table.page.context.add_init_script(WATCH)
    table.page.context.add_init_script(SAVED_DRAW_THREE)
    table.open()
    assert asked_before_ready(table) == ["POST /api/games"]
    assert table.state()["rules"]["draw"] == THREE


def test_after_a_game_is_over_the_next_deal_is_asked_for_at_once(table: Table) -> None:
    table.page.context.add_init_script(WATCH)
    table.open()
    number, moves = deals.winning()
    gid = table.api("POST", "/api/games", {"deal": number})["data"]["id"]
    for text in deals.texts(moves):
        table.api("POST", f"/api/games/{gid}/moves", {"move": text})
    assert table.state()["won"]
    table.reload()
    assert asked_before_ready(table) == ["POST /api/games"]
    assert table.state()["id"] != gid and table.state()["status"] == "playing"
    assert table.page.locator("#prev-deal").inner_text() == f"Last deal {number}"


def test_the_servers_settings_are_on_the_first_paint_without_a_request(
    table: Table, browser: Any
) -> None:
    table.open()
    assert table.api("POST", "/api/settings", {"theme": "dark"})["status"] == 200
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        context.add_cookies(table.page.context.cookies())  # the same player, a new browser
        context.add_init_script(WATCH)
        elsewhere = Table(context.new_page(), table.base).open()
        assert elsewhere.page.evaluate("window.__themeAtContentLoaded") == "dark"
        assert asked_before_ready(elsewhere) == []
    finally:
        context.close()
