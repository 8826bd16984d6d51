"""Runs: face-up cards in a column, each one rank below and of the other colour
than the card under it."""

from __future__ import annotations

from bonanza.core.cards import RANK_OF, RED, Card


def run_start(column: list[Card], down: int) -> int:
    """Where the movable run at the top of a column starts: the deepest
    face-up card from which every card lies on the one under it."""
    at = len(column) - 1
    while (
        at > down
        and RANK_OF[column[at - 1]] == RANK_OF[column[at]] + 1
        and RED[column[at - 1]] != RED[column[at]]
    ):
        at -= 1
    return at
