"""The session layer: one game's flow, shared by the web and terminal games.

Standard library only, over ``bonanza.core``; hints come through an injected
``Advisor`` and the solver's auto finish through a ``Finisher``, so the
session never imports the solver.
"""

from bonanza.session.advisor import Advisor, Hint
from bonanza.session.clock import IDLE_CAP, PlayClock
from bonanza.session.deals import random_deal
from bonanza.session.errors import (
    GameOverError,
    HistoryFullError,
    NoAutoFinishError,
    RedoRefusedError,
    SessionError,
    UndoRefusedError,
)
from bonanza.session.events import Action, Event
from bonanza.session.finisher import Finisher
from bonanza.session.outcome import Outcome
from bonanza.session.session import MAX_MOVES, Session
from bonanza.session.status import Origin, Status

__all__ = [
    "IDLE_CAP",
    "MAX_MOVES",
    "Action",
    "Advisor",
    "Event",
    "Finisher",
    "GameOverError",
    "Hint",
    "HistoryFullError",
    "NoAutoFinishError",
    "Origin",
    "Outcome",
    "PlayClock",
    "RedoRefusedError",
    "Session",
    "SessionError",
    "Status",
    "UndoRefusedError",
    "random_deal",
]
