"""The new-deal dialog's winnable deals, daily deal and calendar, and its deal ID check."""

from __future__ import annotations

import time
from typing import Any

from bonanza.core import Deal, Rules
from bonanza.solver import solve

from .browser import Table

STOCK_WAIT = 240.0
"""Seconds the real server may take to find its first winnable deals (the filler
waits 5 s after the first request, then proves and grades deals one by one at
the lowest priority, on a shared machine)."""
NOT_A_DEAL = "That is not a deal number, code or share link"


def wait_for_stock(table: Table, draw: int) -> dict[str, Any]:
    """The daily page once today's deal and a winnable deal are ready for ``draw``."""
    deadline = time.monotonic() + STOCK_WAIT
    while True:
        page = table.api("GET", f"/api/daily?draw={draw}")
        assert page["status"] == 200, page
        if sum(page["data"]["ready"].values()) >= 2:  # one may yet become a daily deal
            return dict(page["data"])
        assert time.monotonic() < deadline, f"no winnable deal was found: {page}"
        time.sleep(1)


def open_dialog(table: Table) -> None:
    table.page.locator("#btn-new").click()
    table.page.locator("#dlg-new").wait_for(state="visible")


def give_up(table: Table, game: dict[str, Any]) -> dict[str, Any]:
    """Draw once, start any deal from the dialog: the game ends lost and shows its deal."""
    page = table.page
    table.click_stock()
    table.wait_moves(1)
    open_dialog(table)
    page.get_by_text("Any deal").click()
    page.locator("#btn-random").click()
    table.wait_state(lambda now: now["id"] != game["id"])
    over = table.api("GET", f"/api/games/{game['id']}")["data"]
    assert over["status"] == "lost" and over["deal"]
    return dict(over)


def assert_winnable(over: dict[str, Any]) -> None:
    rules = Rules.from_dict(over["rules"])
    assert solve(Deal.parse(over["deal"]), rules, time_limit=30).result == "solved"


def test_a_winnable_deal_from_the_dialog_is_proven_winnable_once_over(table: Table) -> None:
    table.open()
    page = table.page
    first = table.state()
    wait_for_stock(table, 1)
    open_dialog(table)
    page.get_by_text("Draw 1", exact=True).click()
    grade = page.locator('select[name="grade"]')
    assert grade.is_disabled()  # a grade is for winnable deals only
    page.get_by_text("Winnable only").click()
    assert not grade.is_disabled()
    grade.select_option("easy")
    button = page.locator("#btn-random")
    assert button.inner_text() == "New winnable deal"
    button.click()
    game = table.wait_state(lambda now: now["id"] != first["id"])
    assert game["grade"] in {"easy", "medium", "hard"} and "deal" not in game
    assert game["origin"] == "winnable" and game["rules"]["draw"] == 1
    page.wait_for_function(  # the live region says it once the page has the answer
        "grade => document.getElementById('live').textContent.includes(grade)",
        arg=str(game["grade"]),
    )
    page.wait_for_function(  # what the player asked for, never the deal
        "text => document.getElementById('deal-typed').textContent === text",
        arg=f"Winnable, {game['grade']}",
    )
    open_dialog(table)  # the choice is remembered
    assert page.locator('input[name="kind"][value="winnable"]').is_checked()
    assert page.locator('select[name="grade"]').input_value() == "easy"
    page.keyboard.press("Escape")
    over = give_up(table, game)
    assert_winnable(over)
    exported = table.api("GET", "/api/stats/export")["data"]["games"]
    assert over["deal"] in [row["deal"] for row in exported]


