"""The header on a phone held upright (issue 35): one line, at 390 and 360 px wide, whatever it
holds; what is cut short keeps its whole text in its title, and the status is always whole."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from .browser import Table, boxes_overlap
from .test_browser_header import fill_the_header, header_boxes

PHONES = ((390, 844), (360, 780))
ONE_LINE_PX = 40


def one_line(table: Table, width: int) -> dict[str, Any]:
    """The header's parts, checked to sit side by side in one row within the screen."""
    found = header_boxes(table)
    bar, parts = found["bar"], found["parts"]
    assert bar["height"] <= ONE_LINE_PX, bar
    for part in parts:
        assert part["x"] >= 0 and part["x"] + part["width"] <= width + 0.5, part
        assert part["y"] >= bar["y"] and part["y"] + part["height"] <= bar["y"] + bar["height"]
    for first, second in itertools.combinations(parts, 2):
        assert not boxes_overlap(first, second), (first, second)
        # one row: each part spans the other's middle height
        middle = first["y"] + first["height"] / 2
        assert second["y"] <= middle <= second["y"] + second["height"], (first, second)
    assert len(found["status"]) >= 4 and all(item["whole"] for item in found["status"])
    # The rules' words squeezed to a sliver show nothing rather than a clipped letter.
    width, shown = table.page.evaluate(
        """() => { const label = document.getElementById('rules-label');
                   return [label.parentElement.getBoundingClientRect().width,
                           getComputedStyle(label).visibility === 'visible']; }"""
    )
    assert width >= 30 or not shown, width
    return found


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_the_header_is_one_line_on_a_phone(phone: Table, size: Any) -> None:
    phone.page.set_viewport_size({"width": size[0], "height": size[1]})
    phone.open("?deal=7")
    one_line(phone, size[0])
    # The rules' words and the game's name, cut short or left out, are whole in the title.
    label = phone.page.locator("#rules-label")
    title, text = label.get_attribute("title"), label.text_content()
    assert text is not None
    assert title == "Klondike · " + text
    assert text and "Draw 1" in text
    assert phone.page.locator("#deal-typed").get_attribute("title") == "7"
    fill_the_header(phone)
    phone.page.wait_for_timeout(100)
    one_line(phone, size[0])


def test_a_vegas_header_with_its_bankroll_is_one_line_at_360_px(phone: Table) -> None:
    phone.page.set_viewport_size({"width": 360, "height": 780})
    phone.start("7", {"draw": 3, "scoring": "vegas-cumulative"})
    assert phone.page.locator("#st-bankroll").is_visible()
    found = one_line(phone, 360)
    assert len(found["status"]) == 5


def test_a_full_vegas_header_is_one_line_at_375_px(phone: Table) -> None:
    """The bankroll beside the review button of a game lost before (as in cumulative Vegas)."""
    phone.page.set_viewport_size({"width": 375, "height": 667})
    phone.start("7", {"draw": 3, "scoring": "vegas-cumulative"})
    fill_the_header(phone)
    phone.page.wait_for_timeout(100)
    found = one_line(phone, 375)
    assert len(found["status"]) == 5
    assert phone.page.locator("#btn-help").get_attribute("aria-label") == "Help"
