"""Undo and redo shown at once (js/undo.js): the page goes back to the table the server showed
before the last move (on to the one after it) before the answer, which then stands; a refused
undo brings the table back. A card the undone move turned up goes face down again, unnamed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .browser import Table
from .test_browser_instant import PAGE_SCRIPT, hold, release, served_places, shown_places

# The answers of undo and redo are held too (``hold``), as a move's are.
SCRIPT = PAGE_SCRIPT.replace(
    'String(url).endsWith("/moves")', "/[/](moves|undo|redo)$/.test(String(url))"
)
STANDARD = {"draw": 1, "scoring": "standard"}
REFUSAL = "Nothing to undo here (a test's refusal)."


@pytest.fixture
def still(table: Table) -> Table:
    """A player on a slow network (test_browser_instant's) who asks for reduced motion."""
    table.page.add_init_script(SCRIPT)
    return table


def figures(table: Table) -> tuple[str, str]:
    page = table.page
    return page.locator("#st-moves").inner_text(), page.locator("#st-score").inner_text()


def ace_home(table: Table, latency: int = 100) -> tuple[Any, str]:
    """Deal 0 with A♣ sent home from column 4, uncovering a card: the state, and that card."""
    start = table.start("0", STANDARD)
    table.page.evaluate("ms => { window.__latency = ms; }", latency)
    table.double_click_card("AC")
    table.wait_moves(1)
    state = table.state()
    revealed: str = state["position"]["columns"][3]["up"][0]
    table.page.wait_for_selector(f'.card.face[data-card="{revealed}"]')
    return start, revealed


def wait_pile(table: Table, code: str, pile: int) -> None:
    table.page.wait_for_function(
        "([code, pile]) => document.querySelector(`.card[data-card='${code}']`)"
        "?.dataset.pile === pile",
        arg=[code, str(pile)],
    )


def test_an_undo_is_shown_before_its_answer_and_hides_the_card_it_turns_back(
    still: Table,
) -> None:
    start, revealed = ace_home(still)
    assert figures(still) == ("1", "15")
    hold(still)
    still.page.keyboard.press("u")
    wait_pile(still, "AC", 3)  # back on its column before the answer
    assert figures(still) == ("0", "0")
    assert still.state()["moves"] == 0  # the server has undone it: its answer is held
    # The card the ace had uncovered is a back again, its name nowhere in the page.
    backs = still.page.locator('.card.back[data-pile="3"]').count()
    assert backs == 3 and f'data-card="{revealed}"' not in still.visible_text()
    assert shown_places(still) == served_places(start)
    release(still)
    still.wait_moves(0)
    assert shown_places(still) == served_places(still.state())
    assert f'data-card="{revealed}"' not in still.visible_text()


def test_a_redo_is_shown_before_its_answer(still: Table) -> None:
    _, revealed = ace_home(still)
    after = still.state()
    still.page.keyboard.press("u")
    still.wait_moves(0)
    hold(still)
    still.page.keyboard.press("y")
    wait_pile(still, "AC", 9)
    assert figures(still) == ("1", "15")
    # The card the server named after that move shows again at once.
    assert (
        still.page.locator(f'.card.face[data-card="{revealed}"]').get_attribute("data-pile") == "3"
    )
    assert shown_places(still) == served_places(after)
    release(still)
    still.wait_moves(1)
    state = still.state()
    assert len(state["history"]) == 1
    assert shown_places(still) == served_places(state)


def test_a_move_on_the_table_an_undo_shows_waits_for_the_undos_answer(still: Table) -> None:
    # Quick answers: the second double-click may come soon after the first, and still counts
    # (the undo took the ace back: no half of the first double-click).
    ace_home(still, latency=0)
    hold(still)
    still.page.keyboard.press("u")
    wait_pile(still, "AC", 3)
    still.double_click_card("AC")  # again, before the undo's answer
    wait_pile(still, "AC", 9)
    assert figures(still) == ("1", "15")
    still.page.wait_for_function("() => window.__held && window.__held.length === 1")
    release(still)  # the undo's answer; then the move goes, and its answer is let through
    still.wait_moves(1)
    state = still.state()
    assert len(state["history"]) == 1 and not state["can_redo"]
    assert shown_places(still) == served_places(state)


def test_a_refused_undo_brings_the_table_and_figures_back(still: Table) -> None:
    ace_home(still)
    before = shown_places(still)
    hold(still)

    def refuse(route: Any) -> None:
        body = json.dumps({"error": REFUSAL, "status": 409})
        route.fulfill(status=409, content_type="application/json", body=body)

    still.page.route("**/api/games/*/undo", refuse)
    still.page.keyboard.press("u")
    wait_pile(still, "AC", 3)  # shown at once
    assert figures(still) == ("0", "0")
    release(still)
    still.page.locator("#toast").wait_for(state="visible")
    assert still.page.locator("#toast").inner_text() == REFUSAL
    wait_pile(still, "AC", 9)
    still.wait_moves(1)
    assert figures(still) == ("1", "15")
    assert shown_places(still) == before
