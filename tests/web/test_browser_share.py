"""Deals while playing: share links, the hidden deal ID, the live timed score and the bankroll."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import TYPE_CHECKING, Any

from bonanza.core import Deal

from .browser import Table

if TYPE_CHECKING:
    from tests.servers import Server

CONFIRM = "#dlg-confirm"


@contextmanager
def other_player(browser: Any, base: str) -> Iterator[Table]:
    """A second player: a new browser context, so new cookies."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    try:
        yield Table(context.new_page(), base)
    finally:
        context.close()


def stored_deal(server: Server, game_id: str) -> str:
    """The true deal of a game, read from the server's own database."""
    with closing(sqlite3.connect(server.db)) as db:
        row = db.execute("SELECT state FROM games WHERE id=?", (game_id,)).fetchone()
    assert row is not None, game_id
    deal: str = json.loads(row[0])["game"]["deal"]
    return deal


LATER = "It opens once this game is over."


def copy_link(table: Table) -> str:
    """Press "Copy deal link" and read the link back from the clipboard."""
    page = table.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy deal link").click()
    page.wait_for_function(
        "() => document.getElementById('live').textContent.startsWith('Deal link copied')"
    )
    assert page.locator("#toast").inner_text().startswith("Deal link copied")
    # While the game is played, the link does not open yet (no peeking from another browser).
    playing = table.state()["status"] == "playing"
    assert (LATER in page.locator("#live").inner_text()) == playing
    link: str = page.evaluate("navigator.clipboard.readText()")
    return link


def end_game(table: Table) -> None:
    """Start another random deal by API: the game in play ends."""
    assert table.api("POST", "/api/games", {})["status"] == 201


def share_query(table: Table, link: str) -> str:
    assert link.startswith(table.base + "/?share="), link
    return link[len(table.base) + 1 :]


def test_a_shared_link_deals_the_same_cards_to_another_player(
    table: Table, browser: Any, server: Server
) -> None:
    table.open()
    state = table.state()
    assert state["origin"] == "random" and "deal" not in state
    link = copy_link(table)
    deal = stored_deal(server, state["id"])
    assert deal not in link and Deal.parse(deal).code not in link
    layout = table.face_up_columns()
    assert [len(column) for column in layout] == [1] * 7
    with other_player(browser, table.base) as friend:
        # Not while the game it was shared from is played: the friend gets a deal of their own.
        friend.open(share_query(table, link))
        friend.page.wait_for_function(
            "() => document.getElementById('toast').textContent.includes('opens once')"
        )
        assert friend.state()["origin"] == "random"
        assert "share=" in friend.page.url  # kept, to try again later
        end_game(table)
        friend.reload()
        shared = friend.state()
        assert shared["origin"] == "shared" and shared["id"] != state["id"]
        assert shared["rules"] == state["rules"] and "deal" not in shared
        assert friend.face_up_columns() == layout
        assert "share=" not in friend.page.url  # the parameter is gone once started
        # A reload resumes the shared game rather than dealing again.
        friend.reload()
        assert friend.state()["id"] == shared["id"]


def test_without_the_clipboard_the_link_is_shown_to_copy(table: Table) -> None:
    table.open()
    page = table.page
    page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.get_by_role("button", name="Copy deal link").click()
    dialog = page.locator("#dlg-link")
    dialog.wait_for(state="visible")
    field = page.locator("#link-field")
    assert field.input_value().startswith(table.base + "/?share=")
    assert page.evaluate("document.activeElement.id") == "link-field"
    dialog.get_by_role("button", name="Close").click()
    dialog.wait_for(state="hidden")


def test_the_deal_id_is_hidden_while_playing_and_shown_once_over(
    table: Table, server: Server
) -> None:
    table.open()
    page = table.page
    table.click_stock()
    table.wait_moves(1)
    state = table.state()
    deal = stored_deal(server, state["id"])
    code = Deal.parse(deal).code
    copy_link(table)
    page.locator("#btn-new").click()  # the dialog's contents too
    page.locator("#dlg-new").wait_for(state="visible")
    seen = table.visible_text()
    page.keyboard.press("Escape")
    page.locator("#btn-stats").click()
    page.wait_for_function(
        "() => { const text = document.getElementById('stats-body').textContent;"
        " return text !== '' && !text.startsWith('Loading'); }"
    )
    seen += table.visible_text()
    page.get_by_role("button", name="Close").click()
    assert deal not in seen and code not in seen
    assert "deal=" not in page.url
    assert not page.locator("#deal-id").is_visible() and not page.locator("#prev-deal").is_visible()
    # Starting another game ends this one (lost): now its ID may be shown.
    page.keyboard.press("n")
    page.locator("#btn-random").click()
    table.wait_state(lambda now: now["id"] != state["id"])
    prev = page.locator("#prev-deal")
    page.wait_for_function(
        "d => document.getElementById('prev-deal').textContent === 'Last deal ' + d", arg=deal
    )
    assert prev.get_attribute("title") == "Copy the last game's deal ID"
    ended = table.api("GET", f"/api/games/{state['id']}")["data"]
    assert ended["status"] == "lost" and ended["deal"] == deal
    # The new game's own deal stays hidden.
    fresh = table.state()
    assert stored_deal(server, fresh["id"]) not in table.visible_text()


