"""Court figures (issue 35, item 19): a Jack, Queen and King each show a bust of their own
(js/courts.js), loaded after the first render with the emblems shown till then; the figure
stays on its card and clear of the corner indices, and no face-down card carries one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bonanza.storage.player_settings import THEMES

from .browser import Table

ARTIFACTS = Path(__file__).parent / "artifacts"
COURT_DEAL = "125"
"""A deal whose first face-up cards are QS, QH, JC, KD and JS: courts of both colours."""
SCREENS = {"desktop": (1280, 800), "phone": (360, 780)}
AT_READY = """
new MutationObserver((_, observer) => {
  if (document.body && document.body.hasAttribute("data-ready")) {
    const courts = [...document.querySelectorAll("#table .card.court")];
    window.__atReady = {
      courts: courts.length,
      emblems: courts.filter((card) => card.querySelectorAll(".emblem").length === 2).length,
      figures: document.querySelectorAll(".court-figure").length,
      courtsAsked: performance.getEntriesByType("resource")
        .filter((e) => e.name.endsWith("/static/js/courts.js")).length,
    };
    observer.disconnect();
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-ready"]});
"""
"""Notes what the court cards show when the page marks its first render done."""

FIGURES = """() => [...document.querySelectorAll("#table .card")].map((card) => ({
  card: card.dataset.card ?? null,
  back: card.classList.contains("back"),
  figures: [...card.querySelectorAll("svg.court-figure")].map((figure) => ({
    rank: figure.dataset.figure,
    suits: [...new Set([...figure.querySelectorAll("use")].map((u) => u.getAttribute("href")))],
    halves: figure.querySelectorAll(".court-half").length,
    drawing: figure.innerHTML.replace(/suit-[CDHS]/g, "suit"),
  })),
  emblems: card.querySelectorAll(".emblem").length,
}))"""

MEASURE = """() => {
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
      && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
      && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  return [...document.querySelectorAll("#table .card.face.court")].flatMap((card) => {
    const corners = [...card.querySelectorAll(".idx, .corner")].map(box);
    const parts = [card.querySelector(".court-figure"), ...card.querySelectorAll(".court-half")];
    return parts.map((part) => ({
      card: card.dataset.card,
      part: part.getAttribute("class"),
      width: box(part).width,
      height: box(part).height,
      clash: corners.some((c) => meet(box(part), c)),
      within: within(box(part), box(card)),
    }));
  });
}"""


def wait_for_figures(table: Table) -> None:
    table.page.wait_for_selector("#table .card.court svg.court-figure")
    table.page.wait_for_function(
        """() => [...document.querySelectorAll("#table .card.court")]
            .every((card) => card.querySelector("svg.court-figure"))"""
    )


def faces(table: Table) -> list[Any]:
    found: list[Any] = table.page.evaluate(FIGURES)
    return found


def check_figures(found: list[Any]) -> dict[str, str]:
    """Each court face has its own rank's figure, of its suit; no other card has one.
    Returns the drawing of each rank (suit left out)."""
    drawings: dict[str, str] = {}
    for card in found:
        if card["back"]:
            # a face-down card has no identity, and no figure
            assert card["card"] is None and card["figures"] == [] and card["emblems"] == 0, card
            continue
        rank, suit = card["card"][0], card["card"][1]
        if rank not in "JQK":
            assert card["figures"] == [], card
            continue
        assert card["emblems"] == 0 and len(card["figures"]) == 1, card
        figure = card["figures"][0]
        assert figure["rank"] == rank and figure["suits"] == [f"#suit-{suit}"], card
        assert figure["halves"] == 2, card  # mirrored top and bottom
        drawings.setdefault(rank, figure["drawing"])
        assert drawings[rank] == figure["drawing"], card  # one figure per rank, in any suit
    return drawings


def test_the_courts_show_their_figures_after_the_first_render(table: Table) -> None:
    page = table.page
    page.context.add_init_script(AT_READY)
    table.open(f"?deal={COURT_DEAL}")
    wait_for_figures(table)
    drawings = check_figures(faces(table))
    assert set(drawings) == {"J", "Q", "K"}
    assert len(set(drawings.values())) == 3  # a Jack, a Queen and a King each their own
    # The first render drew the emblems, with nothing of the figures asked for yet: they came
    # after it, in a file of their own (no part of the first load).
    assert page.evaluate("window.__atReady") == {
        "courts": 5,
        "emblems": 5,
        "figures": 0,
        "courtsAsked": 0,
    }
    scripts = page.evaluate(
        """() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
            .filter((path) => path.endsWith(".js"))"""
    )
    assert scripts.count("/static/js/courts.js") == 1
    first_load = page.evaluate("async () => (await (await fetch('/static/js/page.js')).text())")
    assert "function king(" not in first_load and 'import("./courts.js")' in first_load


def test_a_court_card_first_shown_after_the_figures_came_has_one(table: Table) -> None:
    """A card drawn from the stock later is made with its figure, not the emblem."""
    table.open(f"?deal={COURT_DEAL}")
    wait_for_figures(table)
    drawn: list[str] = []
    for count in range(1, 25):
        table.click_stock()
        table.wait_moves(count)
        top = table.page.evaluate(
            """() => [...document.querySelectorAll('#table .card.face[data-pile="8"]')]
                .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
                .map((e) => e.dataset.card).pop() ?? null"""
        )
        if top and top[0] in "JQK":
            drawn.append(top)
            if len(drawn) == 2:
                break
    assert drawn, "no court card in the stock"
    check_figures(faces(table))


@pytest.mark.parametrize("screen", SCREENS)
def test_the_figures_stay_on_the_card_and_clear_of_the_indices(
    table: Table, phone: Table, screen: str
) -> None:
    player = table if screen == "desktop" else phone
    width, height = SCREENS[screen]
    player.page.set_viewport_size({"width": width, "height": height})
    player.open(f"?deal={COURT_DEAL}")
    wait_for_figures(player)
    measured: list[Any] = player.page.evaluate(MEASURE)
    assert len({part["card"] for part in measured}) == 5
    for part in measured:
        assert part["within"] and not part["clash"], part
        assert part["width"] >= 10 and part["height"] >= 10, part  # drawn, not a speck


@pytest.mark.parametrize("theme", THEMES)
def test_screenshots_of_the_courts(table: Table, phone: Table, theme: str) -> None:
    """The courts in each theme at a desktop's and a phone's size, kept for people to look at
    (tests/web/artifacts: courts-THEME-desktop.png, courts-THEME-phone.png)."""
    ARTIFACTS.mkdir(exist_ok=True)
    for where, player in (("desktop", table), ("phone", phone)):
        width, height = SCREENS[where]
        player.page.set_viewport_size({"width": width, "height": height})
        player.open(f"?deal={COURT_DEAL}")
        player.api("POST", "/api/settings", {"theme": theme})
        player.reload()
        assert player.page.evaluate("() => document.documentElement.dataset.theme") == theme
        wait_for_figures(player)
        check_figures(faces(player))
        player.page.screenshot(path=ARTIFACTS / f"courts-{theme}-{where}.png")
