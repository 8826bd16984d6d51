"""The observation: one flat ``int8`` vector per position, documented in docs/rl.md.

Every cell holds a small whole number. Card cells hold a card's face (0-51,
see ``bonanza.core.cards``; a second-deck card shows as its first-deck twin),
``HIDDEN`` for a card the player cannot place, or ``NO_CARD`` past the end of
a pile. The layout depends on the table only (``layout(rules)``); the
module's constants are Klondike's. The C engine (``_batch.c``) writes the
same layout; ``encode`` is the reference, built on ``PlayerView``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

import numpy as np
from gymnasium import spaces

from bonanza.core.cards import DECK_SIZE, RANK_COUNT
from bonanza.core.position import Position
from bonanza.core.rules import Rules, StockMode
from bonanza.core.view import PlayerView

Visibility = Literal["player", "thoughtful"]
VISIBILITIES: Final[tuple[Visibility, ...]] = ("player", "thoughtful")

RANKS: Final = RANK_COUNT
HIDDEN: Final = 52
NO_CARD: Final = 53
COUNT_CAP: Final = 100
"""Recycle counts are capped here; unlimited recycles left read as the cap."""


class Layout:
    """The cells of one table's observation: slices for the piles, indices for
    the counts (``None`` for the waste's fields on a table without one)."""

    __slots__ = (
        "column_slots",
        "columns",
        "down",
        "foundation",
        "foundations",
        "max_down",
        "recycles",
        "recycles_left",
        "size",
        "stock",
        "stock_size",
        "stock_slots",
        "tableau",
        "waste",
        "waste_size",
    )

    def __init__(self, rules: Rules) -> None:
        self.columns = rules.columns
        self.foundations = rules.foundations
        self.max_down = max(rules.column_sizes) - 1
        has_waste = rules.stock_mode is StockMode.WASTE
        # Without deals onto the columns, a column's face-up cards are one run.
        self.column_slots = self.max_down + RANKS if has_waste else rules.card_count
        self.stock_slots = rules.card_count - rules.dealt_cards
        self.tableau = slice(0, self.columns * self.column_slots)
        self.down = slice(self.tableau.stop, self.tableau.stop + self.columns)
        self.stock = slice(self.down.stop, self.down.stop + self.stock_slots)
        waste_slots = self.stock_slots if has_waste else 0
        self.waste: slice | None = (
            slice(self.stock.stop, self.stock.stop + waste_slots) if has_waste else None
        )
        start = self.stock.stop + waste_slots
        self.foundation = slice(start, start + self.foundations)
        self.stock_size = self.foundation.stop
        self.waste_size: int | None = self.stock_size + 1 if has_waste else None
        self.recycles: int | None = self.stock_size + 2 if has_waste else None
        self.recycles_left: int | None = self.stock_size + 3 if has_waste else None
        self.size = self.stock_size + (4 if has_waste else 1)

    def space(self) -> spaces.Box:
        """The observation space: each cell between its documented bounds."""
        high = np.full(self.size, NO_CARD, dtype=np.int8)
        high[self.down] = self.max_down
        high[self.foundation] = RANKS
        high[self.stock_size] = self.stock_slots
        if self.waste_size is not None:
            high[self.waste_size] = self.stock_slots
            high[self.waste_size + 1 : self.size] = COUNT_CAP  # the recycle counts
        return spaces.Box(low=np.zeros(self.size, dtype=np.int8), high=high, dtype=np.int8)

    def encode(self, position: Position, visibility: Visibility = "player") -> np.ndarray:
        """The observation of ``position`` (the reference for the C engine)."""
        if visibility not in VISIBILITIES:
            raise ValueError(f"visibility must be one of {VISIBILITIES}, not {visibility!r}")
        if visibility == "thoughtful":
            tableau: list[list[int | None]] = [list(column) for column in position.tableau]
            stock: list[int | None] = list(position.stock)
        else:
            view = PlayerView.of(position)
            tableau = [list(column) for column in view.tableau]
            stock = list(view.stock)
        out = np.full(self.size, NO_CARD, dtype=np.int8)
        for index, column in enumerate(tableau):
            start = index * self.column_slots
            out[start : start + len(column)] = _faces(column)
        out[self.down] = position.down
        _fill(out, self.stock, _faces(reversed(stock)))
        out[self.foundation] = position.foundations
        out[self.stock_size] = len(position.stock)
        if self.waste is not None:
            _fill(out, self.waste, _faces(reversed(position.waste)))
            out[self.waste_size] = len(position.waste)
            out[self.recycles] = min(position.recycles, COUNT_CAP)
            allowed = position.rules.recycles_allowed
            left = COUNT_CAP if allowed is None else allowed - position.recycles
            out[self.recycles_left] = min(left, COUNT_CAP)
        return out


_LAYOUTS: Final[dict[tuple[object, ...], Layout]] = {}


def layout(rules: Rules | None = None) -> Layout:
    """The layout of ``rules``' table (Klondike's when ``None``): it depends on
    the decks, columns, deal, stock and waste only."""
    rules = Rules() if rules is None else rules
    key = (rules.decks, rules.columns, rules.deal_shape, rules.stock_mode, rules.waste_start)
    found = _LAYOUTS.get(key)
    if found is None:
        found = _LAYOUTS[key] = Layout(rules)
    return found


KLONDIKE: Final = layout()
COLUMNS: Final = KLONDIKE.columns
FOUNDATIONS: Final = KLONDIKE.foundations
MAX_DOWN: Final = KLONDIKE.max_down
COLUMN_SLOTS: Final = KLONDIKE.column_slots
"""A column holds at most six face-down cards under a King-to-Ace run."""
STOCK_SLOTS: Final = KLONDIKE.stock_slots

TABLEAU: Final = KLONDIKE.tableau
DOWN: Final = KLONDIKE.down
STOCK: Final = KLONDIKE.stock
WASTE: Final = slice(STOCK.stop, STOCK.stop + STOCK_SLOTS)
FOUNDATION: Final = KLONDIKE.foundation
STOCK_SIZE: Final = KLONDIKE.stock_size
WASTE_SIZE: Final = STOCK_SIZE + 1
RECYCLES: Final = WASTE_SIZE + 1
RECYCLES_LEFT: Final = RECYCLES + 1
SIZE: Final = KLONDIKE.size


def space(rules: Rules | None = None) -> spaces.Box:
    """The observation space of ``rules``' table (Klondike's when ``None``)."""
    return layout(rules).space()


def encode(position: Position, visibility: Visibility = "player") -> np.ndarray:
    """The observation of ``position`` (the reference for the C engine).

    ``"player"`` shows what ``PlayerView.of(position)`` knows; ``"thoughtful"``
    shows every card; anything else is a ``ValueError``.
    """
    return layout(position.rules).encode(position, visibility)


def _faces(cards: Iterable[int | None]) -> list[int]:
    """Card cells: each card's face (twins alike), ``HIDDEN`` for ``None``."""
    return [HIDDEN if card is None else card % DECK_SIZE for card in cards]


def _fill(out: np.ndarray, cells: slice, cards: list[int]) -> None:
    out[cells.start : cells.start + len(cards)] = cards
