"""Phone portrait: every pile on one screen, no card over another pile, touch play works."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from . import deals
from .browser import Table, boxes_overlap


def pile_boxes(table: Table) -> dict[int, Any]:
    return {pile: table.slot(pile) for pile in range(13)}


def test_phone_portrait_layout_fits_and_nothing_overlaps_another_pile(phone: Table) -> None:
    number, moves = deals.winning()
    # Mid-game, with long fanned columns and cards on the foundations.
    phone.start(number, None, deals.texts(moves[:60]))
    page = phone.page
    width, height = 390, 844
    slots = pile_boxes(phone)
    for pile, box in slots.items():
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, pile
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, pile
    columns = [slots[p] for p in range(7)]
    for left, right in itertools.pairwise(columns):
        assert left["x"] + left["width"] <= right["x"]
    assert columns[0]["width"] >= 44  # big enough to tap
    cards = page.locator(".card").evaluate_all(
        """els => els.map(e => {
            const r = e.getBoundingClientRect();
            return {pile: Number(e.dataset.pile), x: r.x, y: r.y, width: r.width, height: r.height};
        })"""
    )
    assert len(cards) > 20
    table_box = page.locator("#table").bounding_box()
    controls = page.locator(".controls").bounding_box()
    assert table_box is not None and controls is not None  # both are on the page
    for card in cards:
        assert card["x"] >= 0 and card["x"] + card["width"] <= width + 0.5, card
        assert card["y"] + card["height"] <= controls["y"] + 0.5, card
        assert card["y"] >= table_box["y"] - 0.5, card
        for pile, box in slots.items():
            if pile == card["pile"]:
                continue
            assert not boxes_overlap(card, box), (card, pile)
    # Index corners are large enough to read.
    size = page.locator(".card.face .idx").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 16


def test_phone_touch_taps_play(phone: Table) -> None:
    phone.open("?deal=0")
    page = phone.page
    box = phone.card("AC")
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 6)
    phone.wait_moves(1)
    stock = phone.slot(7)
    page.touchscreen.tap(stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2)
    phone.wait_moves(2)
    assert phone.state()["history"] == ["4f", "sw"]
    page.screenshot(path=str(phone_screenshot_path()))


def phone_screenshot_path() -> Any:
    import tempfile
    from pathlib import Path

    return Path(tempfile.gettempdir()) / "bonanza-phone.png"


PHONE_WIDTHS = (390, 360)
"""Portrait phone widths the toolbar was seen to crowd at (issue 35)."""
TOUCH_TARGET_PX = 44


def test_the_phone_toolbar_labels_never_collide_and_every_button_is_a_touch_target(
    phone: Table,
) -> None:
    phone.open("?deal=7")
    page = phone.page
    for width in PHONE_WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_timeout(100)
        buttons = page.locator(".controls button:visible").evaluate_all(
            """els => els.map(b => {
                const r = b.getBoundingClientRect();
                const labels = [...b.querySelectorAll('span')]
                    .filter(s => s.getClientRects().length && !s.classList.contains('ico'))
                    .map(s => { const q = s.getBoundingClientRect();
                                return {x: q.x, y: q.y, width: q.width, height: q.height}; });
                return {id: b.id, x: r.x, y: r.y, width: r.width, height: r.height, labels};
            })"""
        )
        assert len(buttons) >= 9
        for button in buttons:
            assert button["width"] >= TOUCH_TARGET_PX and button["height"] >= TOUCH_TARGET_PX, (
                width, button["id"], button["width"], button["height"])
            assert button["x"] >= 0 and button["x"] + button["width"] <= width + 0.5
            for label in button["labels"]:  # each label inside its own button
                assert label["x"] >= button["x"] - 0.5, (width, button["id"])
                assert label["x"] + label["width"] <= button["x"] + button["width"] + 0.5, (
                    width, button["id"], label)
        for first, second in itertools.combinations(buttons, 2):
            assert not boxes_overlap(first, second), (width, first["id"], second["id"])


@pytest.mark.parametrize("size", [(390, 844), (360, 640)], ids=["390x844", "360x640"])
def test_the_new_deal_dialogs_main_button_is_in_sight_on_a_phone(
    phone: Table, size: tuple[int, int]
) -> None:
    phone.page.set_viewport_size({"width": size[0], "height": size[1]})
    phone.open("?deal=7")
    phone.page.locator("#btn-new").click()
    phone.page.locator("#dlg-new").wait_for(state="visible")
    box = phone.page.locator("#btn-random").bounding_box()
    assert box is not None and box["y"] + box["height"] <= size[1]
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    on_top = phone.page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.id", [x, y])
    assert on_top == "btn-random"  # in sight, not scrolled under anything
    dialog = phone.page.locator("#dlg-new").bounding_box()
    assert dialog is not None and dialog["x"] + dialog["width"] <= size[0]
    phone.page.locator("#btn-random").click()  # one tap deals
    phone.page.locator("#dlg-new").wait_for(state="hidden")
