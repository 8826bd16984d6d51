"""Motion on the table: draws slide, recycles gather, cards flip and fly home; input never waits."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from itertools import pairwise
from typing import Any

import pytest

from bonanza.core import Deal, Game, Move, Pile, Rules
from bonanza.core.cards import Card
from bonanza.core.notation import format_move
from bonanza.session.messages import sentence
from tests.session.test_auto_finish_solver import THOUGHTFUL_3, late_known_session
from tests.session.test_safe_home import KLONDIKE, triggering_move

from .browser import Table, moving_card

DRAW_1 = {"draw": 1, "scoring": "none"}
DRAW_3 = {"draw": 3, "scoring": "none"}
WASTE = 8
SLOW = 0.05  # the page's animations run at a twentieth of their speed: a test sees them under way

# Every animation a script starts on the page, kept to look at afterwards.
RECORD_ANIMATIONS = """
window.__motion = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const animation = animate.call(this, frames, options);
  const {card, pile} = this.dataset;
  window.__motion.push({el: this, card, pile, place: this.style.transform, frames, animation});
  return animation;
};
"""


def name(code: str) -> str:
    return sentence(Card.parse(code).name)


@pytest.fixture
def moving(browser: Any, server: Any) -> Iterator[Table]:
    """A player whose browser does not ask for reduced motion."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(RECORD_ANIMATIONS)
    yield Table(page, server.url)
    context.close()
    assert not errors, errors


