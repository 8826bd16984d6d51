"""The player's settings in the browser: each one changes the page, and is remembered.

Also: the themes read well everywhere, checkboxes look unchecked when they are,
button names are words, one-tap off, and a second quick tap that is no double tap.
"""

from __future__ import annotations

import re
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from bonanza.storage.player_settings import THEMES

from .browser import Table

ARTIFACTS = Path(__file__).parent / "artifacts"
LANDSCAPE = (844, 390)
"""A landscape phone's screen (issue 35's first size)."""
LOOK = """() => {
    const css = (el, name) => el ? getComputedStyle(el).getPropertyValue(name) : null;
    const box = (el) => el.getBoundingClientRect();
    return {
        attrs: {...document.documentElement.dataset},
        felt: css(document.body, "background-color"),
        back: css(document.querySelector(".card.back"), "background-image"),
        stock_x: box(document.querySelector('.slot[data-pile="7"]')).x,
        foundation_x: box(document.querySelector('.slot[data-pile="9"]')).x,
        card_width: box(document.querySelector(".card")).width,
    };
}"""
COLOURS = """() => {
    const rgba = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
    const over = (top, under) => {
        const [r, g, b, a = 1] = rgba(top);
        return [r, g, b].map((c, i) => c * a + under[i] * (1 - a));
    };
    const css = (el) => getComputedStyle(el);
    const felt = rgba(css(document.body).backgroundColor);
    const bar = document.querySelector(".bar");
    const toast = document.getElementById("toast");
    toast.textContent = "A message";
    toast.hidden = false;
    const seen = {
        felt, feltImage: css(document.body).backgroundImage,
        header: [rgba(css(bar).color), over(css(bar).backgroundColor, felt)],
        toast: [rgba(css(toast).color), over(css(toast).backgroundColor, felt)],
        dialogs: {},
    };
    toast.hidden = true;
    for (const dialog of document.querySelectorAll("dialog")) {
        dialog.showModal();
        const ground = over(css(dialog).backgroundColor, [255, 255, 255]);
        const pairs = [[rgba(css(dialog.querySelector("h2")).color), ground]];
        for (const button of dialog.querySelectorAll("button:not([disabled])")) {
            if (!button.offsetParent) continue;
            pairs.push([rgba(css(button).color), over(css(button).backgroundColor, ground)]);
        }
        seen.dialogs[dialog.id] = pairs;
        dialog.close();
    }
    return seen;
}"""
SYMBOLS = re.compile(
    r"^[^A-Za-z0-9]|[$+<=>^`|~\u00a2-\u00a9\u00ac\u00ae-\u00b1\u00b4\u00d7\u00f7"
    r"\u2100-\u2bff\u2e00-\u2e7f\ue000-\uf8ff\ufe00-\uffff\ud800-\udfff]"
)
"""A name that starts with no letter or digit, or holds a symbol character (arrows,
dingbats such as ✦ ⚙ ✕, shapes, emoji, currency, maths)."""


def luminance(rgb: list[float]) -> float:
    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[float], b: list[float]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def png_pixels(data: bytes) -> list[list[tuple[int, int, int]]]:
    """The RGB rows of an 8-bit, non-interlaced PNG (as Chromium's screenshots are)."""
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
            assert body[8] == 8 and body[12] == 0, "8-bit, non-interlaced"
            channels = {2: 3, 6: 4}[body[9]]
        elif kind == b"IDAT":
            idat += body
    raw, stride = zlib.decompress(idat), width * channels
    rows: list[list[tuple[int, int, int]]] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        row_filter, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if row_filter == 1:
                line[i] = (line[i] + a) & 255
            elif row_filter == 2:
                line[i] = (line[i] + b) & 255
            elif row_filter == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif row_filter == 4:
                p = a + b - c
                near = min((abs(p - a), 0, a), (abs(p - b), 1, b), (abs(p - c), 2, c))
                line[i] = (line[i] + near[2]) & 255
        rows.append([(line[x], line[x + 1], line[x + 2]) for x in range(0, stride, channels)])
        prev = line
    return rows


