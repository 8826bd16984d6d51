"""The action numbering shared by the Gymnasium environment and the OpenSpiel game.

Every move of a table has one fixed number, whatever the position, so that
an agent sees a discrete action space of fixed size. With ``C`` tableau
columns and ``F`` foundations (7 and 4 in Klondike), the numbers are, in order:

=========================  =================  ==============================
block                      size               action number
=========================  =================  ==============================
draw (or deal)             1                  0
recycle                    1                  1
waste to column c          C                  2 + c
waste to foundation f      F                  2 + C + f
column c to foundation f   C * F              2 + C + F + c * F + f
foundation f to column c   F * C              2 + C + F + C*F + f * C + c
column a to column b,      C * (C - 1) * 13   2 + C + F + 2*C*F
count n (1 to 13)                             + (a * (C - 1) + b') * 13 + n - 1
=========================  =================  ==============================

Columns and foundations count from 0 (foundation ``f`` is ``deck * 4 +
suit``, suits clubs, diamonds, hearts, spades); ``b'`` is ``b`` with column
``a`` left out (``b - 1`` when ``b > a``). A table without a waste
(Easthaven's, whose stock deals onto every column) has no recycle and no
waste blocks: its deal is 0 and the column-to-foundation block starts at 1.
Klondike has 615 actions. A draw's number does not depend on how many cards
it turns, nor a deal's on how many columns it reaches.
"""

from __future__ import annotations

import operator
from functools import cache
from typing import Final, SupportsIndex

from bonanza.core.cards import SUIT_COUNT
from bonanza.core.moves import FOUNDATIONS, SUIT_NAMES, TABLEAU, Move, Pile
from bonanza.core.position import Position
from bonanza.core.rules import Rules, StockMode

COLUMNS: Final = len(TABLEAU)
FOUNDATION_COUNT: Final = len(FOUNDATIONS)
LONGEST_RUN: Final = 13
"""The most cards one tableau move can carry (a King down to an Ace)."""

DRAW: Final = 0
RECYCLE: Final = 1
WASTE_TO_COLUMN: Final = 2
WASTE_TO_FOUNDATION: Final = WASTE_TO_COLUMN + COLUMNS
COLUMN_TO_FOUNDATION: Final = WASTE_TO_FOUNDATION + FOUNDATION_COUNT
FOUNDATION_TO_COLUMN: Final = COLUMN_TO_FOUNDATION + COLUMNS * FOUNDATION_COUNT
COLUMN_TO_COLUMN: Final = FOUNDATION_TO_COLUMN + FOUNDATION_COUNT * COLUMNS
ACTION_COUNT: Final = COLUMN_TO_COLUMN + COLUMNS * (COLUMNS - 1) * LONGEST_RUN
"""Klondike's actions; ``numbering(rules).count`` for another table."""

_DECK_ORDINALS: Final = ("first", "second")


class ActionError(ValueError):
    """A number that is not an action, or an action that is not legal here."""


