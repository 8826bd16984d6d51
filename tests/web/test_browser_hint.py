"""The hint in the browser: the engine's words on the page, and its piles lit up."""

from __future__ import annotations

from bonanza.core import CARDS, Deal, Game, Pile, Rules

from .browser import Table

HINT_TIMEOUT_MS = 15_000
"""The server's real engine, at its default budget (about a second at most)."""


def only_draws() -> str:
    """A draw-1 deal whose only legal move at the start is a draw."""
    for number in range(200):
        game = Game(Deal.from_number(number), Rules.preset("klondike"))
        if all(move.is_draw for move in game.position.legal_moves()):
            return str(number)
    raise LookupError("no deal in 0-199 starts with draws only")


def hint_words(table: Table) -> str:
    """The words the page shows for the hint, once they are there."""
    page = table.page
    page.wait_for_selector("#toast.hint-words:not([hidden])", timeout=HINT_TIMEOUT_MS)
    return page.locator("#toast").inner_text()


def live_text(table: Table) -> str:
    table.page.wait_for_function(
        "() => document.getElementById('live').textContent.length > 0", timeout=HINT_TIMEOUT_MS
    )
    return table.page.locator("#live").inner_text()


def hinted_slots(table: Table) -> set[int]:
    piles = table.page.locator(".slot.hint").evaluate_all("els => els.map(e => e.dataset.pile)")
    return {int(pile) for pile in piles}


def test_the_hint_button_shows_the_words_and_lights_up_both_piles(table: Table) -> None:
    table.open("?deal=0")  # the ace of clubs lies on column 4: it goes home
    page = table.page
    page.locator("#btn-hint").click()
    words = hint_words(table)
    ace = CARDS[0]
    assert ace.symbol in words  # the engine names the card it moves
    assert words in live_text(table)  # ...and says it to screen readers
    page.wait_for_selector('.card.hint[data-card="AC"]')
    assert hinted_slots(table) == {Pile.T4, Pile.FC}
    label = page.locator(f'.slot[data-pile="{int(Pile.FC)}"]').get_attribute("aria-label")
    assert label is not None and "hint" in label
    table.double_click_card("AC")  # playing on takes the hint down
    table.wait_moves(1)
    page.wait_for_selector("#toast.hint-words", state="hidden")
    assert page.locator(".card.hint, .slot.hint").count() == 0


def test_a_hinted_draw_lights_up_the_stock(table: Table) -> None:
    table.open(f"?deal={only_draws()}")
    page = table.page
    page.keyboard.press("h")
    words = hint_words(table)
    assert "stock" in words.lower() or "draw" in words.lower()
    page.wait_for_selector(".card.stock-card.hint")
    assert int(Pile.STOCK) in hinted_slots(table)
    hint = table.api("GET", f"/api/games/{table.state()['id']}/hint")
    assert hint["data"]["source"] == Pile.STOCK and hint["data"]["text"] == words


def hint_box_covers(table: Table) -> list[str]:
    """The hinted cards and piles, and the status, that the hint's words lie over."""
    covered: list[str] = table.page.evaluate(
        """() => {
            const box = document.getElementById('toast').getBoundingClientRect();
            const over = r => r.left < box.right && box.left < r.right
                && r.top < box.bottom && box.top < r.bottom;
            const marked = [...document.querySelectorAll('.card.hint, .slot.hint, .status')];
            return marked.filter(e => over(e.getBoundingClientRect()))
                .map(e => e.dataset.card ?? e.dataset.pile ?? e.className);
        }"""
    )
    return covered


def test_the_hints_words_leave_what_it_points_at_in_sight(table: Table, phone: Table) -> None:
    """Issue 35: the words lay over the top row, the hint's own foundation among it, and on
    a phone over the time and moves."""
    for player in (table, phone):
        player.open("?deal=0")  # the ace of clubs (column 4) goes home: a top-row target
        player.page.locator("#btn-hint").click()
        hint_words(player)
        player.page.wait_for_selector('.card.hint[data-card="AC"]')
        assert hint_box_covers(player) == []