def look(page: Any) -> Any:
    return page.evaluate(LOOK)


def open_settings(page: Any) -> None:
    page.locator("#btn-settings").click()
    page.locator("#dlg-settings").wait_for(state="visible")


SAVE_SECONDS = 10.0
"""How long the server may take to have settings the page saved."""


def save_settings(table: Table, expected: dict[str, Any]) -> None:
    """Press Save, and wait until the server has the settings."""
    table.page.locator("#btn-settings-save").click()
    table.page.locator("#dlg-settings").wait_for(state="hidden")
    table.page.wait_for_function("() => !localStorage.getItem('bonanza.settings.unsaved')")
    # The flag may not be set yet when the dialog closes (a save of the same dialog
    # before it has cleared it): ask the server until it has them, for a while.
    deadline = time.monotonic() + SAVE_SECONDS
    while True:
        stored = table.api("GET", "/api/settings")["data"]
        if {name: stored[name] for name in expected} == expected or time.monotonic() > deadline:
            break
        table.page.wait_for_timeout(50)
    assert {name: stored[name] for name in expected} == expected


def freeze_clock(page: Any) -> None:
    """Stop the page's performance.now(): every tap from here on is at the same instant."""
    page.evaluate(
        """() => {
            const now = performance.now();
            performance.now = () => now;
        }"""
    )


def test_each_setting_changes_the_page_and_is_remembered(table: Table, browser: Any) -> None:
    table.open("?deal=0")
    page = table.page
    before = look(page)
    assert before["attrs"] == {"theme": "green", "back": "classic", "size": "medium"}
    assert before["stock_x"] < before["foundation_x"]
    open_settings(page)
    page.get_by_label("Table theme").select_option("dark")
    page.get_by_label("Card back").select_option("red")
    page.get_by_label("Card size").select_option("large")
    page.get_by_label("Left-handed: stock on the right").check()
    save_settings(
        table, {"theme": "dark", "card_back": "red", "card_size": "large", "left_handed": True}
    )
    after = look(page)
    assert after["attrs"] == {"theme": "dark", "back": "red", "size": "large", "hand": "left"}
    assert after["felt"] != before["felt"]
    assert after["back"] != before["back"]
    assert after["stock_x"] > after["foundation_x"]  # stock and waste on the right
    assert after["card_width"] > before["card_width"]

    table.reload()
    assert look(page) == after
    other = Table(page.context.new_page(), table.base).open()  # a new tab, same player
    assert look(other.page)["attrs"] == after["attrs"]
    other.page.close()
    page.evaluate("() => localStorage.clear()")
    table.reload()  # no copy in the browser: the server's settings
    assert look(page)["attrs"] == after["attrs"]

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        context.add_cookies(page.context.cookies())  # the same player, another browser
        elsewhere = Table(context.new_page(), table.base).open()
        assert look(elsewhere.page)["attrs"] == after["attrs"]
    finally:
        context.close()


