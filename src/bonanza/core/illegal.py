"""Why a move is not legal: a short reason naming only cards the player sees."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bonanza.core.cards import SUIT_COUNT
from bonanza.core.moves import COLUMN_INDEX, SUIT_NAMES, Move, Pile
from bonanza.core.rules import StockMode

if TYPE_CHECKING:
    from bonanza.core.position import Position


def why_illegal(position: Position, move: Move) -> str:
    """A short reason ``move`` is not legal in ``position``."""
    source, dest, count = move
    rules = position.rules
    if count < 1:
        return "a move takes at least one card"
    if source == dest:
        return "a pile cannot move onto itself"
    for pile in (source, dest):
        if pile.is_tableau and COLUMN_INDEX[pile] >= rules.columns:
            return f"this game has {rules.columns} columns, not {COLUMN_INDEX[pile] + 1}"
        if pile.is_foundation and pile.foundation_index >= rules.foundations:
            return f"this game has {rules.foundations} foundations: no {pile.label}"
    if source == Pile.STOCK:
        return _why_not_from_stock(position, move)
    if dest == Pile.STOCK:
        if position.stock:
            return "the stock is not empty"
        if not position.waste:
            return "the waste is empty"
        if not position.can_recycle():
            return f"the pass limit ({rules.passes}) is reached"
        return f"a recycle turns all {len(position.waste)} waste cards"
    if dest == Pile.WASTE:
        return "cards only reach the waste by drawing"
    cards = position.moving_cards(move)
    if not cards:
        return f"the {source.label} is empty"
    if source.is_tableau:
        index = COLUMN_INDEX[source]
        face_up = len(position.tableau[index]) - position.down[index]
        if count > face_up:
            return f"{source.label} has only {face_up} face-up cards"
        if not rules.partial_runs and count != face_up:
            return "only whole runs may move"
    elif source.is_foundation and not rules.recall:
        return "these rules do not allow cards back from a foundation"
    if count != 1 and not (source.is_tableau and dest.is_tableau):
        return "only one card moves at a time from there"
    card = cards[0]
    if dest.is_foundation:
        suit = dest.foundation_index % SUIT_COUNT
        if card.suit != suit:
            return f"{card} is not a {SUIT_NAMES[suit]} card"
        needed = "the next rank" if position.foundations[dest.foundation_index] else "an ace"
        return f"the {dest.label} needs {needed}"
    target = position.tableau[COLUMN_INDEX[dest]]
    if not target:
        return f"only a king may fill an empty column, not {card}"
    for lower, upper in zip(cards[1:], cards, strict=False):
        if lower.rank != upper.rank - 1 or lower.is_red == upper.is_red:
            return f"{lower} does not lie on {upper}: only a run moves"
    return f"{card} does not go on {target[-1]}"


def _why_not_from_stock(position: Position, move: Move) -> str:
    rules = position.rules
    deals = rules.stock_mode is StockMode.EVERY_COLUMN
    if deals and move.dest != Pile.T1:
        return "this stock deals a card onto every column (st)"
    if not deals and move.dest != Pile.WASTE:
        return "the stock only goes to the waste"
    if not position.stock:
        return "the stock is empty"
    if deals:
        return f"a deal puts {min(rules.columns, len(position.stock))} cards on the columns"
    return f"a draw turns {min(rules.draw, len(position.stock))} cards"