def test_the_daily_deal_and_its_calendar(table: Table) -> None:
    table.open()
    page = table.page
    first = table.state()
    daily = wait_for_stock(table, 3)
    open_dialog(table)
    page.get_by_text("Draw 3", exact=True).click()
    page.wait_for_function(
        "() => document.getElementById('daily-draw').textContent === '(3-card draw)'"
    )
    page.wait_for_function(
        "text => document.getElementById('daily-stats').textContent.startsWith(text)",
        arg="Daily deals played 0, won 0",
    )
    page.locator("#btn-daily").click()
    game = table.wait_state(lambda now: now["id"] != first["id"])
    assert game["daily"] == daily["today"] and game["rules"] == Rules(draw=3).to_dict()
    page.wait_for_function(
        "text => document.getElementById('deal-typed').textContent === text",
        arg=f"Daily {game['daily']}",
    )
    assert "deal" not in game
    over = give_up(table, game)
    assert_winnable(over)
    page.locator("#btn-stats").click()  # the daily deals' figures, in the Statistics too
    daily_stats = page.locator("#stats-body .stats-daily")
    daily_stats.wait_for()
    assert "Daily deals (3-card draw)" in daily_stats.inner_text()
    assert daily_stats.locator("tr", has_text="Played").inner_text().split()[-1] == "1"
    page.keyboard.press("Escape")
    open_dialog(table)  # today's daily, lost, is counted; past days are offered
    page.get_by_text("Draw 3", exact=True).click()
    page.wait_for_function(
        "text => document.getElementById('daily-stats').textContent.startsWith(text)",
        arg="Daily deals played 1, won 0",
    )
    days = page.locator("#daily-days button")
    assert days.count() == 29
    page.locator("#dlg-new summary").click()
    # A month calendar: each month named, its days in weekday columns, each day marked.
    months = page.locator("#daily-days .daily-month h4").all_inner_texts()
    assert months and all(any(c.isalpha() for c in m) and m[-4:].isdigit() for m in months)
    labels = days.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert all(label.endswith((", won", ", lost", ", in play", ", not played")) for label in labels)
    assert days.last.get_attribute("value") == f"daily:{daily['days'][1]['day']}"  # yesterday
    yesterday = page.locator(f"#daily-days button[value='daily:{daily['days'][1]['day']}']")
    yesterday.click()
    past = table.wait_state(lambda now: now["status"] == "playing" and "daily" in now)  # not the
    # random deal that give_up started, which may still be the current game at the first look
    assert past["daily"] == daily["days"][1]["day"] and past["origin"] in {"shared", "replay"}


def test_a_bad_deal_id_keeps_the_dialog_open_with_a_plain_message(table: Table) -> None:
    table.open()
    page = table.page
    before = table.state()
    open_dialog(table)
    page.locator("#deal-input").fill("hello")
    page.locator("#btn-play-deal").click()
    page.wait_for_function(
        "text => document.getElementById('new-error').textContent === text", arg=NOT_A_DEAL
    )
    assert page.locator("#dlg-new").is_visible()
    assert page.locator("#toast").is_hidden()
    assert table.state()["id"] == before["id"]  # nothing started
    page.locator("#deal-input").fill("77")  # a good one, from the same dialog
    page.keyboard.press("Enter")
    page.locator("#dlg-new").wait_for(state="hidden")
    page.wait_for_function("() => document.getElementById('deal-typed').textContent === '77'")


def test_a_share_link_pasted_as_the_deal_id_starts_the_shared_deal(table: Table) -> None:
    table.start("42")
    page = table.page
    shared = table.state()
    link = table.api("POST", f"/api/games/{shared['id']}/share", {})["data"]["url"]
    table.api("POST", "/api/games", {"deal": "5"})  # the shared game ends: the link opens
    table.open()
    open_dialog(table)
    page.locator("#deal-input").fill(table.base + link)
    page.locator("#btn-play-deal").click()
    page.locator("#dlg-new").wait_for(state="hidden")
    state = table.wait_state(lambda now: now["origin"] == "shared")
    assert state["position"]["columns"][0] == shared["position"]["columns"][0]


def test_a_won_daily_deal_has_its_own_win_dialog_with_the_streak(table: Table) -> None:
    """Issue 35: a daily deal's win said only that a chosen deal counts apart. The page's
    own win dialog (its module, loaded as the page loads it) is shown for a won daily
    deal as the server answers one."""
    table.open()
    won = {
        "id": "g", "status": "won", "won": True, "daily": "2026-12-05", "assisted": False,
        "rules": Rules(draw=1).to_dict(), "elapsed": 151.0, "moves": 97, "score": 620,
        "records": [], "in_records": False, "first_win": False, "position": {},
    }
    table.page.evaluate(
        "async state => { (await import('/static/js/dialogs.js')).winDialog(state); }", won
    )
    dialog = table.page.locator("#dlg-win")
    dialog.wait_for(state="visible")
    assert dialog.locator("h2").inner_text() == "Daily deal won!"
    text = dialog.inner_text()
    assert "The daily deal of" in text and "December" in text and "2026" in text  # the locale's
    assert "chosen deal" not in text
    table.page.locator("#dlg-win .daily-streak").wait_for()
    assert "Daily streak 0 days (best 0 days)" in dialog.inner_text()
