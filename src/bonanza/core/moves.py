"""Piles and moves: a move is a source pile, a destination pile and a count."""

from __future__ import annotations

import enum
from typing import NamedTuple


class Pile(enum.IntEnum):
    """The thirteen piles of a Klondike table."""

    T1 = 0
    T2 = 1
    T3 = 2
    T4 = 3
    T5 = 4
    T6 = 5
    T7 = 6
    STOCK = 7
    WASTE = 8
    FC = 9
    FD = 10
    FH = 11
    FS = 12

    @classmethod
    def column(cls, index: int) -> Pile:
        """Tableau column ``index`` (0 for the leftmost)."""
        return TABLEAU[index]

    @classmethod
    def foundation(cls, suit: int) -> Pile:
        """The foundation of ``suit`` (0-3 for C D H S)."""
        return FOUNDATIONS[suit]

    @property
    def is_tableau(self) -> bool:
        return self <= 6

    @property
    def is_foundation(self) -> bool:
        return self >= 9

    @property
    def label(self) -> str:
        """A name for people: ``column 3``, ``stock``, ``hearts foundation``."""
        if self.is_tableau:
            return f"column {self + 1}"
        if self.is_foundation:
            return ("clubs", "diamonds", "hearts", "spades")[self - 9] + " foundation"
        return self.name.lower()


TABLEAU = tuple(Pile(i) for i in range(7))
FOUNDATIONS = (Pile.FC, Pile.FD, Pile.FH, Pile.FS)


class Move(NamedTuple):
    """Move ``count`` cards from ``source`` to ``dest``.

    A draw is stock to waste and a recycle is waste to stock; their count is
    the number of cards turned.
    """

    source: Pile
    dest: Pile
    count: int = 1  # type: ignore[assignment]  # shadows tuple.count on purpose

    def __repr__(self) -> str:
        return f"Move(Pile.{self.source.name}, Pile.{self.dest.name}, {self.count})"

    @property
    def is_draw(self) -> bool:
        return self.source == Pile.STOCK

    @property
    def is_recycle(self) -> bool:
        return self.dest == Pile.STOCK
