"""Where a game stands, and where its deal came from."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """A game's status. A game leaves ``PLAYING`` once and never comes back."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"  # ended before any move (and no Vegas ante): not counted

    @property
    def is_over(self) -> bool:
        return self is not Status.PLAYING


class Origin(StrEnum):
    """Where a game's deal came from.

    Only deals the program chose at random count in the headline statistics;
    a deal the player picked (typed, opened from a shared link, or seen before)
    goes to the separate "chosen deals" group, so it cannot farm streaks or bests.
    A deal from the winnable stock is chosen too: the player picked "winnable
    only" and its difficulty, and always picking easy would otherwise farm them.
    """

    RANDOM = "random"
    TYPED = "typed"
    SHARED = "shared"
    REPLAY = "replay"
    WINNABLE = "winnable"

    @property
    def is_chosen(self) -> bool:
        return self is not Origin.RANDOM
