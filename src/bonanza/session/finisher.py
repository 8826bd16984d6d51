"""Auto finish by a solver, as an interface the front ends inject.

The session never imports the solver. A front end runs a ``Finisher`` on the
player's board (``Session.board_view()``) where blocking work belongs (a
worker thread) and hands its line to the session (``Session.offer_finish``),
which plays it one move at a time. Given only the view, the finisher cannot
use a card the player has not seen. Without one, the session's own greedy
finish (``autofinish.finish_plan``) is the auto finish.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bonanza.core.moves import Move
from bonanza.core.view import PlayerView


class Finisher(Protocol):
    """What finishes a game the player knows whole."""

    def finish(self, view: PlayerView) -> Sequence[Move] | None:
        """A proven winning line from the position ``view`` is, when it places
        every card (``view.is_known()``); None when none is proven."""
        ...
