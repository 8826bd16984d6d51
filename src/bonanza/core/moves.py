"""Piles and moves: a move is a source pile, a destination pile and a count."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Final, NamedTuple

from bonanza.core.cards import SUIT_COUNT

KLONDIKE_PILES: Final = 13
"""Piles 0-12: Klondike's table (T1-T7, stock, waste, FC FD FH FS)."""


SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")


class _PileType(enum.EnumType):
    """Iterating ``Pile`` gives Klondike's thirteen piles, as it always has
    (code that numbers Klondike's moves relies on it); ``ALL_PILES`` has all."""

    def __iter__(cls) -> Iterator[Pile]:  # type: ignore[override]
        return iter(ALL_PILES[:KLONDIKE_PILES])

    def __len__(cls) -> int:
        return KLONDIKE_PILES


class Pile(enum.IntEnum, metaclass=_PileType):
    """The piles of a table: Klondike's thirteen keep their numbers (0-12);
    the columns and foundations of larger games follow (13-19)."""

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
    T8 = 13
    T9 = 14
    T10 = 15
    FC2 = 16
    FD2 = 17
    FH2 = 18
    FS2 = 19

    @classmethod
    def column(cls, index: int) -> Pile:
        """Tableau column ``index`` (0 for the leftmost, up to 9)."""
        return ALL_COLUMNS[index]

    @classmethod
    def foundation(cls, index: int) -> Pile:
        """Foundation ``index``: ``deck * 4 + suit`` (0-3 for C D H S, 4-7 for
        the second deck's C D H S)."""
        return ALL_FOUNDATIONS[index]

    @property
    def is_tableau(self) -> bool:
        return COLUMN_INDEX[self] >= 0

    @property
    def is_foundation(self) -> bool:
        return FOUNDATION_INDEX[self] >= 0

    @property
    def column_index(self) -> int:
        """The column's index from 0 (-1 for other piles)."""
        return COLUMN_INDEX[self]

    @property
    def foundation_index(self) -> int:
        """The foundation's index, ``deck * 4 + suit`` (-1 for other piles)."""
        return FOUNDATION_INDEX[self]

    @property
    def label(self) -> str:
        """A name for people: ``column 3``, ``stock``, ``hearts foundation``,
        ``second hearts foundation``."""
        if self.is_tableau:
            return f"column {COLUMN_INDEX[self] + 1}"
        if self.is_foundation:
            deck, suit = divmod(FOUNDATION_INDEX[self], SUIT_COUNT)
            name = SUIT_NAMES[suit] + " foundation"
            return "second " + name if deck else name
        return self.name.lower()


ALL_PILES: Final = tuple(Pile.__members__.values())
"""Every pile, in number order (iterating ``Pile`` gives Klondike's 13)."""
ALL_COLUMNS: Final = (*(Pile(i) for i in range(7)), Pile.T8, Pile.T9, Pile.T10)
"""Columns 1 to 10."""
ALL_FOUNDATIONS: Final = (Pile.FC, Pile.FD, Pile.FH, Pile.FS,
                          Pile.FC2, Pile.FD2, Pile.FH2, Pile.FS2)
"""Both decks' foundations, ``deck * 4 + suit``."""
COLUMN_INDEX: Final = tuple(ALL_COLUMNS.index(p) if p in ALL_COLUMNS else -1
                            for p in range(len(ALL_PILES)))
"""Each pile's column index, or -1."""
FOUNDATION_INDEX: Final = tuple(ALL_FOUNDATIONS.index(p) if p in ALL_FOUNDATIONS else -1
                                for p in range(len(ALL_PILES)))
"""Each pile's foundation index, or -1."""
TABLEAU = ALL_COLUMNS[:7]
"""Klondike's seven columns."""
FOUNDATIONS = ALL_FOUNDATIONS[:SUIT_COUNT]
"""Klondike's four foundations (one deck)."""


class Move(NamedTuple):
    """Move ``count`` cards from ``source`` to ``dest``.

    A draw is stock to waste and a recycle is waste to stock; their count is
    the number of cards turned. Where the stock deals a card onto every column
    (Easthaven), a deal is stock to column 1, its count the cards dealt.
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

    @property
    def is_deal(self) -> bool:
        """A deal of one card onto every column (Easthaven's stock)."""
        return self.source == Pile.STOCK and self.dest != Pile.WASTE
