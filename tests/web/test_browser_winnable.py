"""The browser's "still winnable?": asked first, answered in words, the game marked
assisted; and the review of a lost game from the header."""

from __future__ import annotations

from bonanza.session.winnable import ANSWERS, CONFIRM, LABEL

from .browser import Table

ANSWER_TIMEOUT_MS = 15_000
"""The server's real solver: a second at most, plus the trip."""
REVIEW_TIMEOUT_MS = 30_000
"""A review's solves take up to ``REVIEW_TOTAL_SECONDS`` (4 s), in a worker process
that may first have to start and import the solver: on a loaded two-core machine
that once took past 15 s, and the test failed though the review came."""
ONE_PASS = {"draw": 1, "passes": 1}
LOSING_DRAWS = ["sw"] * 5
"""Deal 0 in one pass is lost after five draws (the solver proves it)."""


def winnable_words(table: Table) -> str:
    page = table.page
    page.wait_for_function(
        "() => { const t = document.getElementById('toast');"
        " return !t.hidden && t.textContent.length > 0; }",
        timeout=ANSWER_TIMEOUT_MS,
    )
    return page.locator("#toast").inner_text()


def test_the_button_asks_first_then_shows_the_verdict_and_the_assisted_mark(
    table: Table,
) -> None:
    table.open("?deal=0")
    page = table.page
    button = page.get_by_role("button", name=LABEL)  # labelled as peeking
    assert button.is_visible()
    assert not page.locator("#st-assisted").is_visible()
    button.click()
    dialog = page.locator("#dlg-confirm")
    dialog.wait_for(state="visible")
    assert LABEL in dialog.inner_text() and CONFIRM in dialog.inner_text()
    page.locator("#confirm-cancel").click()  # no: nothing is looked at
    dialog.wait_for(state="hidden")
    assert not table.state()["assisted"]
    button.click()
    dialog.wait_for(state="visible")
    page.locator("#confirm-ok").click()
    assert winnable_words(table) == ANSWERS["winnable"]
    page.locator("#st-assisted").wait_for(state="visible")
    assert "Assisted" in page.locator("#st-assisted").inner_text()
    assert table.state()["assisted"]
    table.reload()  # the mark is the server's: it stays
    page.locator("#st-assisted").wait_for(state="visible")
    button.click()  # asked once a game: no second question
    assert winnable_words(table) == ANSWERS["winnable"]
    assert not dialog.is_visible()


def test_a_lost_game_offers_a_review_with_the_move_that_lost_it(table: Table) -> None:
    table.start("0", ONE_PASS, LOSING_DRAWS)
    page = table.page
    page.keyboard.press("Shift+W")
    page.locator("#dlg-confirm").wait_for(state="visible")
    page.locator("#confirm-ok").click()
    assert winnable_words(table) == ANSWERS["lost"]
    review = page.locator("#btn-review")
    assert not review.is_visible()
    page.locator("#btn-new").click()
    page.locator("#dlg-new").wait_for(state="visible")
    page.locator("#btn-random").click()  # the old game counts as lost
    review.wait_for(state="visible")
    review.click()
    dialog = page.locator("#dlg-review")
    dialog.wait_for(state="visible")
    page.wait_for_function(
        "() => !document.getElementById('review-critical').hidden", timeout=REVIEW_TIMEOUT_MS
    )
    critical = page.locator("#review-critical").inner_text()
    assert critical.startswith("Move ") and "lost it: sw" in critical
    assert page.locator("#review-line li").count() > 0
    assert "The deal was lost at move" in page.locator("#review-text").inner_text()
