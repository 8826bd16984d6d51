"""Klondike's relatives in the terminal: Double Klondike, Westcliff and Easthaven
laid out in 80×24, played with keys, chosen on the new-deal screen, counted
per game (docs/variants.md)."""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Input, Select, Static
from textual.worker import WorkerFailed

from bonanza.core import Deal, Move, Pile, Position, Rules
from bonanza.core.cards import ALL_CARDS, DECK_SIZE, Card
from bonanza.core.errors import RulesError
from bonanza.core.view import PlayerView
from bonanza.play.answers import not_yet
from bonanza.session import Hint
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import PROGRESS_DELAY, BonanzaApp
from bonanza.tui.help_screen import HelpScreen
from bonanza.tui.keys import column_key
from bonanza.tui.new_deal_screen import NewDealChoice, NewDealScreen
from bonanza.tui.pile_view import PileView, card_label, column_text, pile_text
from bonanza.tui.stats_screen import StatsScreen
from bonanza.tui.words import HINT_FAILED
from tests.tui.test_session_play import SIZE, FakeAdvisor, message, settle, status

pytestmark = pytest.mark.anyio

RELATIVES = ("double-klondike", "double-klondike-3", "westcliff", "easthaven")
TITLES = {"double-klondike": "Double Klondike", "double-klondike-3": "Double Klondike",
          "westcliff": "Westcliff", "easthaven": "Easthaven"}


def relative_app(
    storage: SQLiteStorage, name: str, deal: str | None = "7", **options: Any
) -> BonanzaApp:
    """The terminal game on ``deal`` (None: a random one) of preset ``name``."""
    options.setdefault("advisor", FakeAdvisor())
    options.setdefault("auto_step", 0.01)
    return BonanzaApp(
        storage, "player", start=NewDealChoice(Rules.preset(name), deal), **options
    )


def shown_piles(app: BonanzaApp) -> list[PileView]:
    return [view for view in app.query(PileView) if view.display]


def screen_lines(app: BonanzaApp) -> list[str]:
    """The whole screen as plain text, one string per terminal line (drawn as
    ``App.export_screenshot`` draws its SVG)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      color_system=None, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().splitlines()


def ends(line: str) -> list[int]:
    """Where each word of ``line`` ends."""
    return [match.end() for match in re.finditer(r"\S+", line)]


async def press_move(app: BonanzaApp, pilot: Any, move: Move) -> None:
    """Play a column-to-column ``move`` with the columns' keys: the source's key,
    then, if that only picked the cards up, the destination's."""
    await pilot.press(column_key(move.source))
    if app.selected is not None:
        await pilot.press(column_key(move.dest))


# -- the table ------------------------------------------------------------------------


@pytest.mark.parametrize("name", RELATIVES)
async def test_each_relative_lays_out_its_piles_in_80_by_24(
    storage: SQLiteStorage, name: str
) -> None:
    rules = Rules.preset(name)
    app = relative_app(storage, name)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = shown_piles(app)
        columns = [view for view in shown if view.pile.is_tableau]
        foundations = [view for view in shown if view.pile.is_foundation]
        assert len(columns) == rules.columns and len(foundations) == rules.foundations
        assert (Pile.WASTE in {view.pile for view in shown}) is (name != "easthaven")
        message_top = app.query_one("#message").region.y
        for view in shown:
            region = view.region
            assert region.width > 0 and region.right <= SIZE[0], view.id
            assert region.bottom <= message_top, view.id
        lefts = [view.region.x for view in columns]
        assert lefts == sorted(lefts) and len(set(lefts)) == len(lefts)  # side by side
        assert status(app).startswith(f"Deal 7 · {rules.title} · {rules.label}  ")
        assert app.sub_title == TITLES[name]


async def first_screen(storage: SQLiteStorage, name: str) -> tuple[list[str], Position]:
    """The screen's lines at 80×24 as deal 7 of preset ``name`` starts, and its position."""
    app = relative_app(storage, name)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        return screen_lines(app), app.session.position


