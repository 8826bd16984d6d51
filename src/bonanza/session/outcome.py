"""What a game adds to the statistics once it is over."""

from __future__ import annotations

from dataclasses import dataclass

from bonanza.session.status import Origin, Status


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a game adds to the statistics once it is over."""

    status: Status
    origin: Origin
    elapsed: float
    moves: int
    score: int
    cards_home: int

    @property
    def counts(self) -> bool:
        """Whether the game counts as played (won or lost)."""
        return self.status in (Status.WON, Status.LOST)
