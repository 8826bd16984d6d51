"""What each action of a session did, for the front end to show and say."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bonanza.core.moves import Move
from bonanza.session.status import Status


class Action(StrEnum):
    NEW = "new"
    PLAY = "play"
    UNDO = "undo"
    REDO = "redo"
    RESTART = "restart"
    AUTO = "auto"
    END = "end"


@dataclass(frozen=True, slots=True)
class Event:
    """One action's result.

    ``move`` is the move played, undone or replayed; ``text`` is the
    announcement; ``revealed`` the card a move turned up (a card index, which
    is now visible); ``won`` whether this action won the game.
    """

    action: Action
    text: str
    status: Status
    move: Move | None = None
    revealed: int | None = None
    won: bool = False
