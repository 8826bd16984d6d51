"""Klondike's relatives in the browser: chosen in the new-deal dialog, laid out on a desktop
and on a phone, played by drag, click and keyboard, won."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bonanza.core import VARIANT_PRESETS, Deal, Game, Move, Pile, Rules
from bonanza.core.notation import format_move

from .browser import Table
from .test_api_variants import WESTCLIFF_WIN
from .test_browser_cards import artifact, index_problems

COLUMN_PILES = (0, 1, 2, 3, 4, 5, 6, 13, 14, 15)
FOUNDATION_PILES = (9, 10, 11, 12, 16, 17, 18, 19)
WASTE = 8
MIN_INDEX_PX = 9
"""The smallest corner index font (CSS px) that still reads as rank and suit."""
TABLES = {  # columns, foundations, a waste
    "double-klondike": (9, 8, True),
    "double-klondike-3": (9, 8, True),
    "westcliff": (10, 4, True),
    "easthaven": (7, 4, False),
}
MID_GAME_MOVES = 40


def rules_of(name: str) -> dict[str, Any]:
    return Rules.preset(name).to_dict()


def choose_game(table: Table, name: str) -> Any:
    """Start a random deal of ``name`` from the New deal dialog, as a player would."""
    page = table.page
    page.locator("#btn-new").click()
    page.locator("#dlg-new").wait_for(state="visible")
    page.locator("#form-new select[name=game]").select_option(name)
    page.locator("#btn-random").click()
    page.locator("#dlg-new").wait_for(state="hidden")
    state = table.wait_state(lambda s: s["rules"] == rules_of(name) and s["moves"] == 0)
    page.wait_for_function(
        "title => document.getElementById('game-title').textContent === title",
        arg=Rules.preset(name).title,
    )
    return state


def shown_piles(table: Table, kind: str) -> list[int]:
    piles: list[int] = table.page.locator(f".slot.{kind}:not([hidden])").evaluate_all(
        "els => els.map(e => Number(e.dataset.pile))"
    )
    return sorted(piles)


@pytest.mark.parametrize("name", list(TABLES))
def test_each_relative_is_chosen_in_the_new_deal_dialog_and_laid_out(
    table: Table, name: str
) -> None:
    table.open()
    page = table.page
    state = choose_game(table, name)
    columns, foundations, waste = TABLES[name]
    assert len(state["position"]["columns"]) == columns
    assert shown_piles(table, "column") == sorted(COLUMN_PILES[:columns])
    assert shown_piles(table, "foundation") == sorted(FOUNDATION_PILES[:foundations])
    assert page.locator(f'.slot[data-pile="{WASTE}"]').is_visible() is waste
    title = Rules.preset(name).title
    assert page.locator("#game-title").inner_text() == title
    assert page.locator(".card.back[data-card]").count() == 0  # a face-down card has no name
    # The choice is remembered: the next dialog opens on it, and says what stays Klondike's.
    table.reload()
    page.locator("#btn-new").click()
    page.locator("#dlg-new").wait_for(state="visible")
    assert page.locator("#form-new select[name=game]").input_value() == name
    words = page.locator("#klondike-only")
    assert words.is_visible()
    assert "Winnable and daily deals are Klondike's only" in words.inner_text()
    assert not page.locator("#btn-daily").is_visible()
    assert not page.locator("#form-new input[name=kind][value=winnable]").is_visible()
    page.locator("#form-new select[name=game]").select_option("klondike")
    assert page.locator("#btn-daily").is_visible() and not words.is_visible()
    page.keyboard.press("Escape")


def test_easthaven_locks_its_draw_and_passes_and_klondike_gets_its_own_back(table: Table) -> None:
    table.open()
    page = table.page
    page.locator("#btn-new").click()
    form = page.locator("#form-new")
    form.locator("select[name=game]").select_option("easthaven")
    assert form.locator("input[name=draw][value='3']").is_disabled()
    assert form.locator("select[name=passes]").is_disabled()
    assert form.locator("select[name=empty_column]").input_value() == "any"
    form.locator("select[name=game]").select_option("double-klondike")
    page.locator("#form-new .seg label", has_text="Draw 3").click()
    assert form.locator("select[name=game]").input_value() == "double-klondike-3"
    form.locator("select[name=game]").select_option("klondike")
    assert form.locator("select[name=empty_column]").input_value() == "king"
    assert form.locator("input[name=draw][value='1']").is_checked()
    page.keyboard.press("Escape")


def mid_game(player: Table, name: str, seed: int) -> Any:
    """A game of ``name`` some moves in (random legal moves by API), shown on the page."""
    chance = random.Random(seed)
    player.open()
    answer = player.api("POST", "/api/games", {"deal": str(seed), "rules": rules_of(name)})
    state = answer["data"]
    for _ in range(MID_GAME_MOVES):
        legal = [m for m in state["position"]["legal"] if m["dest"] != 7]  # no recycles
        if not legal:
            break
        columns = [m for m in legal if {m["source"], m["dest"]} <= set(COLUMN_PILES)]
        move = chance.choice(columns if columns and chance.random() < 0.7 else legal)
        body = {k: move[k] for k in ("source", "dest", "count")}
        state = player.api("POST", f"/api/games/{state['id']}/moves", body)["data"]
    player.open()
    return state


def layout_problems(player: Table) -> list[str]:
    """What is off-screen across, columns that meet, and cards over another pile's slot."""
    problems: list[str] = player.page.evaluate(
        """() => {
            const width = window.innerWidth;
            const problems = [];
            if (document.documentElement.scrollWidth > width) problems.push("it scrolls across");
            const box = (e) => e.getBoundingClientRect();
            const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
            const slots = [...document.querySelectorAll(".slot:not([hidden])")];
            const columns = slots.filter((s) => s.classList.contains("column")).map(box)
                .sort((a, b) => a.left - b.left);
            columns.slice(1).forEach((right, i) => {
                const left = columns[i];
                if (left.right > right.left + 0.5) problems.push(`columns ${i + 1} and ${i + 2}`);
            });
            for (const el of [...slots, ...document.querySelectorAll("#table .card")]) {
                const b = box(el);
                if (b.left < -0.5 || b.right > width + 0.5) problems.push(`${el.className} out`);
            }
            for (const card of document.querySelectorAll("#table .card")) {
                for (const slot of slots) {
                    if (slot.dataset.pile === card.dataset.pile) continue;
                    if (!meet(box(card), box(slot))) continue;
                    problems.push(`a card of ${card.dataset.pile} over ${slot.dataset.pile}`);
                }
            }
            return problems;
        }"""
    )
    return problems


