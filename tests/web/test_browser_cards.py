"""Card faces and fans in a real browser: indices never hidden, pips, court emblems, backs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import deals
from .browser import Table, boxes_overlap

ARTIFACTS = Path(__file__).parent / "artifacts"
RUN = ["KS", "QH", "JC", "TD", "9S", "8H", "7C", "6D", "5S", "4H", "3C", "2D", "AS"]
DOWN_UNDER_RUN = ["2S", "3H", "4C", "5D", "6S", "7H"]  # named only in the thoughtful variant
PIPS = {"A": 1, "T": 10, **{str(n): n for n in range(2, 10)}}
INVERTED = {"A": 0, "2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "7": 2, "8": 3, "9": 4, "T": 5}
BACKS = ["classic", "red", "green-waves"]
SPARE_DOWN = [  # the other columns' face-down cards, named in the thoughtful variant
    *("8C", "9C", "JH", "QD", "KD", "KC", "QS", "JS"),
    *("TS", "9H", "8D", "7S", "6C", "5H", "4S"),
]


def synthetic_state(thoughtful: bool = False) -> dict[str, Any]:
    """A table no deal reaches by play: a 13-card run (K down to A) over 6 face-down cards,
    and a draw-3 waste showing three cards, one a 10."""
    columns: list[dict[str, Any]] = [
        {"down": 0, "up": ["KH", "QC"]},
        {"down": 1, "up": ["9D"]},
        {"down": 2, "up": ["JD"]},
        {"down": 3, "up": ["5C", "4D"]},
        {"down": 4, "up": ["TC"]},
        {"down": 5, "up": ["2H"]},
        {"down": 6, "up": RUN},
    ]
    stock: dict[str, Any] = {"count": 4}
    if thoughtful:
        spare = iter(SPARE_DOWN)
        for column in columns[:6]:
            column["down_cards"] = [next(spare) for _ in range(column["down"])]
        columns[6]["down_cards"] = DOWN_UNDER_RUN
        stock["cards"] = ["3D", "6H", "7D", "8S"]
    return {
        "id": "synthetic",
        "rules": {"draw": 3, "thoughtful": thoughtful, "passes": None},
        "position": {
            "columns": columns,
            "stock": stock,
            "waste": ["3S", "AC", "TH"],
            "foundations": [None, None, None, None],
            "home": 0,
            "recycles": 0,
            "recycles_left": None,
            "legal": [],
        },
    }


def show_synthetic(table: Table, state: dict[str, Any]) -> None:
    """Render ``state`` with the page's own table module, in a table element beside the live one."""
    table.open()
    table.page.evaluate(
        """async (state) => {
            const { TableView } = await import("/static/js/table.js");
            const live = document.getElementById("table");
            const root = document.createElement("main");
            root.className = "table";
            root.id = "synthetic";
            live.after(root);
            live.hidden = true;
            new TableView(root).render(state);
        }""",
        state,
    )


def index_problems(table: Table, root: str) -> list[str]:
    """What hides or clips a corner index in the fans of the table ``root``.

    For every named card that is not the last of its column or of the waste: its top-left
    index box must not meet any later card of the pile, and the rank and suit must lie inside
    the index box, inside the card and inside the table's (scrollable) area.
    """
    problems: list[str] = table.page.evaluate(
        """(selector) => {
            const root = document.querySelector(selector);
            const rootBox = root.getBoundingClientRect();
            const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
                && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
            const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
            const pen = document.createElement("canvas").getContext("2d");
            // The ink of a rank: its glyphs' advance across, their drawn extent about the baseline.
            const inkBox = (rankEl) => {
                const range = document.createRange();
                range.selectNodeContents(rankEl);
                const across = range.getBoundingClientRect();
                const marker = document.createElement("span");
                marker.style.cssText = "display:inline-block;width:0;height:0";
                rankEl.append(marker);
                const baseline = marker.getBoundingClientRect().bottom;
                marker.remove();
                const style = getComputedStyle(rankEl);
                pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
                const ink = pen.measureText(rankEl.textContent);
                return { left: across.left, right: across.right,
                    top: baseline - ink.actualBoundingBoxAscent,
                    bottom: baseline + ink.actualBoundingBoxDescent };
            };
            const piles = new Map();
            for (const el of root.querySelectorAll(".card")) {
                const pile = Number(el.dataset.pile);
                // Foundations (9-12, 16-19) show one card, the stock one; 13-15 are columns 8-10.
                if ((pile >= 9 && pile <= 12) || pile >= 16 || pile === 7) continue;
                if (!piles.has(pile)) piles.set(pile, []);
                piles.get(pile).push(el);
            }
            const problems = [];
            for (const [pile, els] of piles) {
                els.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
                els.forEach((el, i) => {
                    const card = el.getBoundingClientRect();
                    const area = { left: rootBox.left, right: rootBox.right, top: rootBox.top,
                        bottom: rootBox.top + root.scrollHeight };
                    if (!inside(card, area)) problems.push(`${pile}/${i} outside the table`);
                    if (!el.dataset.card) return;
                    const idx = el.querySelector(".idx").getBoundingClientRect();
                    const rank = inkBox(el.querySelector(".idx .rank"));
                    const suit = el.querySelector(".idx .suit").getBoundingClientRect();
                    const name = el.dataset.card;
                    for (const [what, box] of [["rank", rank], ["suit", suit]]) {
                        if (!inside(box, idx)) problems.push(`${name} ${what} outside its index`);
                        if (!inside(box, card)) problems.push(`${name} ${what} clipped`);
                    }
                    for (const later of els.slice(i + 1)) {
                        const over = later.getBoundingClientRect();
                        // Stacked whole (a draw-1 waste shows its top card only): nothing to read.
                        const stacked = Math.abs(over.left - card.left) < 0.5
                            && Math.abs(over.top - card.top) < 0.5;
                        if (stacked) continue;
                        if (meet(idx, over)) {
                            problems.push(`${name} index under ${later.dataset.card || "a back"}`);
                        }
                    }
                });
            }
            return problems;
        }""",
        root,
    )
    return problems