class Numbering:
    """The action numbers of one table: ``columns`` columns, ``foundations``
    foundations, and a waste or not. The attributes are each block's first
    number (``None`` for a block the table lacks) and ``count``."""

    __slots__ = (
        "column_to_column",
        "column_to_foundation",
        "columns",
        "count",
        "foundation_to_column",
        "foundations",
        "recycle",
        "waste",
        "waste_to_column",
        "waste_to_foundation",
    )

    def __init__(self, columns: int, foundations: int, waste: bool) -> None:
        self.columns = columns
        self.foundations = foundations
        self.waste = waste
        after_waste = WASTE_TO_COLUMN + columns + foundations if waste else DRAW + 1
        self.recycle: int | None = RECYCLE if waste else None
        self.waste_to_column: int | None = WASTE_TO_COLUMN if waste else None
        self.waste_to_foundation: int | None = WASTE_TO_COLUMN + columns if waste else None
        self.column_to_foundation = after_waste
        self.foundation_to_column = after_waste + columns * foundations
        self.column_to_column = self.foundation_to_column + foundations * columns
        self.count = self.column_to_column + columns * (columns - 1) * LONGEST_RUN

    def action_of(self, move: Move) -> int:
        """The number of ``move``."""
        source, dest = move.source, move.dest
        if source == Pile.STOCK:
            return DRAW
        if source == Pile.WASTE and self.waste_to_column is not None:
            if dest == Pile.STOCK and self.recycle is not None:
                return self.recycle
            if dest.is_tableau and self._has_column(dest):
                return self.waste_to_column + dest.column_index
            if dest.is_foundation and self._has_foundation(dest):
                return self.waste_to_foundation + dest.foundation_index  # type: ignore[operator]
        elif source.is_tableau and self._has_column(source):
            if dest.is_foundation and self._has_foundation(dest):
                index = source.column_index * self.foundations + dest.foundation_index
                return self.column_to_foundation + index
            if dest.is_tableau and self._has_column(dest) and source != dest:
                if not 1 <= move.count <= LONGEST_RUN:
                    raise ActionError(
                        f"a tableau move carries 1 to {LONGEST_RUN} cards, not {move.count}"
                    )
                a, b = source.column_index, dest.column_index
                slot = a * (self.columns - 1) + (b - 1 if b > a else b)
                return self.column_to_column + slot * LONGEST_RUN + move.count - 1
        elif (
            source.is_foundation
            and self._has_foundation(source)
            and dest.is_tableau
            and self._has_column(dest)
        ):
            index = source.foundation_index * self.columns + dest.column_index
            return self.foundation_to_column + index
        raise ActionError(f"{move!r} has no action number on this table")

    def legal_actions(self, position: Position) -> dict[int, Move]:
        """The legal moves of ``position`` by action number, in increasing order."""
        return dict(sorted((self.action_of(move), move) for move in position.legal_moves()))

    def move_of(self, action: SupportsIndex, position: Position) -> Move:
        """The legal move of ``position`` numbered ``action``. An ``ActionError``
        refuses anything else; its message names the legal actions, never a
        card the player cannot see."""
        number = self.check(action)
        legal = self.legal_actions(position)
        move = legal.get(number)
        if move is None:
            raise ActionError(
                f"action {number} ({self.describe(number)}) is not legal here; "
                f"legal actions: {list(legal)}"
            )
        return move

    def check(self, action: SupportsIndex) -> int:
        """``action`` as an action number of this table, or an ``ActionError``."""
        try:
            number = operator.index(action)
            if isinstance(action, bool):  # an int to Python, not an action
                raise TypeError
        except TypeError:
            raise ActionError(f"action {action!r} is not a whole number") from None
        if not 0 <= number < self.count:
            raise ActionError(f"action {number} is not a number from 0 to {self.count - 1}")
        return number

    def describe(self, action: SupportsIndex) -> str:
        """What ``action`` does, in words: ``column 4 to column 7, 3 cards``
        (``ActionError`` for a number that is no action of this table)."""
        action = self.check(action)
        if action == DRAW:
            return "draw" if self.waste else "deal"
        if self.waste and action < self.column_to_foundation:
            if action == RECYCLE:
                return "recycle"
            if action < WASTE_TO_COLUMN + self.columns:
                return f"waste to column {action - WASTE_TO_COLUMN + 1}"
            return f"waste to {self._foundation_name(action - WASTE_TO_COLUMN - self.columns)}"
        if action < self.foundation_to_column:
            column, home = divmod(action - self.column_to_foundation, self.foundations)
            return f"column {column + 1} to {self._foundation_name(home)}"
        if action < self.column_to_column:
            home, column = divmod(action - self.foundation_to_column, self.columns)
            return f"{self._foundation_name(home)} to column {column + 1}"
        slot, extra = divmod(action - self.column_to_column, LONGEST_RUN)
        source, dest = divmod(slot, self.columns - 1)
        dest += dest >= source
        count = extra + 1
        return f"column {source + 1} to column {dest + 1}, {count} card{'s' if count > 1 else ''}"

    def _foundation_name(self, index: int) -> str:
        deck, suit = divmod(index, SUIT_COUNT)
        if self.foundations == SUIT_COUNT:
            return f"the {SUIT_NAMES[suit]} foundation"
        return f"the {_DECK_ORDINALS[deck]} {SUIT_NAMES[suit]} foundation"

    def _has_column(self, pile: Pile) -> bool:
        return pile.column_index < self.columns

    def _has_foundation(self, pile: Pile) -> bool:
        return pile.foundation_index < self.foundations


@cache
def _numbering(columns: int, foundations: int, waste: bool) -> Numbering:
    return Numbering(columns, foundations, waste)


def numbering(rules: Rules | None = None) -> Numbering:
    """The numbering of ``rules``' table (Klondike's when ``None``): it depends
    on the columns, the foundations and whether there is a waste only."""
    if rules is None:
        return KLONDIKE
    return _numbering(rules.columns, rules.foundations, rules.stock_mode is StockMode.WASTE)


KLONDIKE: Final = _numbering(COLUMNS, FOUNDATION_COUNT, True)
"""Klondike's numbering: 615 actions."""


def action_of(move: Move, rules: Rules | None = None) -> int:
    """The number of ``move`` on ``rules``' table (Klondike's when ``None``)."""
    return numbering(rules).action_of(move)


def legal_actions(position: Position) -> dict[int, Move]:
    """The legal moves of ``position`` by action number, in increasing order."""
    return numbering(position.rules).legal_actions(position)


def move_of(action: SupportsIndex, position: Position) -> Move:
    """The legal move of ``position`` numbered ``action`` (else ``ActionError``)."""
    return numbering(position.rules).move_of(action, position)