def smallest_index_font(player: Table) -> float:
    size: float = player.page.evaluate(
        """() => Math.min(...[...document.querySelectorAll(
            "#table .card.face .idx, #table .card.face .corner"
        )].map((e) => parseFloat(getComputedStyle(e).fontSize)))"""
    )
    return size


def card_width(player: Table) -> float:
    width: float = player.page.locator("#table .card").first.evaluate(
        "e => e.getBoundingClientRect().width"
    )
    return width


@pytest.mark.parametrize("name", list(TABLES))
def test_the_desktop_fits_every_relative_with_readable_indices(table: Table, name: str) -> None:
    mid_game(table, name, 5)
    assert layout_problems(table) == []
    assert index_problems(table, "#table") == []
    assert smallest_index_font(table) >= MIN_INDEX_PX
    assert card_width(table) >= 60  # a desktop has room for proper cards
    assert not table.page.locator("#turn-note").is_visible()
    table.page.screenshot(path=artifact(f"desktop-{name}.png"))


@pytest.mark.parametrize("name", list(TABLES))
def test_a_phone_in_portrait_fits_every_relative_with_readable_indices(
    phone: Table, name: str
) -> None:
    mid_game(phone, name, 5)
    assert layout_problems(phone) == []
    assert index_problems(phone, "#table") == []
    assert smallest_index_font(phone) >= MIN_INDEX_PX
    columns = TABLES[name][0]
    # Nine or ten columns make small cards: the page suggests turning the phone.
    assert phone.page.locator("#turn-note").is_visible() is (columns > 7)
    phone.page.screenshot(path=artifact(f"phone-{name}.png"))


