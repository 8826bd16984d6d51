"""Hints and the progress check, as an interface the front ends inject.

The session never imports the solver: a front end passes an ``Advisor``
(``bonanza.solver`` provides one) and runs it where blocking work belongs
(a worker thread), on a copy of the position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bonanza.core.moves import Move
from bonanza.core.position import Position


class Advisor(Protocol):
    """What a hint engine offers the game."""

    def hint(self, position: Position) -> Move | None:
        """A useful move, chosen fairly, or None when none makes progress."""
        ...

    def progress(self, position: Position) -> bool | None:
        """False when no line of moves can make progress; None when not proven."""
        ...


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint as shown: the move (or none) and its words."""

    move: Move | None
    text: str
