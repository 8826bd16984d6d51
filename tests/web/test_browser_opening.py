"""Opening the page: the settings and the game come with it, so the first render waits
on one API request for a new deal and on none to resume a game."""

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


def asked_before_ready(table: Table) -> Any:
    return table.page.evaluate("window.__askedBeforeReady")


def test_a_new_deal_takes_one_request_and_a_game_in_play_none(table: Table) -> None:
    table.page.context.add_init_script(WATCH)
    table.open()
    assert asked_before_ready(table) == ["POST /api/games"]
    first = table.state()
    table.click_stock()
    table.wait_moves(1)
    table.reload()
    assert asked_before_ready(table) == []
    assert table.state()["id"] == first["id"] and table.shown_moves() == 1


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
