"""Instant moves: the page shows a legal move at once and the server's answer judges it.

The page's moves answer 100 ms late here (its ``fetch`` waits before handing a move's answer
on, as a slow network would), or not until the test lets them (``hold``). Each input's first
change to the table and the frame after it are timed in the page with ``performance.now()``.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from bonanza.core import Deal, Game, Move, Pile, Rules
from bonanza.core.notation import format_move

from .browser import Table, moving_card
from .test_browser_motion import moving  # noqa: F401 (a fixture)
from .test_browser_motion import (
    test_safe_auto_play_sends_its_cards_home_one_after_another as flies_in_turn,
)

DRAW_1 = {"draw": 1, "scoring": "none"}
LATENCY_MS = 100
WASTE = 8
MOVES = "**/api/games/*/moves"
REFUSAL = "That move is not allowed here (a test's refusal)."

# A move's answer comes LATENCY_MS late, or waits while window.__held is a list (release()).
# Every input (a press let go, a key) is timed to the first change of the table after it, and
# to the frame after that; what the table and the move counter showed then is noted.
PAGE_SCRIPT = """
window.__latency = LATENCY;
window.__held = null;
window.__sent = 0;
const fetchNow = window.fetch.bind(window);
window.fetch = async (url, init) => {
  const moving = String(url).endsWith("/moves");
  if (moving) window.__sent += 1;
  const answer = await fetchNow(url, init);
  if (!moving) return answer;
  await new Promise((resolve) => setTimeout(resolve, window.__latency));
  if (window.__held) await new Promise((resolve) => window.__held.push(resolve));
  return answer;
};
window.__release = () => {
  const held = window.__held || [];
  window.__held = null;
  held.forEach((resolve) => resolve());
};
window.__inputs = [];
let armed = null;
const arm = (event) => {
  const input = {kind: event.type, at: event.timeStamp, handled: performance.now(), between: false};
  armed = input;
  requestAnimationFrame(() => {
    if (armed === input) input.between = true; // a frame was drawn before the table changed
  });
};
addEventListener("pointerup", arm, true);
addEventListener("keydown", arm, true);
new MutationObserver((records) => {
  const table = document.getElementById("table");
  if (!armed || !records.some((r) => table && table.contains(r.target))) return;
  const input = armed;
  armed = null;
  input.changed = performance.now() - input.at;
  input.moves = document.getElementById("st-moves").textContent;
  input.places = Object.fromEntries([...document.querySelectorAll(".card[data-card]")]
    .map((el) => [el.dataset.card, el.dataset.pile]));
  requestAnimationFrame(() => {
    input.frame = performance.now() - input.at;
    window.__inputs.push(input);
  });
}).observe(document, {subtree: true, childList: true, attributes: true});
""".replace("LATENCY", str(LATENCY_MS))


@pytest.fixture
def slow(moving: Table) -> Table:  # noqa: F811 (the imported fixture)
    """A player on a slow network, whose browser shows motion."""
    moving.page.add_init_script(PAGE_SCRIPT)
    return moving


@pytest.fixture
def still(table: Table) -> Table:
    """A player on a slow network who asks for reduced motion."""
    table.page.add_init_script(PAGE_SCRIPT)
    return table


def slow_down(table: Table) -> None:
    """Play the page's animations at a twentieth of their speed: a test sees them under way."""
    cdp = table.page.context.new_cdp_session(table.page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.05})


def hold(table: Table) -> None:
    """Keep the moves' answers from the page until ``release``."""
    table.page.evaluate("window.__held = []")


def release(table: Table) -> None:
    table.page.evaluate("window.__release()")


def last_input(table: Table, count: int = 1) -> Any:
    """The timing of the ``count``th input since the page opened, once its frame is drawn."""
    table.page.wait_for_function("n => window.__inputs.length >= n", arg=count)
    return table.page.evaluate("n => window.__inputs[n - 1]", count)


