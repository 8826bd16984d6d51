"""Pips on a phone's small cards (issue 35, item 19): at 360 px upright they were drawn a few
pixels high, squeezed beside the big corner index. They are drawn bigger, spread into the room
beside the index, and stay clear of both indices and within the card."""

from __future__ import annotations

from typing import Any

import pytest

from bonanza.core import Rules

from . import deals
from .browser import Table

LEGIBLE_PX = 6.5
"""The least height of a pip of a number card (the index is 16 px): they were 4 to 5 px."""

MEASURE = """() => {
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
      && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
      && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  return [...document.querySelectorAll("#table .card.face:not(.ghost)")].flatMap((card) => {
    const corners = [...card.querySelectorAll(".idx, .corner")].map(box);
    return [...card.querySelectorAll(".art .pip")].map((pip) => ({
      card: card.dataset.card,
      height: box(pip).height,
      clash: corners.some((c) => meet(box(pip), c)),
      within: within(box(pip), box(card)),
      turned: getComputedStyle(pip).rotate === "180deg",
      inverted: pip.classList.contains("inv"),
    }));
  });
}"""


def pips(table: Table) -> list[Any]:
    found: list[Any] = table.page.evaluate(MEASURE)
    assert found
    return found


def test_pips_on_a_360_px_phone_are_legible_and_clear_of_the_index(phone: Table) -> None:
    phone.page.set_viewport_size({"width": 360, "height": 780})
    number, moves = deals.winning()
    phone.start(number, None, deals.texts(moves[:40]))  # long columns, cards home
    found = pips(phone)
    assert len({pip["card"] for pip in found if pip["card"][0] in "23456789T"}) >= 5
    for pip in found:
        assert not pip["clash"] and pip["within"], pip
        assert pip["turned"] == pip["inverted"], pip  # the lower half upside down
        if pip["card"][0] != "A":
            assert pip["height"] >= LEGIBLE_PX, pip


@pytest.mark.parametrize("game", ["double-klondike-3", "westcliff"])
def test_pips_on_the_smallest_cards_stay_clear_of_the_indices(phone: Table, game: str) -> None:
    """Nine and ten columns at 360 px: the smallest cards a phone upright shows."""
    phone.page.set_viewport_size({"width": 360, "height": 780})
    phone.start("7", Rules.preset(game).to_dict())
    assert phone.page.locator('.slot.column[data-pile="14"]').is_visible()  # nine columns or more
    for pip in pips(phone):
        assert not pip["clash"] and pip["within"], pip
