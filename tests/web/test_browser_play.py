"""Playing in the browser: taps, double-clicks, keyboard, undo and redo, reloads, deal IDs."""

from __future__ import annotations

from bonanza.core import Deal, Game, Rules
from bonanza.core.notation import format_move

from . import deals
from .browser import Table, moving_card


def klondike(deal: str) -> Game:
    return Game(Deal.parse(deal), Rules.preset("klondike"))


def test_tap_a_card_then_tap_the_target(table: Table) -> None:
    number, first, second = deals.fork()
    table.open(f"?deal={number}")
    game = klondike(number)
    code = moving_card(game, first)
    table.click_card(code)
    page = table.page
    page.wait_for_selector(f'.card[data-card="{code}"].selected')
    targets = {
        int(v)
        for v in page.locator(".slot.target").evaluate_all("els => els.map(e => e.dataset.pile)")
    }
    assert targets == {first.dest, second.dest}
    assert table.shown_moves() == 0
    x, y = table.drop_point(game, second.dest)
    page.mouse.click(x, y)
    table.wait_moves(1)
    assert table.state()["history"] == [format_move(second)]
    assert page.locator(".slot.target").count() == 0


def test_one_tap_sends_a_card_to_its_only_destination(table: Table) -> None:
    number, move = deals.single()
    table.open(f"?deal={number}")
    table.click_card(moving_card(klondike(number), move))
    table.wait_moves(1)
    assert table.state()["history"] == [format_move(move)]


def test_double_click_sends_a_card_home_and_nothing_else(table: Table) -> None:
    table.open("?deal=0")  # the ace of clubs lies on column 4
    table.double_click_card("AC")
    table.wait_moves(1)
    table.page.wait_for_timeout(500)
    state = table.state()
    assert state["history"] == ["4f"] and state["position"]["foundations"][0] == "AC"