def test_a_shared_link_mid_game_asks_before_ending_it(table: Table, browser: Any) -> None:
    with other_player(browser, table.base) as friend:
        friend.open("?deal=7")
        link = copy_link(friend)
        end_game(friend)
    query = share_query(table, link)
    table.open()
    page = table.page
    table.click_stock()
    table.wait_moves(1)
    playing = table.state()
    # No: the game in progress goes on, and the link leaves the address.
    page.goto(table.base + "/" + query)
    confirm = page.locator(CONFIRM)
    confirm.wait_for(state="visible")
    assert page.locator("#dlg-confirm-title").inner_text() == "Start the shared deal?"
    assert "Your game in progress will count as lost." in confirm.inner_text()
    confirm.get_by_role("button", name="No").click()
    page.wait_for_selector("body[data-ready]")
    assert table.state()["id"] == playing["id"] and table.state()["moves"] == 1
    assert table.shown_moves() == 1
    assert "share=" not in page.url
    # Yes: the shared deal starts; the game in progress is lost.
    page.goto(table.base + "/" + query)
    confirm.wait_for(state="visible")
    confirm.get_by_role("button", name="Yes").click()
    page.wait_for_selector("body[data-ready]")
    shared = table.wait_state(lambda now: now["id"] != playing["id"])
    assert shared["origin"] == "shared" and shared["moves"] == 0
    assert table.api("GET", f"/api/games/{playing['id']}")["data"]["status"] == "lost"
    assert "share=" not in page.url
    # With no move made, the link starts at once.
    table.open(query)
    assert not page.locator(CONFIRM).is_visible()
    again = table.state()
    assert again["id"] != shared["id"] and again["origin"] == "shared"


def test_a_deal_link_mid_game_asks_too(table: Table) -> None:
    table.open()
    table.click_stock()
    table.wait_moves(1)
    playing = table.state()
    page = table.page
    page.goto(table.base + "/?deal=5")
    page.locator(CONFIRM).wait_for(state="visible")
    page.locator(CONFIRM).get_by_role("button", name="Yes").click()
    typed = table.wait_state(lambda now: now["id"] != playing["id"])
    assert typed["origin"] == "typed" and typed["typed"] == "5"
    page.wait_for_function("() => document.getElementById('deal-typed').textContent === '5'")
    assert "deal=" not in page.url


def test_the_timed_score_runs_down_with_the_clock(table: Table) -> None:
    page = table.page
    page.clock.install()
    table.start("0", {"scoring": "timed"})
    table.double_click_card("AC")  # home, and a card turned: points to lose
    table.wait_moves(1)
    state = table.state()
    assert state["timed"] and state["running"]
    shown = int(page.locator("#st-score").inner_text())
    assert shown == state["score"] > 4
    page.clock.fast_forward(5_000)
    page.wait_for_timeout(600)
    assert int(page.locator("#st-score").inner_text()) == shown
    page.clock.fast_forward(5_500)  # 10.5 s without a move: one period charged
    page.wait_for_function(
        "n => document.getElementById('st-score').textContent === String(n)", arg=shown - 2
    )
    # Timed: a pause never stops the clock (issue 31), so the score runs on down.
    assert state["idle_cap"] > 3600
    page.clock.fast_forward(60_000)
    page.wait_for_function(
        "n => Number(document.getElementById('st-score').textContent) <= n",
        arg=max(0, shown - 2 * 7),
    )


def test_cumulative_vegas_shows_the_bankroll(table: Table) -> None:
    table.open()
    page = table.page
    assert not page.locator("#st-bankroll-box").is_visible()
    page.locator("#btn-new").click()
    page.locator("#dlg-new").wait_for(state="visible")
    page.locator("#dlg-new").get_by_text("Draw 1", exact=True).click()
    page.locator('select[name="scoring"]').select_option("vegas-cumulative")
    page.locator("#btn-random").click()
    page.wait_for_function("() => document.getElementById('st-bankroll').textContent === '−$52'")
    assert page.locator("#st-bankroll-box").inner_text().split() == ["Bankroll", "−$52"]
    assert page.locator("#st-score").inner_text() == "−$52"  # the score is money too
    assert table.state()["bankroll"] == -52
    # A typed deal counts apart (chosen deals): its bankroll starts afresh.
    page.locator("#btn-new").click()
    page.locator("#deal-input").fill("0")
    page.locator("#btn-play-deal").click()
    page.wait_for_function("() => document.getElementById('deal-typed').textContent === '0'")
    assert page.locator("#st-bankroll").inner_text() == "−$52"
    table.double_click_card("AC")  # a card home pays 5
    table.wait_moves(1)
    page.wait_for_function("() => document.getElementById('st-bankroll').textContent === '−$47'")
    assert table.state()["bankroll"] == -47
    page.locator("#btn-stats").click()  # headed in words, the money in dollars
    stats = page.locator("#stats-body")
    stats.get_by_text("cumulative Vegas scoring").first.wait_for()
    assert "vegas-cumulative" not in stats.inner_text()
    assert "−$52" in stats.inner_text()
