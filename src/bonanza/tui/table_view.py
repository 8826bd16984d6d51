"""The table: stock, waste and foundations on top, the numbered columns below.

It holds a ``PileView`` for every pile any game has (ten columns, eight
foundations) and shows those of the rules in play (``lay_out``): Klondike's
seven columns and four foundations; Double Klondike's nine and eight;
Westcliff's ten; Easthaven's seven without a waste.

It fits itself to its room whenever that changes: the piles as wide as the
width allows (``PILE_WIDTHS``: wider at 120 columns than at 80, and narrow
enough for ten columns or eight foundations in 80), and each column in the
lines left under the top row, its face-down cards (then its deepest face-up
ones) folded into a marked line so that its top card always shows. A window
too small even for that says so, and the table scrolls: no card is ever cut
off unseen.
"""

from __future__ import annotations

import math
from typing import Final

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.events import Resize
from textual.widgets import Static

from bonanza.core.cards import SUIT_COUNT
from bonanza.core.moves import ALL_COLUMNS, ALL_FOUNDATIONS, Move, Pile
from bonanza.core.position import Position
from bonanza.core.rules import KLONDIKE_COLUMNS, Rules, StockMode
from bonanza.tui.pile_view import (
    MAX_COLUMN_LINES,
    MIN_COLUMN_LINES,
    PILE_WIDTH,
    PileView,
    pile_id,
)

PILE_WIDTHS: Final = (7, 8, 10, 12, 14)
"""The widths a pile may take, narrowest first; the table takes the widest that fits."""
NARROW_WIDTH: Final = PILE_WIDTHS[0]
"""The narrowest pile: ten columns (72) or the top row of eight foundations,
stock and waste (79) fit 80 characters with the padding."""
PADDING: Final = 2
"""Characters of padding on the table's left and right."""
HEAD_LINES: Final = 4
"""Lines above the columns: the top row with its blank line, the column numbers with theirs."""
TOO_SMALL: Final = "Window too small: {width}×{height} needed; scroll the table"


def column_label(index: int) -> str:
    """The number over column ``index`` (from 0), under the cards' suits: ``  1``, `` 10``."""
    return f"{index + 1:>3}"


def is_wide(rules: Rules) -> bool:
    """Whether the table of ``rules`` has more than seven columns or four
    foundations: its piles may be narrower than Klondike's."""
    return rules.columns > KLONDIKE_COLUMNS or rules.foundations > SUIT_COUNT


def piles_in_play(rules: Rules) -> frozenset[Pile]:
    """The piles the table of ``rules`` shows: its columns and foundations, the
    stock, and the waste unless the stock deals onto the columns."""
    shown = {*rules.tableau_piles, *rules.foundation_piles, Pile.STOCK}
    if rules.stock_mode is StockMode.WASTE:
        shown.add(Pile.WASTE)
    return frozenset(shown)


def waste_piles(rules: Rules) -> int:
    """How many piles wide the waste is: two (room for three cards), or none."""
    return 2 if rules.stock_mode is StockMode.WASTE else 0


def table_width(rules: Rules, width: int) -> int:
    """The characters the table of ``rules`` takes with piles ``width`` wide:
    its columns, or its top row (stock, waste, foundations) when wider."""
    top = 1 + waste_piles(rules) + rules.foundations
    return max(rules.columns, top) * width + PADDING


def pile_width(rules: Rules, room: int) -> int:
    """The widest pile that lets the table of ``rules`` fit ``room`` characters
    (the narrowest allowed when none does: Klondike's is ``PILE_WIDTH``)."""
    narrowest = NARROW_WIDTH if is_wide(rules) else PILE_WIDTH
    fitting = [w for w in PILE_WIDTHS if w >= narrowest and table_width(rules, w) <= room]
    return max(fitting, default=narrowest)


def gap_width(rules: Rules, width: int = PILE_WIDTH) -> int:
    """The space between the waste and the foundations that puts the
    foundations over the last columns (none when they do not fit there)."""
    waste = waste_piles(rules) * width
    return max(0, (rules.columns - rules.foundations) * width - width - waste)


class TableView(VerticalScroll):
    """Every pile of the game in play, laid out for its rules and fitted to its room."""

    DEFAULT_CSS = """
    TableView { height: 1fr; overflow-x: auto; overflow-y: auto; align-horizontal: center; }
    TableView #notice {
        dock: top; height: auto; width: 100%; display: none; padding: 0 1;
        background: $warning 30%; color: $text;
    }
    TableView #top { height: auto; width: auto; padding: 1 1 0 1; }
    TableView #tableau { height: auto; width: auto; padding: 0 1; }
    TableView #gap { width: 0; }
    TableView .labels { height: 1; width: auto; padding: 0 1; margin-top: 1; }
    TableView .label { padding: 0 1; color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rules: Rules | None = None
        self.pile_width = PILE_WIDTH
        self.column_lines = MIN_COLUMN_LINES

    def compose(self) -> ComposeResult:
        yield Static(id="notice", markup=False)
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
        self.rules = rules
        shown = piles_in_play(rules)
        for view in self.query(PileView):
            view.display = view.pile in shown
        for pile in ALL_COLUMNS:
            self.query_one(f"#label-{pile_id(pile)}", Static).display = pile in shown
        self.fit()

    def on_resize(self, event: Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """Size the piles to the room there is now; say so when it is too little."""
        rules = self.rules
        if rules is None:
            return
        # Before its first layout the table has no size: the screen's width is its own.
        room_width = self.size.width or self.app.size.width
        room_height = self.size.height or HEAD_LINES + MAX_COLUMN_LINES
        width = pile_width(rules, room_width)
        self.pile_width = width
        for view in self.query(PileView):
            view.styles.width = width * (waste_piles(rules) if view.pile == Pile.WASTE else 1)
        for label in self.query(".label"):
            label.styles.width = width
        self.query_one("#gap", Static).styles.width = gap_width(rules, width)
        needed_width = table_width(rules, width)
        too_narrow = needed_width > room_width
        lines = room_height - HEAD_LINES
        notice = self.query_one("#notice", Static)
        notice.display = too_narrow or lines < MIN_COLUMN_LINES
        if notice.display:
            # The window's size that fits: the table's, and what lies around it.
            chrome = self.screen.size.height - room_height
            chrome_width = self.screen.size.width - room_width
            text = TOO_SMALL.format(
                width=needed_width + chrome_width, height=HEAD_LINES + MIN_COLUMN_LINES + chrome
            )
            notice.update(text)
            lines -= math.ceil(len(text) / max(1, room_width - PADDING)) + too_narrow
        self.column_lines = max(MIN_COLUMN_LINES, lines)
        for pile in rules.tableau_piles:
            self.query_one(f"#{pile_id(pile)}", PileView).fit(self.column_lines)