async def test_westcliff_shows_ten_numbered_columns_and_its_waste_card_untruncated(
    storage: SQLiteStorage,
) -> None:
    # The text snapshot of Westcliff's deal 7 at 80×24: every column whole.
    lines, position = await first_screen(storage, "westcliff")
    assert len(lines) == SIZE[1] and all(len(line) <= SIZE[0] for line in lines)
    [labels] = [line for line in lines if line.split() == [str(n) for n in range(1, 11)]]
    tops = [card_label(column[-1]) for column in position.tableau]
    [faces] = [line for line in lines if line.split() == tops]
    # Each card right under its column's number: no column is cut or shifted.
    assert ends(faces) == ends(labels)
    top_row = next(line for line in lines if "[21]" in line)
    assert card_label(position.waste[-1]) in top_row.split()


async def test_double_klondike_shows_eight_foundations_in_one_row(
    storage: SQLiteStorage,
) -> None:
    lines, position = await first_screen(storage, "double-klondike")
    top_row = next(line for line in lines if f"[{len(position.stock)}]" in line)
    assert top_row.split()[-8:] == ["♣", "♦", "♥", "♠"] * 2  # the eight, empty, in one row
    [labels] = [line for line in lines if line.split() == [str(n) for n in range(1, 10)]]
    assert ends(labels)[-1] < SIZE[0]


def test_second_deck_cards_show_as_their_first_deck_twins() -> None:
    rules = Rules.preset("double-klondike")
    ace, eight = ALL_CARDS[0], ALL_CARDS[7]  # A♣ and 8♣
    tableau: list[list[Card]] = [[] for _ in range(rules.columns)]
    tableau[8] = [ALL_CARDS[eight + DECK_SIZE]]
    rest = [card for card in rules.cards if card not in (ace, ace.twin, eight.twin)]
    # One ace of clubs home on the second clubs foundation: the game calls it the twin.
    one_home = Position(rules, tableau, [0] * 9, rest, [], [0, 0, 0, 0, 1, 0, 0, 0])
    assert pile_text(one_home, Pile.FC2).plain.strip() == "A♣"
    assert pile_text(one_home, Pile.FC).plain.strip() == "♣"  # empty, its suit shown
    assert column_text(one_home, Pile.T9).plain.strip() == "8♣"
    both_home = Position(rules, tableau, [0] * 9, rest, [], [1, 0, 0, 0, 1, 0, 0, 0])
    assert pile_text(both_home, Pile.FC2).plain.strip() == "A♣"
    assert pile_text(both_home, Pile.FC).plain.strip() == "A♣"


def test_an_easthaven_column_too_tall_folds_its_deepest_face_up_cards() -> None:
    rules = Rules.preset("easthaven")
    cards = list(rules.cards)
    tableau: list[list[Card]] = [cards[:20], *([] for _ in range(6))]
    position = Position(rules, tableau, [2, 0, 0, 0, 0, 0, 0], cards[20:], [], [0] * 4)
    lines = column_text(position, Pile.T1).plain.split("\n")
    assert len(lines) == 15
    assert lines[-1].strip() == card_label(cards[19])  # the top card still shows
    assert any(line.strip().startswith("+") for line in lines)


# -- keys ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "move"),
    [
        (13, Move(Pile.T10, Pile.T6)),  # 0 picks column 10 up
        (7, Move(Pile.T5, Pile.T10)),  # 5 picks up, 0 drops on column 10
        (1, Move(Pile.T3, Pile.T9)),  # 3 picks up, 9 drops on column 9
        (3, Move(Pile.T8, Pile.T10)),  # 8 moves column 8's card at once
    ],
)
async def test_keys_8_9_0_reach_columns_8_to_10(
    storage: SQLiteStorage, number: int, move: Move
) -> None:
    app = relative_app(storage, "westcliff", str(number))
    async with app.run_test(size=SIZE) as pilot:
        card = app.session.position.card_at(move.source)
        assert card is not None
        await press_move(app, pilot, move)
        assert app.game.history == [move]
        dest = str(app.query_one(f"#{move.dest.name.lower()}", PileView).render())
        assert dest.split("\n")[-1].strip() == card_label(card)


@pytest.mark.parametrize(("drop", "home", "other"), [("f", "fs", "fs2"), ("#fs2", "fs2", "fs")])
async def test_double_klondike_sends_an_ace_to_the_foundation_chosen(
    storage: SQLiteStorage, drop: str, home: str, other: str
) -> None:
    # Deal 7 of two decks: column 9's top card is an ace of spades; f takes the
    # first spades foundation, a click on the second takes that one.
    app = relative_app(storage, "double-klondike")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("9")
        await (pilot.press(drop) if drop == "f" else pilot.click(drop))
        assert app.game.history == [Move(Pile.T9, Pile[home.upper()])]
        assert str(app.query_one(f"#{home}", PileView).render()).strip() == "A♠"
        assert str(app.query_one(f"#{other}", PileView).render()).strip() == "♠"


