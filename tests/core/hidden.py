"""Positions the player cannot tell apart: the same table with its hidden cards swapped."""

from __future__ import annotations

import random

from bonanza.core import Position


def shuffle_hidden(position: Position, chooser: random.Random) -> Position:
    """The same position as the player sees it, with its hidden cards swapped around."""
    other = position.copy()
    slots = [(i, at) for i, down in enumerate(other.down) for at in range(down)]
    hidden = [other.tableau[i][at] for i, at in slots]
    stock_hidden = other.recycles == 0
    if stock_hidden:
        hidden += other.stock
    chooser.shuffle(hidden)
    for (i, at), card in zip(slots, hidden, strict=False):
        other.tableau[i][at] = card
    if stock_hidden:
        other.stock = hidden[len(slots) :]
    return other