def shown_places(table: Table) -> dict[str, str]:
    """Each named card the page shows, and its pile."""
    places: dict[str, str] = table.page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll(".card[data-card]:not(.ghost)")]
            .map((el) => [el.dataset.card, el.dataset.pile]))"""
    )
    return places


def served_places(state: Any) -> dict[str, str]:
    """Each card the server's view names, and its pile (the foundations' top two)."""
    pos = state["position"]
    places: dict[str, str] = {}
    for i, column in enumerate(pos["columns"]):
        for code in column["up"]:
            places[code] = str(i)
    for code in pos["waste"][-3:]:
        places[code] = str(WASTE)
    ranks = "A23456789TJQK"
    for i, top in enumerate(pos["foundations"]):
        if top:
            places[top] = str(9 + i)
            if top[0] != "A":
                places[ranks[ranks.index(top[0]) - 1] + top[1]] = str(9 + i)
    return places


def wait_settled(table: Table, moves: int) -> Any:
    """The server's game once it has ``moves`` moves and the page shows its table (the move
    counter alone does not tell: it counts a move shown before its answer)."""
    table.wait_moves(moves)
    state = table.wait_state(lambda state: state["moves"] == moves)
    table.page.wait_for_function(
        """places => !document.querySelector('.card.pending') && Object.entries(places).every(
            ([code, pile]) => document.querySelector(`.card[data-card='${code}']:not(.ghost)`)
                ?.dataset.pile === pile)""",
        arg=served_places(state),
    )
    return state


def refuse(table: Table, times: int = 1) -> list[str]:
    """Make the server refuse the next ``times`` moves (409, in its JSON); the bodies sent."""
    sent: list[str] = []

    def answer(route: Any) -> None:
        if len(sent) >= times:
            route.continue_()
            return
        sent.append(route.request.post_data or "")
        body = json.dumps({"error": REFUSAL, "status": 409})
        route.fulfill(status=409, content_type="application/json", body=body)

    table.page.route(MOVES, answer)
    return sent


# -- the first frame -------------------------------------------------------------------------


def test_a_move_draws_its_first_frame_before_its_answer_comes(slow: Table) -> None:
    """Each move's first frame shows it while its answer is held: the player sees the move
    before the server's answer, well within a slow network's delay. The first frame's time
    itself (about a refresh, 16 ms, on an idle machine) is printed, not judged: a loaded
    2-core machine may take longer to draw any frame."""
    slow.start("0", DRAW_1)
    hold(slow)
    slow.double_click_card("AC")  # home from column 4, over 3 cards face down
    timings = [last_input(slow)]
    assert timings[0]["places"]["AC"] == "9"  # the ace already on its foundation
    release(slow)
    wait_settled(slow, 1)  # each input on a table with no move waiting
    for moves in range(2, 6):
        slow.page.evaluate("window.__inputs = []")
        hold(slow)
        if moves % 2:
            slow.page.keyboard.press("Space")
        else:
            slow.click_stock()
        timings.append(last_input(slow))  # its frame drawn, its answer still held
        release(slow)
        wait_settled(slow, moves)
    for moves, timing in enumerate(timings):
        print(
            f"{timing['kind']}: handled {timing['handled'] - timing['at']:.1f} ms after the input,"
            f" table changed at {timing['changed']:.1f} ms, next frame at {timing['frame']:.1f} ms"
        )
        assert not timing["between"], timing  # the first frame after the input shows the move
        assert timing["moves"] == str(moves + 1), timing  # counted before its answer came
    # Before the answer (held above), and sooner than a slow network's answer would come.
    frames = sorted(timing["frame"] for timing in timings)
    assert frames[len(frames) // 2] < LATENCY_MS, frames


def test_a_move_shows_before_its_answer_and_keeps_its_place_after(still: Table) -> None:
    state = still.start("0", DRAW_1)
    hold(still)
    still.double_click_card("AC")
    still.page.wait_for_function(
        "() => document.querySelector('.card[data-card=\"AC\"]').dataset.pile === '9'"
    )
    assert still.shown_moves() == 1  # counted, though the answer has not come
    assert still.state()["moves"] == 1  # the server has it: its answer is held
    release(still)
    state = wait_settled(still, 1)
    assert state["position"]["foundations"][0] == "AC"
    assert shown_places(still) == served_places(state)


# -- what the page cannot know: drawn and uncovered cards ----------------------------------------


def test_a_draw_moves_at_once_and_shows_its_card_when_the_answer_comes(slow: Table) -> None:
    slow.start("0", DRAW_1)
    slow_down(slow)
    hold(slow)
    slow.click_stock()
    slow.page.wait_for_selector(f'.card.back.pending[data-pile="{WASTE}"]')
    under_way = slow.page.evaluate(
        """() => document.querySelector('.card.pending').getAnimations()
            .filter(a => a.playState === 'running').length"""
    )
    assert under_way == 1  # on its way from the stock
    assert slow.page.locator(f'.card.face[data-pile="{WASTE}"]').count() == 0
    release(slow)
    state = wait_settled(slow, 1)
    top = state["position"]["waste"][-1]
    card = slow.page.locator(f'.card.face[data-card="{top}"]')
    assert card.get_attribute("data-pile") == str(WASTE)
    slow.page.keyboard.press("Shift")  # any key snaps the motion to its end
    slow.page.wait_for_function("() => !document.querySelector('.ghost')")


def test_a_drawn_card_is_never_named_before_its_answer(still: Table) -> None:
    state = still.start("0", DRAW_1)
    hold(still)
    still.click_stock()
    still.page.wait_for_selector(f'.card.back.pending[data-pile="{WASTE}"]')
    before = still.visible_text()
    release(still)
    state = wait_settled(still, 1)
    top = state["position"]["waste"][-1]
    assert f'data-card="{top}"' not in before
    assert f'data-card="{top}"' in still.visible_text()


def test_a_card_a_move_uncovers_stays_face_down_until_the_answer_names_it(slow: Table) -> None:
    slow.start("0", DRAW_1)
    slow_down(slow)  # on a loaded machine the flip could end before the test looks
    hold(slow)
    slow.double_click_card("AC")
    slow.page.wait_for_function(
        "() => document.querySelector('.card[data-card=\"AC\"]').dataset.pile === '9'"
    )
    column = slow.page.evaluate(
        """() => [...document.querySelectorAll('.card[data-pile="3"]')]
            .map(el => el.classList.contains('back') ? 'back' : el.dataset.card)"""
    )
    assert column == ["back", "back", "back"]  # the card under the ace, still face down
    release(slow)
    state = wait_settled(slow, 1)
    revealed = state["position"]["columns"][3]["up"][0]
    face = slow.page.locator(f'.card[data-card="{revealed}"]')
    assert face.get_attribute("data-pile") == "3"
    # It turns over from its back, as when the answer came first.
    assert (
        slow.page.evaluate(
            "code => document.querySelector(`.card[data-card='${code}']`).getAnimations().length",
            revealed,
        )
        >= 1
    )


# -- refusals ----------------------------------------------------------------------------------


def test_a_refused_move_is_taken_back_with_the_servers_words(still: Table) -> None:
    state = still.start("0", DRAW_1)
    before = shown_places(still)
    refuse(still)
    still.double_click_card("AC")
    still.page.locator("#toast").wait_for(state="visible")
    assert still.page.locator("#toast").inner_text() == REFUSAL
    still.page.wait_for_function(
        "() => document.querySelector('.card[data-card=\"AC\"]').dataset.pile === '3'"
    )
    assert shown_places(still) == before
    assert still.state()["moves"] == 0 and still.shown_moves() == 0
    still.page.wait_for_function(
        "text => document.getElementById('live').textContent === text", arg=REFUSAL
    )
    # The server's table stands, and the page plays on from it.
    still.double_click_card("AC")
    state = wait_settled(still, 1)
    assert shown_places(still) == served_places(state)


def test_a_move_that_cannot_reach_the_server_is_taken_back_in_plain_words(still: Table) -> None:
    still.start("0", DRAW_1)
    before = shown_places(still)
    still.page.route(MOVES, lambda route: route.abort())
    still.click_stock()
    still.page.locator("#toast").wait_for(state="visible")
    text = still.page.locator("#toast").inner_text()
    assert text.startswith("Can't reach the server") and "Failed to fetch" not in text
    still.page.wait_for_function("() => !document.querySelector('.card.pending')")
    assert shown_places(still) == before
    assert still.page.locator(f'.card[data-pile="{WASTE}"]').count() == 0


# -- two quick moves ----------------------------------------------------------------------------


@cache
def dependent_moves() -> tuple[str, Move, Move]:
    """A draw-1 deal and two moves between its columns, the second legal only after the first
    (a card onto the card the first put down), neither uncovering a card."""
    rules = Rules.from_dict(DRAW_1)
    for number in range(300):
        position = Game(Deal.from_number(number), rules).position
        before = position.legal_moves()
        for first in before:
            if first.source.is_foundation or first.source in (Pile.STOCK, Pile.WASTE):
                continue
            if first.dest.is_foundation:
                continue
            after = position.copy()
            if after.play(first) is not None:
                continue  # it uncovers a card
            for second in after.legal_moves():
                if second in before or second.dest != first.dest or second.source == Pile.WASTE:
                    continue
                return str(number), first, second
    raise LookupError("no deal found")


def test_two_quick_moves_are_both_shown_at_once_and_both_played(still: Table) -> None:
    number, first, second = dependent_moves()
    still.start(number, DRAW_1)
    game = Game(Deal.parse(number), Rules.from_dict(DRAW_1))
    hold(still)
    still.drag(moving_card(game, first), still.drop_point(game, first.dest))
    first_card = moving_card(game, first)
    game.play(first)
    # The second is judged on the table the first leads to, before any answer.
    second_card = moving_card(game, second)
    still.drag(second_card, still.drop_point(game, second.dest))
    dest = str(int(second.dest))
    still.page.wait_for_function(
        "([code, pile]) =>"
        " document.querySelector(`.card[data-card='${code}']`).dataset.pile === pile",
        arg=[second_card, dest],
    )
    assert shown_places(still)[first_card] == dest
    assert still.page.evaluate("window.__sent") == 1  # the second waits for the first's answer
    release(still)
    still.page.wait_for_function("() => window.__sent === 2")
    release(still)
    state = wait_settled(still, 2)
    assert state["history"] == [format_move(first), format_move(second)]
    assert shown_places(still) == served_places(state)


def test_when_the_first_of_two_quick_moves_is_refused_both_are_taken_back(still: Table) -> None:
    number, first, second = dependent_moves()
    still.start(number, DRAW_1)
    game = Game(Deal.parse(number), Rules.from_dict(DRAW_1))
    before = shown_places(still)
    hold(still)
    sent = refuse(still)
    still.drag(moving_card(game, first), still.drop_point(game, first.dest))
    game.play(first)
    still.drag(moving_card(game, second), still.drop_point(game, second.dest))
    still.page.wait_for_function("() => window.__sent === 1")
    resync = []
    still.page.on("request", lambda r: resync.append(r.url) if r.method == "GET" else None)
    release(still)
    still.page.locator("#toast").wait_for(state="visible")
    assert still.page.locator("#toast").inner_text() == REFUSAL
    still.page.wait_for_function("() => !document.querySelector('.card.pending')")
    still.page.wait_for_timeout(300)
    assert shown_places(still) == before
    assert len(sent) == 1 and still.page.evaluate("window.__sent") == 1  # the second never went
    assert any(url.endswith(f"/api/games/{still.state()['id']}") for url in resync)
    assert still.state()["moves"] == 0


def test_quick_draws_are_each_played_and_each_card_shown(slow: Table) -> None:
    slow.start("0", {"draw": 3, "scoring": "none"})
    for _ in range(3):
        slow.page.keyboard.press("Space")
    state = wait_settled(slow, 3)
    assert state["history"] == ["sw"] * 3
    shown = slow.page.evaluate(
        """() => [...document.querySelectorAll('.card.face[data-pile="8"]')]
            .sort((a, b) => a.dataset.index - b.dataset.index).map(e => e.dataset.card)"""
    )
    assert shown == state["position"]["waste"][-3:]


# -- cards sent home by themselves ------------------------------------------------------------


def test_cards_safe_auto_play_sends_home_still_go_one_after_another(slow: Table) -> None:
    flies_in_turn(slow)  # the motion test's checks, on a slow network
    slow.page.keyboard.press("Shift")
    slow.page.wait_for_function("() => !document.querySelector('.ghost, .pending')")
    assert shown_places(slow) == served_places(slow.state())
