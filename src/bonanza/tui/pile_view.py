"""One pile on screen: the stock, the waste, a foundation or a tableau column."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from bonanza.core.cards import CARDS, Card
from bonanza.core.moves import Pile
from bonanza.core.position import Position

SUIT_SYMBOLS = "♣♦♥♠"


def pile_id(pile: Pile) -> str:
    """The widget ID of a pile: ``t1``…``t7``, ``stock``, ``waste``, ``fc``…``fs``."""
    return pile.name.lower()


def card_text(card: Card) -> Text:
    """A face-up card in its colour, such as a red ``7♥``."""
    return Text(card.symbol.rjust(3), style="bold red" if card.is_red else "bold")


def pile_text(position: Position, pile: Pile, draw: int) -> Text:
    """What a pile shows: face-down cards as ``▒▒▒``, the stock as a count."""
    if pile == Pile.STOCK:
        return Text(f"[{len(position.stock):2}]" if position.stock else "[ ↺]", style="bold")
    if pile == Pile.WASTE:
        shown = position.waste[-draw:]
        return Text(" ").join(card_text(card) for card in shown) if shown else Text(" · ")
    if pile.is_foundation:
        home = position.foundations[pile - Pile.FC]
        if not home:
            return Text(f"  {SUIT_SYMBOLS[pile - Pile.FC]}", style="dim")
        return card_text(CARDS[(pile - Pile.FC) * 13 + home - 1])
    column, down = position.tableau[pile], position.down[pile]
    if not column:
        return Text(" · ", style="dim")
    lines = [Text("▒▒▒", style="blue") for _ in range(down)]
    lines += [card_text(card) for card in column[down:]]
    return Text("\n").join(lines)


class PileView(Static):
    """A pile that can be clicked to pick it up or to drop onto it."""

    DEFAULT_CSS = """
    PileView { width: 8; height: auto; min-height: 1; padding: 0 1; }
    PileView.selected { background: $accent 40%; }
    PileView.hinted { background: $success 40%; }
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

    def show(self, position: Position) -> None:
        self.update(pile_text(position, self.pile, position.rules.draw))

    def watch_selected(self, value: bool) -> None:
        self.set_class(value, "selected")

    def watch_hinted(self, value: bool) -> None:
        self.set_class(value, "hinted")

    def on_click(self) -> None:
        self.post_message(self.Picked(self.pile))