def test_cancel_takes_back_what_the_dialog_showed(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    open_settings(page)
    page.get_by_label("Table theme").select_option("high-contrast")
    assert look(page)["attrs"]["theme"] == "high-contrast"  # shown at once
    page.get_by_role("button", name="Cancel").click()
    # The dialog's "close" event puts the look back, after the click returns: wait for it.
    page.wait_for_function("() => document.documentElement.dataset.theme === 'green'")
    assert look(page)["attrs"]["theme"] == "green"
    assert table.api("GET", "/api/settings")["data"]["theme"] == "green"


def test_the_themes_differ_and_the_header_toasts_and_dialogs_read_well(table: Table) -> None:
    table.open("?deal=0")
    seen = {}
    for theme in THEMES:
        assert table.api("POST", "/api/settings", {"theme": theme})["status"] == 200
        table.reload()
        seen[theme] = colours = table.page.evaluate(COLOURS)
        need = 7 if theme == "high-contrast" else 4.5
        pairs = {"header": colours["header"], "toast": colours["toast"]}
        for dialog, found in colours["dialogs"].items():
            pairs.update({f"{dialog} {i}": pair for i, pair in enumerate(found)})
        assert len(colours["dialogs"]) >= 7
        for where, (ink, ground) in pairs.items():
            assert contrast(ink, ground) >= need, (theme, where, ink, ground)
    assert len({str(colours["felt"]) for colours in seen.values()}) == len(THEMES)
    assert len({str(colours["dialogs"]["dlg-settings"][0][1]) for colours in seen.values()}) == 3
    assert seen["high-contrast"]["felt"] == [0, 0, 0]
    assert seen["high-contrast"]["feltImage"] == "none"  # no gradient on the table


def test_high_contrast_cards_and_focus(table: Table) -> None:
    table.open("?deal=0")
    table.api("POST", "/api/settings", {"theme": "high-contrast"})
    table.reload()
    page = table.page
    for code in ("AD", "8S"):
        ink, ground = page.locator(f'.card[data-card="{code}"]').evaluate(
            """el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]
                .map(c => c.match(/[\\d.]+/g).map(Number))"""
        )
        assert contrast(ink, ground) >= 7, code
    page.keyboard.press("Tab")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineColor")
    assert outline == "rgb(255, 255, 255)"  # white focus on black, apart from the yellow hint


@pytest.mark.parametrize("theme", THEMES)
def test_an_unchecked_box_is_empty_and_a_checked_one_filled(table: Table, theme: str) -> None:
    table.open("?deal=0")
    table.api("POST", "/api/settings", {"theme": theme, "one_tap": True, "left_handed": False})
    table.reload()
    page = table.page
    open_settings(page)
    ground = page.locator("#dlg-settings").evaluate(
        "el => getComputedStyle(el).backgroundColor.match(/[\\d.]+/g).map(Number)"
    )

    def middle(label: str) -> list[float]:
        rows = png_pixels(page.get_by_label(label).screenshot())
        h, w = len(rows), len(rows[0])
        inner = [rows[y][x] for y in range(h * 3 // 10, h * 7 // 10) for x in range(w // 5, w // 3)]
        return [sum(p[i] for p in inner) / len(inner) for i in range(3)]

    unchecked = middle("Left-handed: stock on the right")
    checked = middle("One tap plays a card's only move")
    assert contrast(unchecked, ground) < 1.3, (unchecked, ground)
    assert contrast(checked, ground) > 2, (checked, ground)


def test_button_names_are_words(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    buttons = page.get_by_role("button")
    assert buttons.count() > 30  # the controls, the header's and the table's piles and cards
    assert page.get_by_role("button", name=SYMBOLS).count() == 0, [
        b.text_content() for b in page.get_by_role("button", name=SYMBOLS).all()
    ]
    for dialog in page.locator("dialog").all():
        name = dialog.get_attribute("id")
        dialog.evaluate("d => d.showModal()")
        inside = dialog.get_by_role("button")
        assert inside.count() >= 1, name
        assert dialog.get_by_role("button", name=SYMBOLS).count() == 0, name
        dialog.evaluate("d => d.close()")
    page.locator("#stuck-note").evaluate("n => n.hidden = false")
    assert page.get_by_role("button", name="Dismiss").count() == 1
    assert page.get_by_role("button", name=SYMBOLS).count() == 0


def test_the_symbol_pattern_catches_glyph_names() -> None:
    for bad in ("✦ New", "⚙ Settings", "✕", "↶ Undo", "? Hint", "♪ Sound", "▤"):
        assert SYMBOLS.search(bad), bad
    words = ("New", "Still winnable? (peeks at hidden cards)", "Sound on (M)", "Deal ID 7, copy")
    for good in words:
        assert not SYMBOLS.search(good), good


def test_the_volume_and_sound_setting_reach_the_sound(table: Table) -> None:
    page = table.page
    page.add_init_script(
        """(() => {
            const audio = window.__audio = { gains: [], sounds: 0 };
            const base = BaseAudioContext.prototype;
            const gain = base.createGain;
            base.createGain = function () {
                const node = gain.call(this);
                audio.gains.push(node);
                return node;
            };
            for (const name of ["createOscillator", "createBufferSource"]) {
                const make = base[name];
                base[name] = function () { audio.sounds += 1; return make.call(this); };
            }
        })()"""
    )
    table.open("?deal=0")
    open_settings(page)
    page.get_by_label("Volume").fill("30")
    save_settings(table, {"volume": 30, "sound": True})
    table.click_stock()
    table.wait_moves(1)
    page.wait_for_function("() => window.__audio.sounds > 0")
    master = "() => window.__audio.gains[0].gain.value"
    assert page.evaluate(master) == pytest.approx(0.3)
    open_settings(page)
    page.get_by_label("Volume").fill("70")
    save_settings(table, {"volume": 70})
    assert page.evaluate(master) == pytest.approx(0.7)
    table.reload()
    table.click_stock()
    table.wait_moves(2)
    page.wait_for_function("() => window.__audio.sounds > 0")
    assert page.evaluate(master) == pytest.approx(0.7)  # kept

    page.keyboard.press("m")  # sound off, as the player's setting
    assert page.locator("#btn-mute").get_attribute("aria-pressed") == "true"
    table.page.wait_for_function("() => !localStorage.getItem('bonanza.settings.unsaved')")
    assert table.api("GET", "/api/settings")["data"]["sound"] is False
    made = page.evaluate("() => window.__audio.sounds")
    table.click_stock()
    table.wait_moves(3)
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.__audio.sounds") == made  # silent


DOUBLE_TAP_MS = 400
"""A little over taps.js's DOUBLE_TAP_MS (380 ms)."""


def test_one_tap_off_picks_the_card_up_and_a_tap_on_a_target_plays_it(table: Table) -> None:
    table.open("?deal=1")  # the six of spades (column 6) has one move: onto the seven in column 1
    page = table.page
    table.click_card("6S")
    table.wait_moves(1)  # one tap: played at once
    page.locator("#btn-undo").click()
    table.wait_moves(0)
    # A tap on the card just played is taken for the second tap of a double tap for a
    # moment (taps.js DOUBLE_TAP_MS): let it pass, however fast the server answers.
    page.wait_for_timeout(DOUBLE_TAP_MS)

    open_settings(page)
    page.get_by_label(re.compile("One tap plays")).uncheck()
    save_settings(table, {"one_tap": False})
    table.click_card("6S")
    page.wait_for_timeout(400)
    assert table.shown_moves() == 0 and table.state()["moves"] == 0
    assert "selected" in (page.locator('.card[data-card="6S"]').get_attribute("class") or "")
    assert page.locator(".card.target, .slot.target").count() >= 1
    target = page.locator(".card.target").first
    target.click()
    table.wait_moves(1)
    assert table.state()["position"]["columns"][0]["up"][-1] == "6S"

    table.reload()  # still off after a reload, and a drag still plays
    page.locator("#btn-undo").click()
    table.wait_moves(0)
    six, seven = table.card("6S"), table.card(table.state()["position"]["columns"][0]["up"][-1])
    table.drag("6S", (seven["x"] + seven["width"] / 2, seven["y"] + seven["height"] / 2))
    table.wait_moves(1)
    assert six != table.card("6S")


def test_one_tap_off_still_sends_a_card_home_with_a_double_tap(table: Table) -> None:
    table.open("?deal=0")
    table.api("POST", "/api/settings", {"one_tap": False})
    table.reload()
    freeze_clock(table.page)
    table.click_card("AC")
    table.page.wait_for_timeout(100)
    assert table.shown_moves() == 0  # picked up
    table.click_card("AC")
    table.wait_moves(1)
    assert table.state()["position"]["foundations"][0] == "AC"


def test_two_quick_taps_on_the_stock_draw_twice(table: Table) -> None:
    table.open("?deal=0")
    freeze_clock(table.page)
    table.click_stock()
    table.click_stock()
    table.wait_moves(2)
    assert table.state()["position"]["stock"]["count"] == 22


def test_a_real_double_tap_still_sends_a_card_home(table: Table) -> None:
    # Deal 3 after the ace of clubs went home: the ace of diamonds (column 1) may go
    # home or onto the two of clubs, so one tap picks it up and a double tap sends it home.
    table.start("3", line=["6f"])
    freeze_clock(table.page)
    table.click_card("AD")
    table.page.wait_for_timeout(100)
    assert table.shown_moves() == 1
    table.click_card("AD")
    table.wait_moves(2)
    state = table.state()
    assert state["position"]["foundations"][1] == "AD" and state["history"][-1] == "1f"


def test_the_theme_is_on_the_page_before_its_first_paint(table: Table) -> None:
    table.open("?deal=0")
    table.api("POST", "/api/settings", {"theme": "dark"})
    table.reload()  # the page keeps a copy of the settings for the next first paint
    page = table.page
    page.add_init_script(
        """(() => {
            window.__themed = null;
            const watch = () => new MutationObserver(() => {
                const dark = document.documentElement.dataset.theme === "dark";
                if (window.__themed === null && dark) window.__themed = performance.now();
            }).observe(document.documentElement, { attributes: true });
            if (document.documentElement) watch();
            else document.addEventListener("readystatechange", watch, { once: true });
        })()"""
    )
    for _ in range(3):
        table.reload()
        # A loaded machine may finish loading before it paints: wait for the paint.
        page.wait_for_function(
            """() => performance.getEntriesByType("paint").some(e => e.name === "first-paint")"""
        )
        themed, painted = page.evaluate(
            """() => [window.__themed, performance.getEntriesByType("paint")
                .find(e => e.name === "first-paint")?.startTime]"""
        )
        assert themed is not None and painted is not None and themed <= painted


@pytest.mark.parametrize("theme", THEMES)
def test_screenshots_of_the_themes(table: Table, phone: Table, theme: str) -> None:
    """Issue 35: each theme at a desktop's, a phone's and a landscape phone's size, kept for
    people to look at (tests/web/artifacts)."""
    ARTIFACTS.mkdir(exist_ok=True)
    portrait = phone.page.viewport_size
    sizes = (("desktop", table, None), ("phone", phone, None), ("landscape", phone, LANDSCAPE))
    for where, player, size in sizes:
        if size is not None:
            player.page.set_viewport_size({"width": size[0], "height": size[1]})
        player.start("5", line=["sw", "sw"])
        player.api("POST", "/api/settings", {"theme": theme})
        player.reload()
        assert player.page.evaluate("() => document.documentElement.dataset.theme") == theme
        player.page.screenshot(path=ARTIFACTS / f"theme-{theme}-{where}.png")
    assert portrait is not None
    phone.page.set_viewport_size(portrait)


def test_the_settings_checkboxes_are_one_size_and_in_line(table: Table) -> None:
    """Issue 35: safe auto-play's box was larger than the others and out of line."""
    table.open("?deal=0")
    open_settings(table.page)
    boxes = table.page.locator("#dlg-settings input[type=checkbox]").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " const font = getComputedStyle(e.closest('label')).fontSize;"
        " return {name: e.name, x: r.x, size: r.width, font}; })"
    )
    assert len({round(box["size"], 1) for box in boxes}) == 1, boxes
    assert len({box["font"] for box in boxes}) == 1, boxes
    first_column = [box for box in boxes if box["name"] in ("sound", "one_tap", "safe_home")]
    assert len({round(box["x"]) for box in first_column}) == 1, first_column
