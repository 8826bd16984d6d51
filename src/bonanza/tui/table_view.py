"""The table: stock, waste and foundations on top, the numbered columns below.

It holds a ``PileView`` for every pile any game has (ten columns, eight
foundations) and shows those of the rules in play (``lay_out``): Klondike's
seven columns and four foundations; Double Klondike's nine and eight;
Westcliff's ten; Easthaven's seven without a waste. A table of more than
seven columns or four foundations is drawn narrower, so that ten columns or
eight foundations fit an 80-column terminal.
"""

from __future__ import annotations

from typing import Final

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from bonanza.core.cards import SUIT_COUNT
from bonanza.core.moves import ALL_COLUMNS, ALL_FOUNDATIONS, Move, Pile
from bonanza.core.position import Position
from bonanza.core.rules import KLONDIKE_COLUMNS, Rules, StockMode
from bonanza.tui.pile_view import PILE_WIDTH, WASTE_WIDTH, PileView, pile_id

NARROW_WIDTH: Final = PILE_WIDTH - 1
"""A pile's width on a wide table: ten columns (70) or the top row of eight
foundations, stock and waste (77) fit 80 characters with the padding."""
NARROW_WASTE_WIDTH: Final = 2 * NARROW_WIDTH
"""The waste on a wide table: still room for three cards (``10♥ 10♥ 10♥``)."""
WIDE: Final = "wide"
"""The class of a table drawn narrower."""


def column_label(index: int) -> str:
    """The number over column ``index`` (from 0), under the cards' suits: ``  1``, `` 10``."""
    return f"{index + 1:>3}"


def is_wide(rules: Rules) -> bool:
    """Whether the table of ``rules`` is drawn narrower: more than seven
    columns or four foundations."""
    return rules.columns > KLONDIKE_COLUMNS or rules.foundations > SUIT_COUNT


def piles_in_play(rules: Rules) -> frozenset[Pile]:
    """The piles the table of ``rules`` shows: its columns and foundations, the
    stock, and the waste unless the stock deals onto the columns."""
    shown = {*rules.tableau_piles, *rules.foundation_piles, Pile.STOCK}
    if rules.stock_mode is StockMode.WASTE:
        shown.add(Pile.WASTE)
    return frozenset(shown)


def gap_width(rules: Rules) -> int:
    """The space between the waste and the foundations that puts the
    foundations over the last columns (none when they do not fit there)."""
    width = NARROW_WIDTH if is_wide(rules) else PILE_WIDTH
    waste = 0
    if rules.stock_mode is StockMode.WASTE:
        waste = NARROW_WASTE_WIDTH if is_wide(rules) else WASTE_WIDTH
    return max(0, (rules.columns - rules.foundations) * width - width - waste)


class TableView(Vertical):
    """Every pile of the game in play, laid out for its rules."""

    DEFAULT_CSS = f"""
    TableView {{ height: 1fr; }}
    TableView #top {{ height: auto; padding: 1 1 0 1; }}
    TableView #tableau {{ height: 1fr; padding: 0 1; overflow: hidden; }}
    TableView #gap {{ width: 0; }}
    TableView .labels {{ height: 1; padding: 0 1; margin-top: 1; }}
    TableView .label {{ width: {PILE_WIDTH}; padding: 0 1; color: $text-muted; }}
    TableView.{WIDE} PileView {{ width: {NARROW_WIDTH}; }}
    TableView.{WIDE} PileView#waste {{ width: {NARROW_WASTE_WIDTH}; }}
    TableView.{WIDE} .label {{ width: {NARROW_WIDTH}; }}
    """

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield PileView(Pile.STOCK)
            yield PileView(Pile.WASTE)
            yield Static(id="gap")
            for pile in ALL_FOUNDATIONS:
                yield PileView(pile)
        with Horizontal(classes="labels"):
            for index, pile in enumerate(ALL_COLUMNS):
                yield Static(column_label(index), classes="label", id=f"label-{pile_id(pile)}")
        with Horizontal(id="tableau"):
            for pile in ALL_COLUMNS:
                yield PileView(pile)

    @property
    def views(self) -> dict[Pile, PileView]:
        """Every pile's view."""
        return {view.pile: view for view in self.query(PileView)}

    def show(self, position: Position, selected: Pile | None) -> None:
        """Draw the piles of ``position``, ``selected`` picked up, none lit."""
        in_play = piles_in_play(position.rules)
        for view in self.query(PileView):
            if view.pile in in_play:
                view.show(position)
            view.selected = view.pile == selected
            view.hinted = False

    def light(self, move: Move) -> None:
        """Light up the piles of a hinted ``move``."""
        views = self.views
        views[move.source].hinted = True
        views[move.dest].hinted = True

    def lay_out(self, rules: Rules) -> None:
        """Show the piles of ``rules`` (and their column numbers), hide the others."""
        shown = piles_in_play(rules)
        for view in self.query(PileView):
            view.display = view.pile in shown
        for pile in ALL_COLUMNS:
            self.query_one(f"#label-{pile_id(pile)}", Static).display = pile in shown
        self.set_class(is_wide(rules), WIDE)
        self.query_one("#gap", Static).styles.width = gap_width(rules)
