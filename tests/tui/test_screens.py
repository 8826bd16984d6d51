"""The terminal game's screens and widgets, driven headless through Textual's Pilot."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widgets import Input, Select, Static

from bonanza.core import CARDS, Card, Deal, EmptyColumn, Game, Pile, Position, Rules, Scoring
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.help_screen import KEYS, MOVES, HelpScreen, rules_description
from bonanza.tui.new_deal_screen import NewDealChoice, NewDealScreen, deal_problem
from bonanza.tui.pile_view import (
    MAX_COLUMN_LINES,
    RECYCLE_MARK,
    WASTE_FAN,
    PileView,
    card_label,
    column_text,
    stock_text,
    waste_text,
)
from bonanza.tui.stats_screen import CHOSEN_NOTE, EMPTY_STATE, NO_HEADLINE, StatsScreen
from bonanza.tui.status_bar import StatusBar, rules_label


def terminal_app(rules: Rules) -> BonanzaApp:
    """The terminal game on deal 7 under ``rules``, with a store in memory."""
    return BonanzaApp(SQLiteStorage(":memory:"), "player", start=NewDealChoice(rules, "7"))


pytestmark = pytest.mark.anyio

SMALL = (80, 24)
"""The smallest terminal the game must fit."""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Host(App[None]):
    """An empty app that opens one screen and keeps what it dismisses with."""

    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.opened = screen
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.opened, self.results.append)


def text_of(widget: Static) -> str:
    return str(widget.render())


def is_one_sentence(text: str) -> bool:
    """One line, capitalised (or opening with the quoted input), ending with a full stop."""
    return "\n" not in text and (text[0].isupper() or text[0] == "'") and text.endswith(".")


# -- help ----------------------------------------------------------------------


async def test_help_lists_every_key_and_the_rules() -> None:
    rules = Rules.preset("vegas-3")
    app = terminal_app(rules)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("question_mark")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        text = screen.text()
        starts = {line.split("  ")[0].strip() for line in text.splitlines()}
        expected = ("Space", "1 – 7", "w", "f", "Esc", ":", "u", "y", "h", "a", "n", "s", "q")
        assert {*expected, "? or F1"} <= starts
        assert {key for key, _ in KEYS} <= starts
        assert {"sw", "w3", "6f", "fh2", "47:3"} <= starts
        assert {move for move, _ in MOVES} <= starts
        assert "Keys" in text_of(screen.query_one(".heading", Static))
        assert str(rules) in text
        assert "3 passes through the stock" in text and "Vegas scoring" in text
        await pilot.press("space", "7")  # the table's keys do nothing under the help
        assert app.game.move_count == 0
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_help_closes_on_its_keys_and_f1_opens_it() -> None:
    app = terminal_app(Rules())
    async with app.run_test(size=SMALL) as pilot:
        for opener, closer in (("f1", "escape"), ("question_mark", "q"), ("f1", "question_mark")):
            await pilot.press(opener)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press(closer)
            assert not isinstance(app.screen, HelpScreen), closer
            assert app.is_running  # q closed the help, not the game


def test_rules_description_follows_the_rules() -> None:
    plain = " ".join(rules_description(Rules()))
    assert "one card" in plain and "Unlimited passes" in plain
    assert "Only a King" in plain and "may come back" in plain
    assert "Any part of a face-up run" in plain and "-100" in plain
    odd = Rules(
        draw=3, passes=1, empty_column=EmptyColumn.ANY, recall=False,
        partial_runs=False, thoughtful=True, scoring=Scoring.TIMED,
    )  # fmt: skip
    text = " ".join(rules_description(odd))
    assert "3 cards" in text and "One pass" in text and "Any card or run" in text
    assert "stay there" in text and "Only a whole face-up run" in text
    assert "Thoughtful" in text and "700,000" in text and "after the third pass" in text
    assert "No score" in " ".join(rules_description(Rules(scoring=Scoring.NONE)))
    cumulative = Rules(draw=3, passes=3, scoring=Scoring.VEGAS_CUMULATIVE)
    assert "carries over" in " ".join(rules_description(cumulative))


# -- new deal --------------------------------------------------------------------


async def test_new_deal_returns_a_preset_and_a_deal() -> None:
    app = Host(NewDealScreen(Rules()))
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, NewDealScreen)
        assert screen.query_one("#preset", Select).value == "klondike"
        await pilot.press("space", "down", "down", "down", "enter")  # klondike → vegas-3
        assert screen.query_one("#preset", Select).value == "vegas-3"
        assert screen.query_one("#draw", Select).value == "3"
        assert screen.chosen_rules() == Rules.preset("vegas-3")
        await pilot.click("#deal")
        await pilot.press(*"123", "enter")
    assert app.results == [NewDealChoice(Rules.preset("vegas-3"), "123")]


async def test_new_deal_controls_change_the_rules() -> None:
    app = Host(NewDealScreen(Rules()))
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, NewDealScreen)
        screen.query_one("#draw", Select).value = "3"
        await pilot.pause()
        assert screen.query_one("#preset", Select).value == "klondike-3"
        screen.query_one("#empty", Select).value = "any"
        await pilot.pause()
        assert screen.query_one("#preset", Select).value == "custom"
        screen.query_one("#scoring", Select).value = "vegas"
        await pilot.pause()
        rules = screen.chosen_rules()
        # The passes control always shows the passes the rules really have.
        assert screen.query_one("#passes", Select).value == (
            "unlimited" if rules.passes is None else str(rules.passes)
        )
        assert str(rules) in text_of(screen.query_one("#summary", Static))
        await pilot.click("#start")
    assert app.results == [
        NewDealChoice(Rules(draw=3, empty_column=EmptyColumn.ANY, scoring=Scoring.VEGAS), None)
    ]
    assert app.results[0].rules.empty_column is EmptyColumn.ANY


async def test_new_deal_starts_from_custom_rules_and_keeps_the_hidden_ones() -> None:
    start = Rules(draw=2, passes=2, recall=False, thoughtful=True)
    app = Host(NewDealScreen(start))
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, NewDealScreen)
        assert screen.query_one("#preset", Select).value == "custom"
        assert screen.query_one("#draw", Select).value == "2"
        assert screen.query_one("#passes", Select).value == "2"
        await pilot.click("#start")
    assert app.results == [NewDealChoice(start, None)]


async def test_a_bad_deal_is_explained_and_the_screen_stays() -> None:
    app = Host(NewDealScreen(Rules()))
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        await pilot.click("#deal")
        await pilot.press(*"abc", "enter")
        assert app.screen is screen and app.results == []
        problem = text_of(screen.query_one("#problem", Static))
        assert "is not a deal" in problem
        assert is_one_sentence(problem)
        assert "Traceback" not in problem and "DealError" not in problem
        deal = screen.query_one("#deal", Input)
        assert app.focused is deal
        deal.value = Deal.from_number(42).code
        await pilot.pause()
        assert text_of(screen.query_one("#problem", Static)) == ""  # editing clears it
        await pilot.press("enter")
    assert app.results == [NewDealChoice(Rules(), Deal.from_number(42).code)]


async def test_escape_cancels_a_new_deal() -> None:
    app = Host(NewDealScreen(Rules()))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("escape")
    assert app.results == [None]


def test_deal_problems_are_one_short_sentence() -> None:
    listing = Deal.from_number(5).listing
    assert deal_problem("") is None and deal_problem(" 7 ") is None
    assert deal_problem(listing) is None
    for bad in ("abc", "-5", "99999999999999999999", "0" * 38 + "1", listing.replace("7H", "XX")):
        problem = deal_problem(bad)
        assert problem is not None
        assert is_one_sentence(problem)
        assert len(problem) < 120
    code = deal_problem("Z0mIaCXey4VTCt9OZDSZikyYuAKi62pj0Lqzz1A")
    assert code is not None and "Z0mIaCXey4VTCt9OZDSZikyYuAKi62pj0Lqzz1A" not in code


# -- confirm ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "answer"),
    [(["y"], True), (["n"], False), (["escape"], False), (["enter"], False)],
)
async def test_confirm_answers(keys: list[str], answer: bool) -> None:
    app = Host(ConfirmScreen("Abandon this game?"))
    async with app.run_test(size=SMALL) as pilot:
        assert "Abandon this game?" in text_of(app.screen.query_one("#confirm-question", Static))
        await pilot.press(*keys)
    assert app.results == [answer]


async def test_confirm_buttons() -> None:
    app = Host(ConfirmScreen("Abandon this game?"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.click("#yes")
    assert app.results == [True]


# -- statistics --------------------------------------------------------------------

GROUP: dict[str, Any] = {
    "label": "draw 1, unlimited passes, king to empty, recall, standard scoring",
    "played": 12,
    "won": 5,
    "win_rate": 41.7,
    "current_streak": 1,
    "best_streak": 3,
    "best_time": 252.4,
    "best_score": 1230,
    "fewest_moves": 97,
}
VEGAS_GROUP: dict[str, Any] = {
    **GROUP,
    "label": "draw 3, 3 passes, king to empty, recall, cumulative Vegas scoring",
    "won": 0,
    "win_rate": 0.0,
    "best_time": None,
    "best_score": -42,
    "fewest_moves": None,
    "bankroll": -94,
}


async def test_stats_show_the_figures_and_the_chosen_deals_apart() -> None:
    chosen = {**GROUP, "played": 1, "won": 1, "win_rate": 100.0, "best_time": 3725}
    app = Host(StatsScreen([GROUP, VEGAS_GROUP], [chosen]))
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        headline = [text_of(s) for s in screen.query(".headline").results(Static)]
        assert len(headline) == 2
        assert GROUP["label"] in headline[0]
        for figure in ("Played 12", "Won 5", "Win rate 41.7%", "Streak 1", "Best streak 3",
                       "Best time 4:12", "Best score 1230", "Fewest moves 97"):  # fmt: skip
            assert figure in headline[0]
        assert "Bankroll" not in headline[0]
        assert "Best time –" in headline[1] and "Bankroll -$94" in headline[1]
        [apart] = [text_of(s) for s in screen.query(".chosen").results(Static)]
        assert "Win rate 100%" in apart and "Best time 1:02:05" in apart
        assert CHOSEN_NOTE in screen.text() and "not counted" in CHOSEN_NOTE
        await pilot.press("s")
    assert app.results == [None]


async def test_stats_empty_states() -> None:
    empty = StatsScreen([])
    app = Host(empty)
    async with app.run_test(size=SMALL) as pilot:
        assert EMPTY_STATE in empty.text()
        await pilot.press("escape")
    assert app.results == [None]
    only_chosen = StatsScreen([], [GROUP])
    async with Host(only_chosen).run_test(size=SMALL):
        text = only_chosen.text()
        assert NO_HEADLINE in text and "Played 12" in text and EMPTY_STATE not in text


# -- the table at 80×24 --------------------------------------------------------------


async def test_the_table_fits_80_by_24() -> None:
    app = terminal_app(Rules.preset("vegas-3"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        width, height = SMALL
        message = app.query_one("#message").region
        for view in [view for view in app.query(PileView) if view.display]:
            region = view.region
            assert region.width > 0 and region.height > 0, view.id
            assert region.right <= width and region.bottom <= message.y, view.id
        status = app.query_one(StatusBar).region
        assert status.y == 0 and status.width == width
        command = app.query_one("#command").region
        assert command.height == 1 and command.bottom <= height - 1  # the footer's line
        room = app.query_one("#table").region.bottom - app.query_one("#tableau").region.y
        assert room >= MAX_COLUMN_LINES  # the columns' room
        foundation = app.query_one("#fc").region
        assert foundation.x == app.query_one("#t4").region.x  # over columns 4-7


def test_a_tall_column_folds_its_face_down_cards() -> None:
    # Column 7: six face-down cards under a whole run from the king of spades down.
    run = [Card.of(13 - n, 3 if n % 2 == 0 else 2) for n in range(13)]
    rest = [card for card in CARDS if card not in run]
    tableau: list[list[Card]] = [[] for _ in range(6)] + [rest[:6] + run]
    for rules in (Rules(), Rules(thoughtful=True)):
        position = Position(rules, tableau, [0] * 6 + [6], rest[6:], [], [0, 0, 0, 0])
        lines = column_text(position, Pile.T7).plain.split("\n")
        assert len(lines) <= MAX_COLUMN_LINES
        assert "×" in lines[0] and lines[-1].strip() == "A♠"
    short = Position.initial(Deal.from_number(7), Rules(thoughtful=True))
    assert "▒" not in column_text(short, Pile.T7).plain  # thoughtful shows every card


async def test_the_draw_3_waste_shows_three_cards_on_one_line() -> None:
    app = terminal_app(Rules(draw=3))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("space")
        view = app.query_one("#waste", PileView)
        assert view.region.height == 1
        shown = str(view.render())
        assert shown.split() == ["9♣", "J♦", "6♥"]
        text = waste_text(app.game.position)
        cards = [span for span in text.spans if span.style]
        assert len(cards) == WASTE_FAN
        assert all("dim" in str(span.style) for span in cards[:-1])
        assert "bold" in str(cards[-1].style) and "dim" not in str(cards[-1].style)
        assert view.region.width - 2 >= len(shown)  # nothing clipped


def test_card_text_is_readable() -> None:
    assert card_label(Card.parse("TD")) == "10♦"
    assert card_label(Card.parse("AS")) == "A♠"
    one = Position.initial(Deal.from_number(7), Rules())
    assert waste_text(one).plain.strip() == "·"


def test_the_recycle_sign_only_when_a_recycle_is_possible() -> None:
    for rules, sign in ((Rules(), True), (Rules.preset("vegas-1"), False)):
        game = Game(Deal.from_number(7), rules)
        for _ in range(24):
            game.play("sw")
        assert (stock_text(game.position).plain == RECYCLE_MARK) is sign
    empty = Position(Rules(), [[]] * 7, [0] * 7, [], [], [13, 13, 13, 13])
    assert "↺" not in stock_text(empty).plain


# -- the status line ----------------------------------------------------------------


class StatusHost(App[None]):
    def compose(self) -> Any:
        yield StatusBar(id="status")


async def test_status_bar_shows_rules_passes_score_moves_and_time() -> None:
    game = Game(Deal.from_number(7), Rules.preset("vegas-3"))
    app = StatusHost()
    async with app.run_test(size=SMALL) as pilot:
        bar = app.query_one(StatusBar)
        bar.show(game)
        await pilot.pause()
        line = str(bar.render())
        assert "Deal 7 · Draw 3 · 3 passes · Vegas" in line
        assert "Score -$52" in line and "Moves 0" in line and "Pass 1/3" in line
        assert line.endswith("0:00") and len(line) <= SMALL[0]
        for _ in range(8):
            game.play("sw")
        game.play("ws")
        bar.show(game, elapsed=125.0, score=40, bankroll=-10)
        await pilot.pause()
        line = str(bar.render())
        assert "Pass 2/3" in line and "Moves 9" in line and "2:05" in line
        assert "Score $40" in line and "Bank -$10" in line
        coded = Game(Deal.from_number(7), Rules(draw=2, passes=2, recall=False))
        coded.deal = Deal(coded.deal.cards)  # a deal known by its 39-character code
        bar.show(coded, elapsed=3725)
        await pilot.pause()
        line = str(bar.render())
        assert len(line) <= SMALL[0] - 2 and line.endswith("Pass 1/2 · 1:02:05")


def test_rules_are_named_in_the_webs_words() -> None:
    """One rules labeller (``Rules.label``) for the web and the terminal (issue 30)."""
    assert rules_label(Rules(draw=3, scoring=Scoring.TIMED)) == "Draw 3 · Unlimited passes · Timed"
    assert rules_label(Rules(passes=1, recall=False)) == Rules(passes=1, recall=False).label
    assert rules_label(Rules.preset("westcliff")).startswith("Westcliff · Draw 1 · 1 pass")