def card_width(table: Table, root: str = "#table") -> float:
    width: float = table.page.locator(f"{root} .card").first.evaluate(
        "e => e.getBoundingClientRect().width"
    )
    return width


def apply_setting(table: Table, name: str, value: str | None) -> None:
    """Set ``<html data-NAME>`` and announce it as the settings dialog does."""
    table.page.evaluate(
        """async ([name, value]) => {
            if (value === null) delete document.documentElement.dataset[name];
            else document.documentElement.dataset[name] = value;
            window.dispatchEvent(new CustomEvent("bonanza:settings"));
            // The table lays itself out again on the next frame.
            await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        }""",
        [name, value],
    )


def artifact(name: str) -> str:
    """Where a screenshot for people to look at goes (tests/web/artifacts, not kept in git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return str(ARTIFACTS / name)


def shoot(table: Table, name: str) -> None:
    table.page.screenshot(path=artifact(name))


@pytest.mark.parametrize("thoughtful", [False, True], ids=["backs", "thoughtful"])
def test_a_long_run_over_six_down_cards_shows_every_index_on_the_desktop(
    table: Table, thoughtful: bool
) -> None:
    show_synthetic(table, synthetic_state(thoughtful))
    assert index_problems(table, "#synthetic") == []
    root = table.page.locator("#synthetic")
    # The column fits the screen (the cards shrink): no scrolling on a desktop.
    assert root.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
    assert table.page.locator('#synthetic .card[data-card="AS"]').is_visible()
    shoot(table, f"desktop-long-run-{'thoughtful' if thoughtful else 'backs'}.png")


@pytest.mark.parametrize("thoughtful", [False, True], ids=["backs", "thoughtful"])
def test_a_long_run_over_six_down_cards_shows_every_index_on_a_phone(
    phone: Table, thoughtful: bool
) -> None:
    show_synthetic(phone, synthetic_state(thoughtful))
    assert index_problems(phone, "#synthetic") == []
    root = phone.page.locator("#synthetic")
    fits = root.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
    if not fits:  # the table scrolls rather than clip or overlap
        assert root.evaluate("e => getComputedStyle(e).overflowY") == "auto"
        root.evaluate("e => { e.scrollTop = e.scrollHeight; }")
        last = phone.page.locator('#synthetic .card[data-card="AS"]').bounding_box()
        box = root.bounding_box()
        assert last is not None and box is not None
        assert last["y"] + last["height"] <= box["y"] + box["height"] + 0.5
    # Cards stay big enough to tap, and the index big enough to read.
    assert card_width(phone, "#synthetic") >= 44
    size = phone.page.locator("#synthetic .card.face .idx").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 16
    shoot(phone, f"phone-long-run-{'thoughtful' if thoughtful else 'backs'}.png")


def test_a_short_phone_screen_scrolls_the_table_rather_than_clip(phone: Table) -> None:
    phone.page.set_viewport_size({"width": 390, "height": 640})
    show_synthetic(phone, synthetic_state(thoughtful=True))
    assert index_problems(phone, "#synthetic") == []
    root = phone.page.locator("#synthetic")
    assert root.evaluate("e => e.scrollHeight > e.clientHeight")
    assert root.evaluate("e => getComputedStyle(e).overflowY") == "auto"
    assert card_width(phone, "#synthetic") >= 44
    box = root.bounding_box()
    assert box is not None
    phone.page.mouse.move(box["x"] + 20, box["y"] + box["height"] - 20)  # the felt under column 1
    phone.page.mouse.wheel(0, 2000)
    phone.page.wait_for_function("() => document.getElementById('synthetic').scrollTop > 0")
    last = phone.page.locator('#synthetic .card[data-card="AS"]').bounding_box()
    assert last is not None
    assert box["y"] <= last["y"] and last["y"] + last["height"] <= box["y"] + box["height"] + 0.5
    shoot(phone, "phone-short-screen-scrolled.png")


def test_mid_game_fans_show_every_index(table: Table, phone: Table) -> None:
    number, moves = deals.winning()
    for player, name in ((table, "desktop"), (phone, "phone")):
        player.start(number, None, deals.texts(moves[:60]))
        assert index_problems(player, "#table") == []
        shoot(player, f"{name}-table.png")


def test_the_draw_three_waste_fan_shows_each_cards_index(table: Table, phone: Table) -> None:
    for player in (table, phone):
        state = player.start("7", {"draw": 3}, ["sw"])
        waste = state["position"]["waste"]
        assert len(waste) == 3
        assert index_problems(player, "#table") == []
        shown = player.page.locator('#table .card[data-pile="8"]').count()
        assert shown == 3


def test_left_handed_puts_stock_and_waste_on_the_right_and_the_fan_stays_off_the_stock(
    table: Table,
) -> None:
    table.start("7", {"draw": 3}, ["sw"])
    before = table.slot(7)
    apply_setting(table, "hand", "left")
    stock, waste = table.slot(7), table.slot(8)
    foundations = [table.slot(pile) for pile in range(9, 13)]
    assert stock["x"] > before["x"]
    assert all(stock["x"] > f["x"] and waste["x"] > f["x"] for f in foundations)
    assert waste["x"] < stock["x"]
    assert index_problems(table, "#table") == []
    fan = table.page.locator('#table .card[data-pile="8"]').evaluate_all(
        """els => els.map(e => {
            const r = e.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        })"""
    )
    assert len(fan) == 3 and not any(boxes_overlap(card, stock) for card in fan)
    shoot(table, "desktop-left-handed.png")
    apply_setting(table, "hand", None)
    assert table.slot(7)["x"] == before["x"]


def test_card_size_setting_scales_the_cards_and_still_fits(table: Table, phone: Table) -> None:
    for player, width in ((table, 1280), (phone, 390)):
        player.open("?deal=5")
        sizes = {}
        for size in ("small", "medium", "large"):
            apply_setting(player, "size", size)
            sizes[size] = card_width(player)
            for pile in range(13):
                box = player.slot(pile)
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, (size, pile)
        assert sizes["small"] < sizes["medium"]
        if player is table:
            assert sizes["medium"] < sizes["large"]
        apply_setting(player, "size", None)
        assert card_width(player) == sizes["medium"]


def test_thoughtful_face_down_cards_are_named_marked_and_legible(table: Table) -> None:
    state = table.start("5", {"thoughtful": True})
    page = table.page
    down = page.locator("#table .card.down-visible")
    assert down.count() == 21
    named = down.evaluate_all("els => els.map(e => [e.dataset.card, e.getAttribute('aria-label')])")
    expected = [code for column in state["position"]["columns"] for code in column["down_cards"]]
    assert sorted(code for code, _ in named) == sorted(expected)
    assert all(label.endswith(", face down") for _, label in named)
    # Marked apart from the face-up cards: another background and a folded corner.
    looks = page.evaluate(
        """() => {
            const look = (el) => getComputedStyle(el).backgroundImage
                + getComputedStyle(el, "::after").content;
            const up = "#table .card.face:not(.down-visible):not(.stock-card)";
            return [look(document.querySelector("#table .card.down-visible")),
                    look(document.querySelector(up))];
        }"""
    )
    assert looks[0] != looks[1]
    assert index_problems(table, "#table") == []
    # The stock shows its next card, marked face down like the others.
    stock_cards = state["position"]["stock"]["cards"]
    top = page.evaluate(
        """() => {
            const els = [...document.querySelectorAll('#table .card.stock-card')];
            els.sort((a, b) => Number(b.style.zIndex) - Number(a.style.zIndex));
            return [els[0].dataset.card, els[0].getAttribute("aria-label")];
        }"""
    )
    assert top[0] == stock_cards[-1]
    assert top[1].endswith("Stock, face down")
    shoot(table, "desktop-thoughtful.png")
    # A drawn card is a plain face-up waste card.
    table.click_stock()
    table.wait_moves(1)
    drawn = page.locator(f'#table .card[data-card="{stock_cards[-1]}"]')
    assert drawn.get_attribute("data-pile") == "8"
    assert "stock-card" not in (drawn.get_attribute("class") or "")
    assert page.locator("#table .card.stock-card").first.get_attribute("data-card") is not None


def test_faces_carry_the_standard_pips_court_emblems_and_full_corners(table: Table) -> None:
    table.open()
    faces = table.page.evaluate(
        """async () => {
            const { faceCard } = await import("/static/js/cards.js");
            const hrefs = (el, sel) => [...el.querySelectorAll(sel)]
                .map(u => u.getAttribute("href"));
            const out = {};
            for (const suit of "CDHS") for (const rank of "A23456789TJQK") {
                const el = faceCard(rank + suit);
                out[rank + suit] = {
                    pips: el.querySelectorAll(".art .pip").length,
                    inverted: el.querySelectorAll(".art .pip.inv").length,
                    pipSuits: [...new Set(hrefs(el, ".art .pip"))],
                    emblems: hrefs(el, ".art .emblem"),
                    corner: [el.querySelector(".corner .rank").textContent,
                             el.querySelector(".corner .suit use").getAttribute("href")],
                    index: [el.querySelector(".idx .rank").textContent,
                            el.querySelector(".idx .suit use").getAttribute("href")],
                };
            }
            return out;
        }"""
    )
    for code, face in faces.items():
        rank, suit = code[0], code[1]
        label = "10" if rank == "T" else rank
        assert face["index"] == [label, f"#suit-{suit}"], code
        assert face["corner"] == [label, f"#suit-{suit}"], code
        if rank in "JQK":
            assert face["pips"] == 0 and face["emblems"] == [f"#court-{rank}"] * 2, code
        else:
            assert face["pips"] == PIPS[rank], code
            assert face["inverted"] == INVERTED[rank], code
            assert face["pipSuits"] == [f"#suit-{suit}"] and face["emblems"] == [], code
    # The symbols they use are on the page.
    page = table.page
    for symbol in ("court-J", "court-Q", "court-K", "suit-C", "suit-D", "suit-H", "suit-S"):
        assert page.locator(f"symbol#{symbol}").count() == 1


def test_pips_and_emblems_keep_clear_of_the_indices(table: Table, phone: Table) -> None:
    for player in (table, phone):
        player.open("?deal=5")
        clashes = player.page.evaluate(
            """() => [...document.querySelectorAll("#table .card.face")].flatMap(el => {
                const art = el.querySelector(".art");
                const shapes = [...art.querySelectorAll(".pip, .emblem")]
                    .map(u => u.getBoundingClientRect());
                const card = el.getBoundingClientRect();
                const meet = (a, b) => a.left < b.right && b.left < a.right
                    && a.top < b.bottom && b.top < a.bottom;
                const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
                    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
                const out = [];
                for (const corner of el.querySelectorAll(".idx, .corner")) {
                    const c = corner.getBoundingClientRect();
                    for (const s of shapes) {
                        if (meet(s, c)) out.push(`${el.dataset.card}: on ${corner.className}`);
                    }
                }
                for (const s of shapes) {
                    if (!within(s, card)) out.push(`${el.dataset.card}: a pip off the card`);
                }
                return out;
            })"""
        )
        assert clashes == []


def test_each_back_design_looks_different(table: Table) -> None:
    table.open("?deal=5")
    page = table.page
    listed = page.evaluate(
        """async () => (await import("/static/js/cards.js")).CARD_BACKS.map(b => [b.id, b.label])"""
    )
    assert [bid for bid, _ in listed] == BACKS
    assert all(label for _, label in listed)

    def look() -> str:
        value: str = page.locator("#table .card.back").first.evaluate(
            "e => getComputedStyle(e).backgroundImage"
        )
        return value

    plain = look()
    seen = {}
    for back in BACKS:
        apply_setting(table, "back", back)
        seen[back] = look()
    assert seen["classic"] == plain  # the default when the attribute is absent
    assert len(set(seen.values())) == len(BACKS)
    for back in BACKS:
        apply_setting(table, "back", back)
        page.locator('#table .slot[data-pile="7"]').screenshot(path=artifact(f"back-{back}.png"))


def test_the_cards_keep_their_size_from_move_to_move(table: Table) -> None:
    """Issue 35: the whole table rescaled as a long column grew and shrank (108, 87, 92,
    97 px over a few moves). The cards shrink once, when a column would clip, and keep
    that size while the game goes on; a new window size lays the table out afresh."""
    from .test_browser_landscape import long_column_game

    number, line = long_column_game()
    table.start(number, None, line)  # a 17-card column: the cards shrank to fit it
    shrunk = card_width(table)
    widths = []
    for count in range(len(line) - 1, len(line) - 7, -1):
        table.page.locator("#btn-undo").click()  # the long column shortens again
        table.wait_moves(count)
        widths.append(card_width(table))
    assert widths == [shrunk] * len(widths), (shrunk, widths)
    table.page.set_viewport_size({"width": 1300, "height": 820})
    table.page.wait_for_function(
        "w => document.querySelector('#table .card').getBoundingClientRect().width > w",
        arg=shrunk,
    )