def test_turning_the_phone_gives_westcliff_larger_cards(phone: Table) -> None:
    mid_game(phone, "westcliff", 9)
    upright = card_width(phone)
    phone.page.locator("#turn-close").click()
    assert not phone.page.locator("#turn-note").is_visible()
    phone.page.set_viewport_size({"width": 844, "height": 390})
    phone.page.wait_for_function(
        "w => document.querySelector('#table .card').getBoundingClientRect().width > w", arg=upright
    )
    assert card_width(phone) >= 44 > upright
    assert layout_problems(phone) == []
    assert index_problems(phone, "#table") == []
    phone.page.screenshot(path=artifact("phone-landscape-westcliff.png"))


def find_move(rules: Rules, wanted: Any, deals: range = range(1, 400)) -> tuple[str, Move]:
    """A deal of ``rules`` with a legal opening move that ``wanted`` accepts."""
    for number in deals:
        game = Game(Deal.from_number(number, rules.decks), rules)
        for move in game.position.legal_moves():
            if wanted(move):
                return str(number), move
    raise LookupError("no deal has such a move")


def card_locator(player: Table, pile: int, index: int) -> Any:
    return player.page.locator(f'.card[data-pile="{pile}"][data-index="{index}"]')


def drag(player: Table, card: Any, onto: Any) -> None:
    """Drag ``card`` (and what lies on it) by its top edge onto the middle of ``onto``."""
    grab, drop = card.bounding_box(), onto.bounding_box()
    assert grab is not None and drop is not None
    mouse = player.page.mouse
    mouse.move(grab["x"] + grab["width"] / 2, grab["y"] + 6)
    mouse.down()
    mouse.move(grab["x"] + grab["width"] / 2 + 8, grab["y"] + 14, steps=2)
    mouse.move(drop["x"] + drop["width"] / 2, drop["y"] + drop["height"] / 2, steps=5)
    mouse.up()


def to_wide_column(move: Move) -> bool:
    """A card from one column to column 8, 9 or 10."""
    return move.source.is_tableau and move.dest in (Pile.T8, Pile.T9, Pile.T10)


def test_a_drag_plays_onto_column_eight_or_nine_in_double_klondike(table: Table) -> None:
    rules = Rules.preset("double-klondike")
    number, move = find_move(rules, to_wide_column)
    game = Game(Deal.parse(number, 2), rules)
    table.start(number, rules.to_dict())
    source = game.position.tableau[move.source.column_index]
    under = len(game.position.tableau[move.dest.column_index]) - 1
    drag(
        table, card_locator(table, int(move.source), len(source) - move.count),
        card_locator(table, int(move.dest), under),
    )
    table.wait_moves(1)
    assert table.state()["history"] == [format_move(move)]


def test_the_keyboard_reaches_column_ten_in_westcliff(table: Table) -> None:
    rules = Rules.preset("westcliff")
    number, move = find_move(
        rules, lambda m: m.source.is_tableau and m.source.column_index < 9 and m.dest is Pile.T10
    )
    table.start(number, rules.to_dict())
    keys = table.page.keyboard
    keys.press(str(move.source.column_index + 1))  # to the source column
    keys.press("Enter")  # pick its card up
    keys.press("0")  # to column 10
    focused = table.page.evaluate("() => document.activeElement.dataset.pile")
    assert focused == str(int(Pile.T10))
    keys.press("Enter")  # and drop it there
    table.wait_moves(1)
    assert table.state()["history"] == [format_move(move)]


def test_a_click_plays_a_card_onto_column_nine(table: Table) -> None:
    rules = Rules.preset("westcliff")

    def only_move_to_nine(move: Move) -> bool:
        return move.dest is Pile.T9 and move.source.is_tableau

    number, move = find_move(rules, only_move_to_nine)
    game = Game(Deal.parse(number), rules)
    table.start(number, rules.to_dict())
    index = len(game.position.tableau[move.source.column_index]) - move.count
    card = card_locator(table, int(move.source), index)
    card.click(position={"x": 10, "y": 6})
    moves_from_there = [m for m in game.position.legal_moves()
                        if m.source == move.source and m.count == move.count]
    if len(moves_from_there) > 1:  # picked up: the lit column takes it
        table.page.locator(f'.slot[data-pile="{int(Pile.T9)}"]').click(force=True)
    table.wait_moves(1)
    assert table.state()["history"] == [format_move(move)]


