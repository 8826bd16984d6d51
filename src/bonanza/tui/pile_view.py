"""One pile on screen: the stock, the waste, a foundation or a tableau column."""

from __future__ import annotations

from typing import Final

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from bonanza.core.cards import SUIT_COUNT, Card
from bonanza.core.moves import Pile
from bonanza.core.position import Position

SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_TEXTS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_WIDTH: Final = 3
"""Characters a card takes: ``10♥`` at most, narrower ones right-aligned."""
WASTE_FAN: Final = 3
"""How many waste cards show, top card last, on one line."""
MAX_COLUMN_LINES: Final = 15
"""The most lines a column takes unless told otherwise (what an 80×24 terminal
leaves the tableau); a taller column folds its face-down cards into one line."""
MIN_COLUMN_LINES: Final = 3
"""The fewest lines a column is given: its folded face-down cards, its folded
face-up cards, and its top card."""
FACE_DOWN: Final = "▒" * CARD_WIDTH
EMPTY_MARK: Final = " · "
RECYCLE_MARK: Final = "[ ↺]"
PILE_WIDTH: Final = CARD_WIDTH + 5
WASTE_WIDTH: Final = 2 * PILE_WIDTH
"""The waste is two piles wide, room for ``WASTE_FAN`` cards and the padding."""


def pile_id(pile: Pile) -> str:
    """The widget ID of a pile: ``t1``…``t10``, ``stock``, ``waste``, ``fc``…``fs``,
    ``fc2``…``fs2``."""
    return pile.name.lower()


def card_label(card: Card) -> str:
    """A card's rank and suit as shown, such as ``7♥`` or ``10♠`` (a second-deck
    card, id 52-103, shows as its first-deck twin)."""
    return RANK_TEXTS[card.rank - 1] + SUIT_SYMBOLS[card.suit]


def card_text(card: Card, emphasis: str = "bold") -> Text:
    """A face-up card in its colour, such as a red ``7♥``; ``emphasis`` is
    ``bold`` (the default), ``dim``, or any other Rich style added to the colour."""
    colour = "red" if card.is_red else ""
    return Text(card_label(card).rjust(CARD_WIDTH), style=f"{emphasis} {colour}".strip())


def stock_text(position: Position) -> Text:
    """The stock: its count, the recycle sign when a recycle is possible, else empty."""
    if position.stock:
        return Text(f"[{len(position.stock):2}]", style="bold")
    if position.waste and position.can_recycle():
        return Text(RECYCLE_MARK, style="bold")
    return Text(EMPTY_MARK, style="dim")


def waste_text(position: Position) -> Text:
    """Up to ``WASTE_FAN`` top waste cards on one line: the lower ones dim, the top bold."""
    shown = position.waste[-WASTE_FAN:]
    if not shown:
        return Text(EMPTY_MARK, style="dim")
    cards = [card_text(card, "dim") for card in shown[:-1]]
    cards.append(card_text(shown[-1], "bold"))
    return Text(" ").join(cards)


def column_text(position: Position, pile: Pile, max_lines: int = MAX_COLUMN_LINES) -> Text:
    """A tableau column, deepest card first, one line each, in ``max_lines`` at most.

    Face-down cards show as ``▒▒▒`` (as dim cards under thoughtful rules, where
    every card is seen); a column taller than ``max_lines`` folds its deepest
    face-down cards into one ``▒▒▒×N`` line. A column still too tall (a long
    run in a short window, or Easthaven, where face-up cards need not form one
    run) folds its deepest face-up cards too, into one ``+N`` line: the top
    card, the one that plays, always shows.
    """
    index = pile.column_index
    column, down = position.tableau[index], position.down[index]
    if not column:
        return Text(EMPTY_MARK, style="dim")
    max_lines = max(MIN_COLUMN_LINES, max_lines)
    up = len(column) - down
    folded = 0 if up + down <= max_lines else down
    if position.rules.thoughtful and folded:
        folded = min(down, max(0, down - (max_lines - up - 1)))
    lines = [Text(f"{FACE_DOWN}×{folded}", style="blue")] if folded else []
    for card in column[folded:down]:
        if position.rules.thoughtful:
            lines.append(card_text(card, "dim italic"))
        else:
            lines.append(Text(FACE_DOWN, style="blue"))
    shown_up = column[down:]
    hidden_up = len(lines) + up - max_lines + 1 if len(lines) + up > max_lines else 0
    if hidden_up:
        lines.append(Text(f"+{hidden_up}".rjust(CARD_WIDTH), style="dim"))
    lines += [card_text(card) for card in shown_up[hidden_up:]]
    return Text("\n").join(lines)


def pile_text(position: Position, pile: Pile, max_lines: int = MAX_COLUMN_LINES) -> Text:
    """What a pile shows in ``position`` (a column in ``max_lines`` at most)."""
    if pile == Pile.STOCK:
        return stock_text(position)
    if pile == Pile.WASTE:
        return waste_text(position)
    if pile.is_foundation:
        card = position.card_at(pile)
        if card is None:
            suit = pile.foundation_index % SUIT_COUNT
            return Text(f"  {SUIT_SYMBOLS[suit]}", style="dim")
        return card_text(card)
    return column_text(position, pile, max_lines)


class PileView(Static):
    """A pile that can be clicked to pick it up or to drop onto it."""

    DEFAULT_CSS = f"""
    PileView {{ width: {PILE_WIDTH}; height: auto; min-height: 1; padding: 0 1; }}
    PileView#waste {{ width: {WASTE_WIDTH}; }}
    PileView.selected {{ background: $accent 40%; }}
    PileView.hinted {{ background: $success 40%; }}
    """

    selected: reactive[bool] = reactive(False)
    hinted: reactive[bool] = reactive(False)

    class Picked(Message):
        """The player clicked this pile."""

        def __init__(self, pile: Pile) -> None:
            super().__init__()
            self.pile = pile

    def __init__(self, pile: Pile) -> None:
        super().__init__(id=pile_id(pile))
        self.pile = pile
        self.max_lines = MAX_COLUMN_LINES  # a column's room (the table sets it)
        self._position: Position | None = None

    def show(self, position: Position) -> None:
        """Draw the pile as it lies in ``position``."""
        self._position = position
        self.update(pile_text(position, self.pile, self.max_lines))

    def fit(self, max_lines: int) -> None:
        """Give a column ``max_lines`` lines, and draw it again in them."""
        if max_lines != self.max_lines:
            self.max_lines = max_lines
            if self._position is not None:
                self.show(self._position)

    def watch_selected(self, value: bool) -> None:
        self.set_class(value, "selected")

    def watch_hinted(self, value: bool) -> None:
        self.set_class(value, "hinted")

    def on_click(self) -> None:
        self.post_message(self.Picked(self.pile))