def test_keyboard_shortcuts(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    page.keyboard.press("Space")
    table.wait_moves(1)
    assert table.state()["position"]["stock"]["count"] == 23
    page.keyboard.press("u")
    table.wait_moves(0)
    page.keyboard.press("y")
    table.wait_moves(1)
    page.keyboard.press("h")
    page.wait_for_selector(".card.hint, .slot.hint")
    page.keyboard.press("m")
    assert page.locator("#btn-mute").get_attribute("aria-pressed") == "true"
    table.reload()
    assert page.locator("#btn-mute").get_attribute("aria-pressed") == "true"
    page.keyboard.press("m")
    assert page.locator("#btn-mute").get_attribute("aria-pressed") == "false"
    page.keyboard.press("n")
    page.locator("#dlg-new").wait_for(state="visible")
    page.keyboard.press("Escape")
    page.locator("#dlg-new").wait_for(state="hidden")
    assert table.shown_moves() == 1  # cancelled: same game


def test_full_keyboard_play_with_focus_and_enter(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    page.keyboard.press("ArrowRight")  # into the table: the stock
    assert page.evaluate("document.activeElement.dataset.pile") == "7"
    for _ in range(6):  # waste, four foundations, column 1
        page.keyboard.press("ArrowRight")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "AC"
    focus_ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert focus_ring != "none"
    page.keyboard.press("Enter")  # pick up: focus jumps to the only target
    page.wait_for_selector('.card[data-card="AC"].selected')
    assert page.evaluate("document.activeElement.dataset.pile") == "9"
    page.keyboard.press("Enter")  # drop
    table.wait_moves(1)
    assert table.state()["history"] == ["4f"]
    live = page.locator("#live")
    page.wait_for_function("() => document.getElementById('live').textContent.includes('revealed')")
    assert live.inner_text().startswith("Ace of clubs to clubs foundation; revealed ")


def test_arrows_follow_the_table_as_seen_when_left_handed(table: Table) -> None:
    """Left-handed, the stock is rightmost in the top row: Right goes on to the right."""
    table.open()
    table.api("POST", "/api/settings", {"left_handed": True})
    table.open("?deal=0")
    page = table.page
    focused = "() => [document.activeElement.getBoundingClientRect()].map(b => [b.y, b.x])[0]"
    page.keyboard.press("ArrowDown")  # the focus comes to the stock
    assert page.evaluate("document.activeElement.dataset.pile") == "7"
    walked = [page.evaluate(focused)]
    for _ in range(5):  # the waste, then the four foundations: the top row, right to left
        page.keyboard.press("ArrowLeft")
        walked.append(page.evaluate(focused))
    assert len({y for y, _ in walked}) == 1
    assert [x for _, x in walked] == sorted({x for _, x in walked}, reverse=True)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == walked[-2]


def test_undo_redo_buttons_and_restart_asks_first(table: Table) -> None:
    table.open("?deal=0")
    page = table.page
    table.double_click_card("AC")
    table.wait_moves(1)
    table.click_stock()
    table.wait_moves(2)
    page.locator("#btn-undo").click()
    table.wait_moves(1)
    page.locator("#btn-undo").click()
    table.wait_moves(0)
    assert page.locator("#btn-undo").is_disabled()
    page.locator("#btn-redo").click()
    table.wait_moves(1)
    page.locator("#btn-redo").click()
    table.wait_moves(2)
    assert page.locator("#btn-redo").is_disabled()
    page.locator("#btn-restart").click()
    dialog = page.locator("#dlg-confirm")
    dialog.wait_for(state="visible")
    dialog.get_by_role("button", name="Cancel").click()
    assert table.shown_moves() == 2
    page.locator("#btn-restart").click()
    dialog.get_by_role("button", name="Restart").click()
    table.wait_moves(0)
    assert table.state()["can_redo"]


def test_reload_mid_game_resumes_it(table: Table) -> None:
    number, moves = deals.winning()
    table.open(f"?deal={number}")
    game = klondike(number)
    for move in moves[:8]:
        table.play(game, move)
    before = table.state()
    table.reload()
    table.wait_moves(8)
    after = table.state()
    assert after["id"] == before["id"] and after["history"] == before["history"]
    for column in after["position"]["columns"]:
        for code in column["up"]:
            assert table.page.locator(f'.card[data-card="{code}"]').is_visible()
    assert table.page.locator(".card.back").count() >= sum(
        c["down"] for c in after["position"]["columns"]
    )


def test_typed_deal_in_the_url_and_the_new_deal_dialog(table: Table) -> None:
    table.open("?deal=123")
    page = table.page
    state = table.state()
    assert state["origin"] == "typed" and state["typed"] == "123" and "deal" not in state
    # The typed text is shown (the player typed it); the link's parameter is gone.
    assert page.locator("#deal-typed").inner_text() == "123"
    assert not page.locator("#deal-id").is_visible()
    assert "deal=" not in page.url
    page.locator("#btn-new").click()
    dialog = page.locator("#dlg-new")
    dialog.wait_for(state="visible")
    dialog.get_by_text("Draw 3").click()
    page.locator("#deal-input").fill("nonsense")
    page.locator("#btn-play-deal").click()
    page.wait_for_function(  # the dialog stays open, with a plain message
        "() => document.getElementById('new-error').textContent"
        " === 'That is not a deal number, code or share link'"
    )
    assert dialog.is_visible()
    page.locator("#deal-input").fill("77")
    page.locator("#btn-play-deal").click()
    page.wait_for_function("() => document.getElementById('deal-typed').textContent === '77'")
    state = table.state()
    assert state["typed"] == "77" and state["rules"]["draw"] == 3
    assert page.url == table.base + "/"  # nothing about the deal in the address
    # The game before (deal 123, no move made) is over: its ID is shown to copy.
    prev = page.locator("#prev-deal")
    prev.wait_for(state="visible")
    assert prev.inner_text() == "Last deal 123"
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    prev.click()
    page.wait_for_function(
        "() => document.getElementById('toast').textContent === 'Deal ID 123 copied'"
    )
    assert page.evaluate("navigator.clipboard.readText()") == "123"
    # Replay: the page does not know the deal, so it names the game to play again.
    page.locator("#btn-new").click()
    with page.expect_request("**/api/games") as sent:
        page.locator("#btn-replay").click()
    assert sent.value.post_data_json == {"replay": state["id"]}
    replay = table.wait_state(lambda now: now["id"] != state["id"])
    assert replay["origin"] == "replay" and replay["moves"] == 0 and "deal" not in replay
    assert replay["position"] == state["position"]
    page.wait_for_function("() => document.getElementById('deal-typed').hidden")
    assert "77" not in page.locator("header").inner_text()  # the last deal is this one
    page.locator("#btn-new").click()
    page.locator("#btn-random").click()
    fresh = table.wait_state(lambda now: now["id"] != replay["id"])
    assert fresh["origin"] == "random"
    page.wait_for_function(
        "() => document.getElementById('prev-deal').textContent === 'Last deal 77'"
    )


def test_vegas_scoring_sets_the_passes_default(table: Table) -> None:
    table.open("?deal=5")
    page = table.page
    page.locator("#btn-new").click()
    page.locator("#dlg-new").wait_for(state="visible")
    passes = page.locator('select[name="passes"]')
    scoring = page.locator('select[name="scoring"]')
    page.locator("#dlg-new").get_by_text("Draw 1", exact=True).click()
    passes.select_option("")
    scoring.select_option("vegas")
    assert passes.input_value() == "1"
    # Still the default: it follows the draw.
    page.locator("#dlg-new").get_by_text("Draw 3", exact=True).click()
    assert passes.input_value() == "3"
    passes.select_option("2")  # the player may choose others
    page.locator("#dlg-new").get_by_text("Draw 1", exact=True).click()
    assert passes.input_value() == "2"
    scoring.select_option("standard")
    scoring.select_option("vegas-cumulative")
    assert passes.input_value() == "1"
    page.locator("#btn-random").click()
    table.wait_state(lambda now: now["rules"]["scoring"] == "vegas-cumulative")
    assert table.state()["rules"]["passes"] == 1
