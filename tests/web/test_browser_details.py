"""Details of the page: snapping back, the pass limit, labels for screen readers, motion."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Dialog

from .browser import Table


def test_an_illegal_drop_snaps_back(table: Table) -> None:
    table.open("?deal=0")
    before = table.card("8S")
    # The eight of spades cannot go on the nine of clubs (same colour).
    target = table.card("9C")
    table.drag("8S", (target["x"] + target["width"] / 2, target["y"] + target["height"] / 2))
    table.page.wait_for_timeout(300)
    assert table.shown_moves() == 0
    after = table.card("8S")
    assert (round(after["x"]), round(after["y"])) == (round(before["x"]), round(before["y"]))
    assert table.page.locator(".card.lifted, .slot.target").count() == 0


def test_escape_mid_drag_puts_the_card_back_and_the_drop_plays_nothing(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    before = table.card("AC")
    x, y = table.grab_point("AC")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y - 40, steps=4)
    assert page.locator(".card.lifted").count() == 1
    page.keyboard.press("Escape")
    home = table.slot(9)  # the clubs foundation, where the ace could go
    page.mouse.move(home["x"] + home["width"] / 2, home["y"] + home["height"] / 2, steps=4)
    after = table.card("AC")
    assert (round(after["x"]), round(after["y"])) == (round(before["x"]), round(before["y"]))
    page.mouse.up()
    page.wait_for_timeout(300)
    assert table.shown_moves() == 0 and table.state()["moves"] == 0
    assert page.locator(".card.lifted, .slot.target").count() == 0


def test_escape_puts_down_a_card_picked_up_by_keyboard_and_says_so(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    page.keyboard.press("4")
    page.keyboard.press("Enter")
    said = "text => document.getElementById('live').textContent.startsWith(text)"
    page.wait_for_function(said, arg="Picked up Ace of clubs", timeout=2_000)
    page.keyboard.press("Escape")
    assert page.locator(".card.selected, .slot.target").count() == 0
    page.wait_for_function(said, arg="Put down", timeout=2_000)


def test_recycling_is_refused_at_the_pass_limit(table: Table) -> None:
    rules = {"draw": 1, "passes": 2, "scoring": "none"}
    table.start("0", rules)
    page = table.page
    for count in range(1, 25):
        table.click_stock()
        table.wait_moves(count)
    assert page.locator("#st-passes").inner_text() == "1/2"
    table.click_stock()  # recycle
    table.wait_moves(25)
    assert page.locator("#st-passes").inner_text() == "2/2"
    for count in range(26, 50):
        table.click_stock()
        table.wait_moves(count)
    table.click_stock()  # refused
    page.locator("#toast").wait_for(state="visible")
    assert "No more passes" in page.locator("#toast").inner_text()
    assert page.locator("#toast").get_attribute("aria-hidden") == "true"  # the live region says it
    assert table.shown_moves() == 49
    stock = page.locator(".slot.stock")
    assert "spent" in (stock.get_attribute("class") or "")
    assert not stock.locator(".recycle").is_visible()  # nothing that looks pressable
    assert (stock.get_attribute("aria-label") or "").endswith("no passes left")


def test_screen_reader_labels_and_live_region(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    assert page.locator('.card[data-card="AC"]').get_attribute("aria-label") == (
        "Ace of clubs, Column 4"
    )
    assert page.locator('.slot[data-pile="7"]').get_attribute("aria-label") == (
        "Stock, 24 cards, press to draw"
    )
    assert page.locator('.slot[data-pile="3"]').get_attribute("aria-label") == (
        "Column 4, 3 face down, top Ace of clubs"
    )
    assert page.locator('.slot[data-pile="9"]').get_attribute("aria-label") == (
        "Clubs foundation, empty"
    )
    assert page.locator(".card.back").first.get_attribute("aria-hidden") == "true"
    assert page.locator("#live").get_attribute("aria-live") == "polite"
    table.double_click_card("AC")
    table.wait_moves(1)
    assert page.locator('.slot[data-pile="9"]').get_attribute("aria-label") == (
        "Clubs foundation, up to Ace of clubs"
    )


def transition(table: Table) -> Any:
    return table.page.locator(".card").first.evaluate("e => getComputedStyle(e).transitionDuration")


def test_motion_follows_the_reduced_motion_preference(table: Table, browser: Any) -> None:
    table.open("?deal=0")
    assert transition(table).startswith("0s")  # the fixture asks for reduced motion
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        moving = Table(context.new_page(), table.base).open("?deal=0")
        assert transition(moving).startswith("0.18s")
    finally:
        context.close()


def test_thoughtful_and_whole_runs_from_the_new_deal_dialog(table: Table) -> None:
    table.open("?deal=5")
    page = table.page
    assert page.locator(".card.down-visible").count() == 0
    page.locator("#btn-new").click()
    page.locator("#dlg-new").wait_for(state="visible")
    page.locator('input[name="thoughtful"]').check()
    page.locator('input[name="whole_runs"]').check()
    page.locator("#deal-input").fill("5")
    page.locator("#btn-play-deal").click()
    page.wait_for_function("() => document.querySelectorAll('.card.down-visible').length === 21")
    rules = table.state()["rules"]
    assert rules["thoughtful"] is True and rules["partial_runs"] is False


def test_a_network_failure_says_so_in_words_and_the_next_try_plays(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    toast = page.locator("#toast")
    page.route("**/api/games/*/moves", lambda route: route.abort("internetdisconnected"))
    table.click_stock()
    toast.wait_for(state="visible")
    assert toast.inner_text().startswith("Can't reach the server")
    assert "fetch" not in toast.inner_text().lower() and table.shown_moves() == 0
    page.unroute("**/api/games/*/moves")
    page.route(
        "**/api/games/*/moves",
        lambda route: route.fulfill(status=502, body="<html>Bad gateway</html>"),
    )
    page.wait_for_timeout(400)  # past the double-tap window of the stock's last tap
    table.click_stock()
    page.wait_for_function(
        "() => document.getElementById('toast').textContent.includes('HTTP 502')"
    )
    assert toast.inner_text() == "The server could not answer (HTTP 502): try again."
    page.unroute("**/api/games/*/moves")
    table.click_stock()
    table.wait_moves(1)


def test_reset_statistics_asks_in_the_page_and_cancel_keeps_them(table: Table) -> None:
    table.start("0")
    table.click_stock()
    table.wait_moves(1)
    table.api("POST", "/api/games", {"deal": "1"})  # deal 0 ends, lost: a finished game
    table.reload()
    page = table.page
    native: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        native.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.locator("#btn-stats").click()
    body = page.locator("#stats-body")
    body.get_by_text("Played").first.wait_for()
    confirm = page.locator("#dlg-confirm")
    page.locator("#btn-stats-reset").click()
    confirm.wait_for(state="visible")
    assert "Reset all statistics?" in confirm.inner_text()
    confirm.get_by_role("button", name="Keep them").click()
    page.wait_for_timeout(300)
    assert table.api("GET", "/api/stats")["data"]["chosen"]  # kept
    page.locator("#btn-stats-reset").click()
    confirm.get_by_role("button", name="Reset").click()
    page.wait_for_function(
        "() => !document.getElementById('stats-body').textContent.includes('Played')"
    )
    assert not table.api("GET", "/api/stats")["data"]["chosen"] and not native


def test_the_new_deal_dialog_warns_that_a_game_in_progress_counts_as_lost(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    note = page.locator("#new-lost-note")
    page.locator("#btn-new").click()
    page.locator("#dlg-new").wait_for(state="visible")
    assert not note.is_visible()  # no move yet: leaving costs nothing
    page.keyboard.press("Escape")
    table.click_stock()
    table.wait_moves(1)
    page.locator("#btn-new").click()
    note.wait_for(state="visible")
    assert note.inner_text() == "Your game in progress will count as lost."


def test_focus_selection_and_hint_each_have_their_own_colour(table: Table) -> None:
    """Issue 35: the keyboard's ring, the card picked up and the hint were one gold; and
    after a keyboard drop the ring cut across the card put down."""
    table.open("?deal=1")  # the six of spades (column 6) goes onto the seven of diamonds
    page = table.page
    page.keyboard.press("6")
    page.keyboard.press("Enter")  # picked up
    six = page.locator('.card[data-card="6S"]')
    focus = six.evaluate("e => getComputedStyle(e).outlineColor")
    selected = six.evaluate("e => getComputedStyle(e).boxShadow")
    page.keyboard.press("1")
    page.keyboard.press("Enter")  # put down on column 1
    table.wait_moves(1)
    page.wait_for_function("() => document.activeElement?.dataset?.card === '6S'")
    page.keyboard.press("h")
    hinted = page.locator(".card.hint").first
    hinted.wait_for(timeout=15_000)
    hint = hinted.evaluate("e => getComputedStyle(e).boxShadow")
    colours = [focus, selected.split(") ")[0], hint.split(") ")[0]]
    assert len({colour.replace(" ", "") for colour in colours}) == 3, colours


def test_a_dragged_card_stays_in_sight_over_the_toolbar(table: Table) -> None:
    """Issue 35: a run dragged down to the bottom went under the toolbar."""
    table.open("?deal=0")
    page = table.page
    x, y = table.grab_point("AC")
    bar = page.locator(".controls").bounding_box()
    assert bar is not None
    mouse = page.mouse
    mouse.move(x, y)
    mouse.down()
    mouse.move(x + 8, y + 8, steps=2)
    over_bar = bar["y"] + bar["height"] / 2
    mouse.move(x, over_bar, steps=4)  # the card's top strip now lies over the toolbar
    found = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('.card')?.dataset.card ?? null",
        [x, over_bar + 2],
    )
    mouse.up()
    assert found == "AC"
    table.page.wait_for_timeout(300)
    assert table.state()["moves"] == 0  # dropped on nothing: it goes back
