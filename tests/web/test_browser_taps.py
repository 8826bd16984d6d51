"""Taps and clicks (issue 35): a double-click or double tap is one gesture, never two
moves; a quick tap elsewhere still counts."""

from __future__ import annotations

import pytest

from .browser import Table
from .test_browser_settings import freeze_clock

DOUBLE_CLICK_GAPS_MS = (80, 300)
"""Gaps between the two clicks of a double-click at a player's normal speeds (issue 35)."""


@pytest.mark.parametrize("gap", DOUBLE_CLICK_GAPS_MS)
def test_a_double_click_at_normal_speed_makes_one_move(table: Table, gap: int) -> None:
    # Deal 7: the ace of clubs tops column 7 over the six of spades, which may go onto
    # the seven of hearts (column 4). The double-click's first click sends the ace home
    # (one tap); its second lands where the six now lies, and must not move it.
    table.open("?deal=7")
    page = table.page
    x, y = table.grab_point("AC")
    # The page's clock reads the gap exactly: a loaded test machine may take longer than
    # the gap between two clicks, which a player's browser does not.
    page.evaluate("() => { window.__now = 1000; performance.now = () => window.__now; }")
    page.mouse.click(x, y)
    page.wait_for_timeout(gap)
    page.evaluate("gap => { window.__now += gap; }", gap)
    page.mouse.click(x, y, click_count=2)
    table.wait_moves(1)
    page.wait_for_timeout(600)
    state = table.state()
    assert state["history"] == ["7f"] and state["position"]["columns"][6]["up"] == ["6S"]


def test_a_phone_double_tap_makes_one_move(phone: Table) -> None:
    phone.open("?deal=7")
    x, y = phone.grab_point("AC")
    phone.page.evaluate("() => { window.__now = 1000; performance.now = () => window.__now; }")
    phone.page.touchscreen.tap(x, y)
    phone.page.wait_for_timeout(150)
    phone.page.evaluate("() => { window.__now += 150; }")  # as the page's clock reads it
    phone.page.touchscreen.tap(x + 6, y + 4)  # a finger never lands twice on one pixel
    phone.wait_moves(1)
    phone.page.wait_for_timeout(600)
    assert phone.state()["history"] == ["7f"]


def test_a_quick_tap_elsewhere_on_the_uncovered_card_counts(table: Table) -> None:
    table.open("?deal=1")  # the six of spades goes to column 1, then the ace under it goes home
    page = table.page
    freeze_clock(page)  # the two taps are 0 ms apart for the page, well within a double tap
    x, y = table.grab_point("6S")
    page.mouse.click(x, y)
    table.wait_moves(1)
    ace = page.locator('.card[data-card="AD"][data-pile="5"]')
    ace.wait_for()
    box = ace.bounding_box()
    assert box is not None and box["y"] + box["height"] / 2 - y > 30  # out of a double tap's reach
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    table.wait_moves(2)
    assert table.state()["position"]["foundations"][1] == "AD"