def test_easthaven_stock_deals_a_card_onto_every_column_on_a_click(table: Table) -> None:
    rules = Rules.preset("easthaven")
    table.start("3", rules.to_dict())
    page = table.page
    faces = "p => document.querySelectorAll(`.card.face[data-pile=\"${p}\"]`).length"
    before = [page.evaluate(faces, pile) for pile in COLUMN_PILES[:7]]
    table.click_stock()
    table.wait_moves(1)
    assert table.state()["history"] == ["st"]
    after = [page.evaluate(faces, pile) for pile in COLUMN_PILES[:7]]
    assert after == [n + 1 for n in before]
    # The live region is announced after the move's answer: wait for it.
    page.wait_for_function(
        "() => document.getElementById('live').textContent.startsWith('Dealt 7 cards')")
    assert page.locator("#live").inner_text().startswith("Dealt 7 cards")
    table.page.keyboard.press("u")
    table.wait_moves(0)
    assert [page.evaluate(faces, pile) for pile in COLUMN_PILES[:7]] == before


def test_westcliff_starts_with_a_card_on_the_waste_and_is_won_with_its_dialog(
    table: Table,
) -> None:
    line = WESTCLIFF_WIN.split()
    rules = Rules.preset("westcliff")
    fresh = table.start("1", rules.to_dict())
    assert len(fresh["position"]["waste"]) == 1
    assert table.page.locator(f'.card.face[data-pile="{WASTE}"]').count() == 1
    state = table.start("1", rules.to_dict(), line[:-1])
    last = next(m for m in state["position"]["legal"] if m["text"] == line[-1])
    column = state["position"]["columns"][COLUMN_PILES.index(last["source"])]
    top = column["down"] + len(column["up"]) - 1
    drag(table, card_locator(table, last["source"], top), table.page.locator(
        f'.slot[data-pile="{last["dest"]}"]'
    ))
    dialog = table.page.locator("#dlg-win")
    dialog.wait_for(state="visible")
    assert table.state()["status"] == "won"
    dialog.get_by_role("button", name="Statistics").click()
    stats = table.page.locator("#dlg-stats")
    stats.wait_for(state="visible")
    table.page.wait_for_function(
        "() => document.querySelector('#stats-body caption')?.textContent.startsWith('Westcliff: ')"
    )
    assert "Westcliff" in stats.locator(".stats-chosen caption").first.inner_text()


def test_a_hint_in_westcliff_lights_its_move_and_says_it(table: Table) -> None:
    table.start("7", rules_of("westcliff"))
    table.page.keyboard.press("h")
    toast = table.page.locator("#toast")
    toast.wait_for(state="visible")
    assert toast.inner_text()
    table.page.wait_for_selector(".card.hint, .slot.hint")


@pytest.mark.parametrize("name", list(VARIANT_PRESETS))
def test_the_help_tells_the_game_in_play(table: Table, name: str) -> None:
    table.start("7", rules_of(name))
    table.page.keyboard.press("?")
    dialog = table.page.locator("#dlg-help")
    dialog.wait_for(state="visible")
    rules = dialog.locator("[role=tabpanel]:not([hidden])").inner_text()
    title = Rules.preset(name).title
    assert f"This game: {title} · " in rules
    assert f"{title}:" in rules  # the game's own words


def test_double_klondikes_columns_line_up_under_the_top_row_on_a_desktop(table: Table) -> None:
    """Issue 35: nine columns under a ten-pile top row sat half a pile off; the empty waste
    slot looked like a foundation."""
    mid_game(table, "double-klondike", 5)
    slots = table.page.locator(".slot:not([hidden])").evaluate_all(
        "els => els.map(e => ({pile: Number(e.dataset.pile), x: e.getBoundingClientRect().x,"
        " y: e.getBoundingClientRect().y, border: getComputedStyle(e).borderTopStyle}))"
    )
    columns = sorted((s for s in slots if s["pile"] in COLUMN_PILES), key=lambda s: s["x"])
    top_row = sorted((s for s in slots if s["y"] < columns[0]["y"]), key=lambda s: s["x"])
    assert len(columns) == 9 and len(top_row) == 10
    for column, above in zip(columns, top_row, strict=False):
        assert abs(column["x"] - above["x"]) <= 1, (column, above)
    (waste,) = [s for s in slots if s["pile"] == int(Pile.WASTE)]
    foundation = next(s for s in top_row if s["pile"] not in (int(Pile.STOCK), int(Pile.WASTE)))
    assert waste["border"] != foundation["border"]
