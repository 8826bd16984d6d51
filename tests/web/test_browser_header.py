"""The header (issue 35): one line on a desktop whatever it holds, so the table never moves
down; on a phone nothing runs off the screen; the status is always whole."""

from __future__ import annotations

from typing import Any

import pytest

from .browser import Table, boxes_overlap

ONE_LINE_PX = 40
DESKTOPS = ((1280, 800), (1024, 700))


def fill_the_header(table: Table) -> None:
    """The most the header holds at once: a daily deal's label, the last deal's long ID
    and the review button, as after a game ends."""
    table.page.evaluate(
        """() => {
            const typed = document.getElementById('deal-typed');
            typed.hidden = false;
            typed.textContent = 'Daily 2026-12-05 · medium';
            document.getElementById('deal-id').hidden = true;
            const last = document.getElementById('prev-deal');
            last.hidden = false;
            last.textContent = 'Last deal 12345678901234567890';
            document.getElementById('btn-review').hidden = false;
        }"""
    )


def header_boxes(table: Table) -> dict[str, Any]:
    boxes: dict[str, Any] = table.page.evaluate(
        """() => {
            const box = e => { const r = e.getBoundingClientRect();
                               return {x: r.x, y: r.y, width: r.width, height: r.height}; };
            const bar = document.querySelector('.bar');
            const parts = [...bar.querySelectorAll(':scope > *, .deal-box > *')]
                .filter(e => e.getClientRects().length && !e.classList.contains('deal-box'))
                .map(e => ({name: e.id || e.className, ...box(e)}));
            const status = [...document.querySelectorAll('.status > div')]
                .filter(e => e.getClientRects().length)
                .map(e => ({name: e.textContent, ...box(e),
                            whole: e.scrollWidth <= e.clientWidth + 1}));
            return {bar: box(bar), parts, status};
        }"""
    )
    return boxes


@pytest.mark.parametrize("size", DESKTOPS, ids=[f"{w}x{h}" for w, h in DESKTOPS])
def test_a_full_header_stays_one_line_on_a_desktop(table: Table, size: Any) -> None:
    table.page.set_viewport_size({"width": size[0], "height": size[1]})
    table.open("?deal=7")
    top = table.slot(7)["y"]
    fill_the_header(table)
    table.page.wait_for_timeout(200)
    found = header_boxes(table)
    assert found["bar"]["height"] <= ONE_LINE_PX
    assert table.slot(7)["y"] == top  # the table did not move down
    for part in found["parts"]:
        assert part["x"] >= 0 and part["x"] + part["width"] <= size[0] + 0.5, part
    for first in found["parts"]:
        for second in found["parts"]:
            if first is not second and first["name"] != "status" and second["name"] != "status":
                assert not boxes_overlap(first, second), (first["name"], second["name"])
    assert all(item["whole"] for item in found["status"]), found["status"]
    parts = [p for p in found["parts"] if p["name"] != "status"]
    for item in found["status"]:
        assert not any(boxes_overlap(item, part) for part in parts), item


def test_a_full_header_stays_on_a_phone_screen(phone: Table) -> None:
    phone.open("?deal=7")
    fill_the_header(phone)
    phone.page.wait_for_timeout(200)
    found = header_boxes(phone)
    for part in found["parts"]:
        assert part["x"] >= 0 and part["x"] + part["width"] <= 390 + 0.5, part
    assert len(found["status"]) >= 4 and all(item["whole"] for item in found["status"])