def slow_down(table: Table) -> None:
    """Slow every animation of the page (the browser's own devtools control)."""
    cdp = table.page.context.new_cdp_session(table.page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": SLOW})


def card_at(table: Table, selector: str, when: str) -> Any:
    """The box of the card ``selector`` names with its motion stopped at ``when``
    ("start", "middle" or "end"), and how many animations it had."""
    return table.page.evaluate(
        """([selector, when]) => {
            const el = document.querySelector(selector);
            const animations = el.getAnimations().filter(a => !(a instanceof CSSTransition));
            for (const a of animations) {
                const end = a.effect.getComputedTiming().endTime;
                a.pause();
                a.currentTime = {start: 0, middle: end / 2, end}[when];
            }
            const r = el.getBoundingClientRect();
            return {x: r.x, y: r.y, w: r.width, h: r.height, cx: r.x + r.width / 2,
                    cy: r.y + r.height / 2, count: animations.length};
        }""",
        [selector, when],
    )


def centre(box: Any) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def near(box: Mapping[str, float], point: tuple[float, float], tolerance: float = 3) -> bool:
    return abs(box["cx"] - point[0]) <= tolerance and abs(box["cy"] - point[1]) <= tolerance


def running(table: Table) -> int:
    """How many motions of cards are still under way."""
    count: int = table.page.evaluate(
        "() => document.getAnimations().filter(a => a.playState !== 'finished'"
        " && a.effect && a.effect.target && a.effect.target.classList.contains('card')).length"
    )
    return count


# -- draws -------------------------------------------------------------------------------


def test_the_first_table_of_a_game_has_no_motion(moving: Table) -> None:
    moving.start("0", DRAW_1)
    moving.page.wait_for_timeout(300)
    assert moving.page.evaluate("window.__motion.length") == 0
    assert running(moving) == 0


def test_a_drawn_card_slides_and_turns_from_the_stock_to_the_waste(moving: Table) -> None:
    moving.start("0", DRAW_1)
    slow_down(moving)
    stock, waste = moving.slot(7), moving.slot(WASTE)
    moving.click_stock()
    moving.wait_moves(1)
    top = moving.state()["position"]["waste"][-1]
    selector = f'.card[data-card="{top}"]'
    start = card_at(moving, selector, "start")
    assert start["count"] == 1 and near(start, centre(stock))
    assert start["w"] < stock["width"] / 4  # edge on: still turning over
    end = card_at(moving, selector, "end")
    assert near(end, centre(waste)) and end["w"] == pytest.approx(waste["width"], abs=2)


def test_a_draw_of_three_fans_the_cards_out_from_the_stock_one_after_another(
    moving: Table,
) -> None:
    moving.start("0", DRAW_3)
    slow_down(moving)
    stock = moving.slot(7)
    moving.click_stock()
    moving.wait_moves(1)
    drawn = moving.state()["position"]["waste"][-3:]
    starts, ends, begun = [], [], []
    for code in drawn:
        selector = f'.card[data-card="{code}"]'
        begun.append(
            moving.page.evaluate(
                "s => document.querySelector(s).getAnimations()"
                ".find(a => !(a instanceof CSSTransition)).startTime",
                selector,
            )
        )
        starts.append(card_at(moving, selector, "start"))
        ends.append(card_at(moving, selector, "end"))
    assert all(near(box, centre(stock)) for box in starts)
    assert ends[0]["cx"] < ends[1]["cx"] < ends[2]["cx"]  # fanned out
    assert begun[0] < begun[1] < begun[2]


def test_a_recycle_gathers_the_waste_back_to_the_stock(moving: Table) -> None:
    moving.start("0", DRAW_1, ["sw"] * 24)
    slow_down(moving)
    stock, waste = moving.slot(7), moving.slot(WASTE)
    moving.click_stock()
    moving.wait_moves(25)
    assert moving.state()["position"]["stock"]["count"] == 24
    count = moving.page.locator(".card.stock-card").count()
    assert count == 3
    for i in range(count):
        selector = f'.card.stock-card[data-key="stock-{i}"]'
        start = card_at(moving, selector, "start")
        assert start["count"] == 1 and near(start, centre(waste))
        assert near(card_at(moving, selector, "end"), centre(stock))


# -- flips and flights home --------------------------------------------------------------


def test_a_card_turned_up_flips_from_its_back_and_the_card_sent_home_flies(
    moving: Table,
) -> None:
    moving.start("0", DRAW_1)
    slow_down(moving)
    column = moving.page.locator('.slot[data-pile="3"]').bounding_box()
    assert column is not None
    home = moving.slot(9)
    ace = moving.card("AC")
    moving.double_click_card("AC")  # the ace of clubs lies on column 4, over 3 cards face down
    moving.wait_moves(1)
    revealed = moving.state()["position"]["columns"][3]["up"][0]
    face = f'.card[data-card="{revealed}"]'
    start = card_at(moving, face, "start")
    assert start["count"] == 1 and start["w"] < 2  # the face is edge on
    ghost = card_at(moving, ".card.back.ghost", "start")
    assert ghost["w"] == pytest.approx(column["width"], abs=2)  # the back shows
    assert near(ghost, (start["cx"], start["cy"]), tolerance=column["height"] / 4)
    assert card_at(moving, ".card.back.ghost", "end")["w"] < 2  # turned edge on
    end = card_at(moving, face, "end")
    assert end["w"] == pytest.approx(column["width"], abs=2)
    # The ace flies from its column to its foundation, lifted on the way.
    assert near(card_at(moving, '.card[data-card="AC"]', "start"), centre(ace))
    assert card_at(moving, '.card[data-card="AC"]', "middle")["w"] > ace["width"] * 1.04
    assert near(card_at(moving, '.card[data-card="AC"]', "end"), centre(home))
    moving.page.keyboard.press("Shift")  # any key snaps every motion to its end
    moving.page.wait_for_function("() => !document.querySelector('.ghost')")
    assert running(moving) == 0


def test_safe_auto_play_sends_its_cards_home_one_after_another(moving: Table) -> None:
    number, history, move, sent = triggering_move(1)
    moving.start(number, KLONDIKE.to_dict(), [format_move(m) for m in history])
    answer = moving.api("POST", "/api/settings", {"safe_home": True})
    assert answer["status"] == 200, answer
    moving.reload()
    slow_down(moving)
    game = Game(Deal.parse(number), KLONDIKE)
    for played in history:
        game.play(played)
    moving.drag(moving_card(game, move), moving.drop_point(game, move.dest))
    moving.wait_moves(len(history) + 1 + sent)
    homes = moving.state()["history"][-sent:]
    game.play(move)
    cards = []
    for text in homes:
        played_move = next(m for m in game.position.legal_moves() if format_move(m) == text)
        cards.append(moving_card(game, played_move))
        game.play(played_move)
    begun = moving.page.evaluate(
        """codes => codes.map(code => {
            const a = document.querySelector(`.card[data-card="${code}"]`).getAnimations()
                .find(a => !(a instanceof CSSTransition));
            return a ? a.startTime : null;
        })""",
        cards,
    )
    assert None not in begun, begun
    assert all(a < b for a, b in pairwise(begun)), begun  # one after another


def test_a_drawn_card_sent_home_at_once_first_slides_out_then_flies(moving: Table) -> None:
    moving.open()
    answer = moving.api("POST", "/api/settings", {"safe_home": True})
    assert answer["status"] == 200, answer
    moving.start("0", DRAW_1, ["sw"] * 6)  # the first draw sent three aces home
    slow_down(moving)  # the draw's answer comes while its card still slides out
    moving.click_stock()  # draws the two of hearts, which goes home by itself
    moving.wait_moves(7 + 3 + 1)
    assert moving.state()["position"]["foundations"][2] == "2H"
    frames = moving.page.evaluate(
        "() => window.__motion.filter(m => m.card === '2H').at(-1).frames.map(f => f.transform)"
    )
    stock = moving.page.locator('.slot[data-pile="7"]')
    stock_at = stock.evaluate("e => `translate(${e.style.left}, ${e.style.top})`")
    assert frames[0].startswith(stock_at + " ")  # from the stock, turning over
    assert frames[-1] == moving.page.locator('.card[data-card="2H"]').evaluate(
        "e => e.style.transform"
    )  # to its foundation, in one motion


def test_auto_finish_flies_each_card_home_in_turn(moving: Table) -> None:
    session = late_known_session(5)
    line = [format_move(move) for move in session.game.history]
    moving.start(session.game.deal.id, THOUGHTFUL_3.to_dict(), line)
    button = moving.page.locator("#btn-auto")
    button.wait_for(state="visible")
    button.click()
    moving.page.locator("#dlg-win").wait_for(state="visible", timeout=30_000)
    state = moving.state()
    game = Game(Deal.parse(session.game.deal.id), THOUGHTFUL_3)
    homeward: list[str] = []
    for text in state["history"]:
        played = next(m for m in game.position.legal_moves() if format_move(m) == text)
        if game.move_count >= len(line) and played.dest.is_foundation:
            homeward.append(moving_card(game, played))
        game.play(played)
    assert len(homeward) >= 5
    flights = moving.page.evaluate(
        """() => window.__motion
            .filter(m => m.frames.some(f => f.scale !== undefined))
            .map(m => ({card: m.card, pile: m.pile, place: m.place, start: m.animation.startTime,
                        to: m.frames[m.frames.length - 1].transform}))"""
    )
    flown = [f["card"] for f in flights]
    assert flown[-len(homeward) :] == homeward  # every card, in the order played
    starts = [f["start"] for f in flights[-len(homeward) :]]
    assert all(a < b for a, b in pairwise(starts))
    for flight in flights[-len(homeward) :]:  # each ends on its foundation
        assert flight["pile"] == str(9 + "CDHS".index(flight["card"][1])), flight
        assert flight["to"] == flight["place"], flight


# -- input during motion, reduced motion ---------------------------------------------------


@cache
def first_draw_with_one_place() -> tuple[str, str, Move]:
    """A draw-1 deal, its first drawn card, and that card's only place to go."""
    rules = Rules.from_dict(DRAW_1)
    for number in range(500):
        game = Game(Deal.from_number(number), rules)
        game.play("sw")
        moves = [
            m
            for m in game.position.legal_moves()
            if m.source == Pile.WASTE and m.dest != Pile.STOCK
        ]
        if len(moves) == 1:
            return str(number), str(game.position.waste[-1]), moves[0]
    raise LookupError("no deal found")


@pytest.mark.parametrize("how", ["tap", "drag"])
def test_a_press_during_a_draw_plays_the_card_in_its_place_at_once(moving: Table, how: str) -> None:
    number, code, move = first_draw_with_one_place()
    moving.start(number, DRAW_1)
    game = Game(Deal.parse(number), Rules.from_dict(DRAW_1))
    game.play("sw")
    target = moving.drop_point(game, move.dest)
    slow_down(moving)
    moving.click_stock()
    moving.wait_moves(1)
    assert running(moving) >= 1  # the drawn card is still on its way
    x, y = centre(moving.slot(WASTE))  # where the card is going, not where it is
    mouse = moving.page.mouse
    if how == "tap":
        mouse.click(x, y)
    else:
        mouse.move(x, y)
        mouse.down()
        mouse.move(x + 8, y + 8, steps=2)
        mouse.move(*target, steps=4)
        mouse.up()
    moving.wait_moves(2)
    state = moving.state()
    assert state["history"] == ["sw", format_move(move)]
    slide = moving.page.evaluate(
        "code => window.__motion.find(m => m.card === code).animation.playState", code
    )
    assert slide == "finished"  # snapped to its end at the press
    shown = moving.page.locator(f'.card[data-card="{code}"]').get_attribute("data-pile")
    assert shown == str(int(move.dest))


def test_keys_pressed_during_motion_are_each_played(moving: Table) -> None:
    moving.start("0", DRAW_3)
    slow_down(moving)
    for _ in range(3):
        moving.page.keyboard.press("Space")
    moving.wait_moves(3)
    state = moving.state()
    assert state["history"] == ["sw"] * 3
    shown = moving.page.evaluate(
        """() => [...document.querySelectorAll('.card.face[data-pile="8"]')]
            .sort((a, b) => a.dataset.index - b.dataset.index).map(e => e.dataset.card)"""
    )
    assert shown == state["position"]["waste"][-3:]


def test_reduced_motion_moves_no_card(table: Table) -> None:
    table.page.add_init_script(RECORD_ANIMATIONS)
    table.start("0", DRAW_1)
    table.click_stock()
    table.wait_moves(1)
    table.double_click_card("AC")  # flies home, and turns a card up
    table.wait_moves(2)
    table.click_stock()
    table.wait_moves(3)
    assert table.page.evaluate("window.__motion.length") == 0  # cards are simply there
    assert table.page.evaluate("document.getAnimations().length") == 0
    assert table.page.locator(".ghost").count() == 0


# -- words -----------------------------------------------------------------------------------


def test_the_live_region_names_the_drawn_card(table: Table) -> None:
    table.start("0", DRAW_1)
    table.click_stock()
    table.wait_moves(1)
    top = table.state()["position"]["waste"][-1]
    expected = f"Drew {name(top)}"
    table.page.wait_for_function(
        "text => document.getElementById('live').textContent === text", arg=expected
    )


def test_the_live_region_names_three_drawn_cards_and_the_top_one(table: Table) -> None:
    table.start("0", DRAW_3)
    table.click_stock()
    table.wait_moves(1)
    drawn = [name(code) for code in table.state()["position"]["waste"][-3:]]
    expected = f"Drew {', '.join(drawn)}; {drawn[-1]} on top"
    table.page.wait_for_function(
        "text => document.getElementById('live').textContent === text", arg=expected
    )
    table.page.keyboard.press("u")
    table.wait_moves(0)
    table.page.keyboard.press("y")
    table.wait_moves(1)
    table.page.wait_for_function(
        "text => document.getElementById('live').textContent === text",
        arg=f"Redid: drew {', '.join(drawn)}; {drawn[-1]} on top",
    )