async def test_a_key_for_a_pile_the_game_lacks_says_so(
    storage: SQLiteStorage,
) -> None:
    app = relative_app(storage, "easthaven")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("8")
        assert message(app) == "Easthaven has no column 8."
        await pilot.press("w")
        assert message(app) == "Easthaven has no waste."
        assert app.game.move_count == 0


async def test_space_deals_one_card_onto_every_easthaven_column(
    storage: SQLiteStorage,
) -> None:
    app = relative_app(storage, "easthaven")
    async with app.run_test(size=SIZE) as pilot:
        before = [len(column) for column in app.session.position.tableau]
        assert str(app.query_one("#stock", PileView).render()) == "[31]"
        await pilot.pause()
        [footer] = [" ".join(line.split()) for line in screen_lines(app) if "Undo" in line]
        assert "space Deal" in footer and "Draw" not in footer
        await pilot.press("space")
        position = app.session.position
        assert [len(column) for column in position.tableau] == [n + 1 for n in before]
        assert str(app.query_one("#stock", PileView).render()) == "[24]"
        assert "onto the columns" in message(app)
        for index, column in enumerate(position.tableau):  # each new card on view
            shown = str(app.query_one(f"#t{index + 1}", PileView).render())
            assert shown.split("\n")[-1].strip() == card_label(column[-1])


async def test_the_help_names_the_keys_of_the_game(storage: SQLiteStorage) -> None:
    app = relative_app(storage, "westcliff")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        text = " ".join(screen.text().split())
        assert "1 – 9, 0" in text and "0 is column 10" in text
        assert "Westcliff: one deck, 10 columns" in text and "103" in text
    east = relative_app(storage, "easthaven")
    async with east.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(east.screen, HelpScreen)
        text = " ".join(east.screen.text().split())
        assert "deal one card face up onto every column" in text and "st " in text
        assert "pick up the waste" not in text


# -- choosing a game, and its statistics ---------------------------------------------


async def test_the_new_deal_screen_starts_a_westcliff_game(storage: SQLiteStorage) -> None:
    app = BonanzaApp(storage, "player", start=NewDealChoice(Rules(), "7"), advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewDealScreen)
        await pilot.press("shift+tab", "space", "down", "down", "down", "enter")  # → Westcliff
        await pilot.pause()
        assert screen.query_one("#game", Select).value == "westcliff"
        assert screen.query_one("#preset", Select).value == "westcliff"
        assert "Westcliff" in str(screen.query_one("#summary", Static).render())
        await pilot.click("#start")
        await pilot.pause()
        assert app.session.rules == Rules.preset("westcliff")
        assert len([v for v in shown_piles(app) if v.pile.is_tableau]) == 10
        assert status(app).startswith("Westcliff")


async def choose_game(app: BonanzaApp, pilot: Any, game: str) -> NewDealScreen:
    """Open the new-deal screen (on an untouched game) and choose ``game`` there."""
    await pilot.press("n")
    screen = app.screen
    assert isinstance(screen, NewDealScreen)
    screen.query_one("#game", Select).value = game
    await pilot.pause()
    return screen


