"""The observation: one flat ``int8`` vector per position, documented in docs/rl.md.

Every cell holds a small whole number. Card cells hold a card (0-51, see
``bonanza.core.cards``), ``HIDDEN`` for a card the player cannot place, or
``NO_CARD`` past the end of a pile. The C engine (``_batch.c``) writes the
same layout; ``encode`` is the reference, built on ``PlayerView``.
"""

from __future__ import annotations

from typing import Final, Literal

import numpy as np
from gymnasium import spaces

from bonanza.core.position import Position
from bonanza.core.view import PlayerView

Visibility = Literal["player", "thoughtful"]
VISIBILITIES: Final[tuple[Visibility, ...]] = ("player", "thoughtful")

COLUMNS: Final = 7
FOUNDATIONS: Final = 4
MAX_DOWN: Final = 6
RANKS: Final = 13
COLUMN_SLOTS: Final = MAX_DOWN + RANKS
"""A column holds at most six face-down cards under a King-to-Ace run."""
STOCK_SLOTS: Final = 24

HIDDEN: Final = 52
NO_CARD: Final = 53
COUNT_CAP: Final = 100
"""Recycle counts are capped here; unlimited recycles left read as the cap."""

TABLEAU: Final = slice(0, COLUMNS * COLUMN_SLOTS)
DOWN: Final = slice(TABLEAU.stop, TABLEAU.stop + COLUMNS)
STOCK: Final = slice(DOWN.stop, DOWN.stop + STOCK_SLOTS)
WASTE: Final = slice(STOCK.stop, STOCK.stop + STOCK_SLOTS)
FOUNDATION: Final = slice(WASTE.stop, WASTE.stop + FOUNDATIONS)
STOCK_SIZE: Final = FOUNDATION.stop
WASTE_SIZE: Final = STOCK_SIZE + 1
RECYCLES: Final = WASTE_SIZE + 1
RECYCLES_LEFT: Final = RECYCLES + 1
SIZE: Final = RECYCLES_LEFT + 1


def space() -> spaces.Box:
    """The observation space: each cell between its documented bounds."""
    high = np.full(SIZE, NO_CARD, dtype=np.int8)
    high[DOWN] = MAX_DOWN
    high[FOUNDATION] = RANKS
    high[[STOCK_SIZE, WASTE_SIZE]] = STOCK_SLOTS
    high[[RECYCLES, RECYCLES_LEFT]] = COUNT_CAP
    return spaces.Box(low=np.zeros(SIZE, dtype=np.int8), high=high, dtype=np.int8)


def encode(position: Position, visibility: Visibility = "player") -> np.ndarray:
    """The observation of ``position`` (the reference for the C engine).

    ``"player"`` shows what ``PlayerView.of(position)`` knows; ``"thoughtful"``
    shows every card.
    """
    if visibility == "thoughtful":
        tableau: list[list[int | None]] = [list(column) for column in position.tableau]
        stock: list[int | None] = list(position.stock)
    else:
        view = PlayerView.of(position)
        tableau = [list(column) for column in view.tableau]
        stock = list(view.stock)
    out = np.full(SIZE, NO_CARD, dtype=np.int8)
    for index, column in enumerate(tableau):
        start = index * COLUMN_SLOTS
        out[start : start + len(column)] = [HIDDEN if card is None else card for card in column]
    out[DOWN] = position.down
    _fill(out, STOCK, [HIDDEN if card is None else card for card in reversed(stock)])
    _fill(out, WASTE, list(reversed(position.waste)))
    out[FOUNDATION] = position.foundations
    out[STOCK_SIZE] = len(position.stock)
    out[WASTE_SIZE] = len(position.waste)
    out[RECYCLES] = min(position.recycles, COUNT_CAP)
    allowed = position.rules.recycles_allowed
    left = COUNT_CAP if allowed is None else allowed - position.recycles
    out[RECYCLES_LEFT] = min(left, COUNT_CAP)
    return out


def _fill(out: np.ndarray, cells: slice, cards: list[int]) -> None:
    out[cells.start : cells.start + len(cards)] = cards
