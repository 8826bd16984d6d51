"""What the player of the OpenSpiel game observes, as text and as a tensor.

The tensor (``OBSERVATION_SIZE`` floats) has four named parts:

* ``cards`` (52 x 11): for each card, one-hot where it is: tableau column 1-7
  face up, stock, waste, foundation, or unseen. A card is in the stock only
  once the waste has been recycled (or with thoughtful rules); before that,
  stock and face-down cards are unseen.
* ``depth`` (52): how many cards lie on top of it in its pile (in the stock:
  how many are drawn before it); 0 for a card on a foundation or unseen.
* ``face_down`` (7): how many face-down cards each column has.
* ``counts`` (4): stock size, waste size, recycles, and the share of the
  move limit used (moves played / max_moves).

A card not yet seen has no identity in the game's state, so nothing here can
leak one.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from bonanza.core.cards import SUIT_OF
from bonanza.rl.openspiel_table import DECK, HIDDEN, Table

COLUMNS: Final = 7
STOCK_PLANE: Final = COLUMNS
WASTE_PLANE: Final = COLUMNS + 1
FOUNDATION_PLANE: Final = COLUMNS + 2
UNSEEN_PLANE: Final = COLUMNS + 3
PLANES: Final = COLUMNS + 4
COUNTS: Final = 4
PIECES: Final = (
    ("cards", (DECK, PLANES)),
    ("depth", (DECK,)),
    ("face_down", (COLUMNS,)),
    ("counts", (COUNTS,)),
)
OBSERVATION_SIZE: Final = sum(int(np.prod(shape)) for _, shape in PIECES)


class PositionObserver:
    """The current position as the player sees it (OpenSpiel's observation)."""

    def __init__(self, max_moves: int) -> None:
        self.max_moves = max_moves
        self.tensor: npt.NDArray[np.float32] = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, shape in PIECES:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: Any, player: int) -> None:
        """Write ``state``'s observation for ``player`` into ``tensor``."""
        table: Table = state.table
        position = table.position
        self.tensor.fill(0)
        cards, depth = self.dict["cards"], self.dict["depth"]
        cards[:, UNSEEN_PLANE] = 1
        piles = [*((column, plane) for plane, column in enumerate(position.tableau)),
                 (position.stock, STOCK_PLANE), (position.waste, WASTE_PLANE)]
        for pile, plane in piles:
            for above, card in enumerate(reversed(pile)):
                if card < HIDDEN:
                    cards[card, UNSEEN_PLANE] = 0
                    cards[card, plane] = 1
                    depth[card] = above
        for home in range(DECK):
            if position.foundations[SUIT_OF[home]] > home % 13:
                cards[home, UNSEEN_PLANE] = 0
                cards[home, FOUNDATION_PLANE] = 1
        self.dict["face_down"][:] = position.down
        self.dict["counts"][:] = (
            len(position.stock), len(position.waste), position.recycles,
            table.moves / self.max_moves,
        )

    def string_from(self, state: Any, player: int) -> str:
        """The position's text, ``?`` for each card not yet seen."""
        table: Table = state.table
        return table.text()


class HistoryObserver:
    """Everything the player has seen, in order (OpenSpiel's information
    state): each card as it was revealed and each move played. Text only."""

    tensor = None
    dict: dict[str, npt.NDArray[np.float32]] = {}  # noqa: RUF012  # read-only, empty

    def set_from(self, state: Any, player: int) -> None:
        """No tensor: nothing to write."""

    def string_from(self, state: Any, player: int) -> str:
        table: Table = state.table
        return " ".join(table.log)