async def test_the_new_deal_screen_deals_a_typed_double_klondike_deal(
    storage: SQLiteStorage,
) -> None:
    app = BonanzaApp(storage, "player", start=NewDealChoice(Rules(), "7"), advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        screen = await choose_game(app, pilot, "double-klondike-3")
        assert screen.query_one("#draw", Select).value == "3"
        assert "104 cards" in str(screen.query_one("#deal", Input).placeholder)
        await pilot.click("#deal")
        await pilot.press("7", "enter")
        await pilot.pause()
        assert app.session.rules == Rules.preset("double-klondike-3")
        assert app.game.deal == Deal.from_number(7, 2)
        assert len(app.session.position.stock) == 59


async def test_easthaven_on_the_new_deal_screen_fixes_draw_and_passes(
    storage: SQLiteStorage,
) -> None:
    app = BonanzaApp(storage, "player", start=NewDealChoice(Rules(draw=3), "7"),
                     advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        screen = await choose_game(app, pilot, "easthaven")
        assert screen.query_one("#draw", Select).disabled
        assert screen.query_one("#passes", Select).disabled
        screen.query_one("#scoring", Select).value = "vegas"
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        assert app.session.rules.game == "easthaven" and app.session.rules.scoring.is_vegas
        assert app.session.rules.draw == 1


async def test_a_random_double_klondike_deal_has_two_decks(storage: SQLiteStorage) -> None:
    app = relative_app(storage, "double-klondike", None, random_deals=lambda: Deal.from_number(5))
    async with app.run_test(size=SIZE):
        assert app.game.deal == Deal.from_number(5, 2)


async def test_statistics_are_kept_per_game(storage: SQLiteStorage) -> None:
    app = relative_app(storage, "westcliff", None)
    async with app.run_test(size=SIZE) as pilot:
        for name in ("klondike", "easthaven", "westcliff", "klondike"):
            app.action_draw()  # a game touched counts: lost when the next begins
            app.new_game(NewDealChoice(Rules.preset(name), None))
        await pilot.press("s")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        games = [str(s.render()) for s in screen.query(".headline-game").results(Static)]
        assert games == ["Klondike", "Westcliff", "Easthaven"]
        blocks = [str(s.render()) for s in screen.query(".headline").results(Static)]
        assert len(blocks) == 3
        westcliff = blocks[1]
        assert westcliff.startswith("draw 1, 1 pass") and "Played 2" in westcliff
        assert "Played 1" in blocks[0] and "Played 1" in blocks[2]


# -- hints and searches --------------------------------------------------------------


@dataclass
class RefusingAdvisor:
    """An advisor for a game the solver does not play yet."""

    def hint(self, view: PlayerView) -> Hint:
        raise RulesError(f"the solver plays Klondike only (not {view.rules.game}) yet")

    def progress(self, position: Position) -> bool | None:
        raise RulesError(f"the solver plays Klondike only (not {position.rules.game}) yet")


async def settle_refused(app: BonanzaApp, pilot: Any) -> None:
    """Let the worker threads end, raising as a refusing advisor makes them, and
    their answers arrive."""
    for worker in list(app.workers):
        with contextlib.suppress(WorkerFailed):
            await worker.wait()
    await pilot.pause()


@pytest.mark.parametrize("name", RELATIVES)
async def test_a_hint_the_solver_cannot_give_yet_says_so_in_one_line(
    storage: SQLiteStorage, name: str
) -> None:
    app = relative_app(storage, name, advisor=RefusingAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await settle_refused(app, pilot)
        assert message(app) == f"Hints are not available for {TITLES[name]} yet"
        await pilot.press("space")  # the progress check raises too: the game goes on
        await pilot.pause(PROGRESS_DELAY)
        await settle_refused(app, pilot)
        assert app.is_running and app.game.move_count == 1


class BrokenAdvisor:
    """An advisor with a bug: it raises something other than ``RulesError``."""

    def hint(self, view: PlayerView) -> Hint:
        raise ValueError("a bug in the search")

    def progress(self, position: Position) -> bool | None:
        raise ValueError("a bug in the search")


async def test_a_bug_in_a_relatives_search_reads_as_a_failure_not_as_not_available(
    storage: SQLiteStorage,
) -> None:
    app = relative_app(storage, "easthaven", advisor=BrokenAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await settle_refused(app, pilot)
        assert message(app) == HINT_FAILED
        assert app.is_running


async def test_a_hint_the_advisor_gives_in_a_relative_lights_its_piles(
    storage: SQLiteStorage,
) -> None:
    advisor = FakeAdvisor(move=Move(Pile.T5, Pile.T10))
    app = relative_app(storage, "westcliff", advisor=advisor)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await settle(app, pilot)
        assert message(app) == "Try 510"
        assert app.query_one("#t10", PileView).hinted and app.query_one("#t5", PileView).hinted


def test_the_notice_names_the_game() -> None:
    assert not_yet("Hints", Rules.preset("westcliff"), plural=True) == (
        "Hints are not available for Westcliff yet"
    )
    assert not_yet("Auto finish", Rules.preset("double-klondike-3")) == (
        "Auto finish is not available for Double Klondike yet"
    )
