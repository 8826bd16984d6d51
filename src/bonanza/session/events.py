"""What each action of a session did, for the front end to show and say."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bonanza.core.moves import Move
from bonanza.session.messages import sent_home
from bonanza.session.status import Status


class Action(StrEnum):
    NEW = "new"
    PLAY = "play"
    UNDO = "undo"
    REDO = "redo"
    RESTART = "restart"
    AUTO = "auto"
    HOME = "home"
    """A safe card sent home automatically after the player's move."""
    END = "end"


@dataclass(frozen=True, slots=True)
class Event:
    """One action's result.

    ``move`` is the move played, undone or replayed; ``text`` is the
    announcement; ``revealed`` the card a move turned up (a card index, which
    is now visible); ``won`` whether this action won the game. ``then`` holds
    the automatic moves that followed it (safe cards sent home,
    ``Action.HOME``), each its own event, in order.
    """

    action: Action
    text: str
    status: Status
    move: Move | None = None
    revealed: int | None = None
    won: bool = False
    then: tuple[Event, ...] = ()

    @property
    def final(self) -> Event:
        """The last event of this action and its automatic moves."""
        return self.then[-1] if self.then else self

    @property
    def summary(self) -> str:
        """What the action says with its automatic moves: its own words, how
        many cards went home after it, and the last one's end (a win, say)."""
        if not self.then:
            return self.text
        text = f"{self.text}. {sent_home(len(self.then))}"
        ending = self.then[-1].text.partition(". ")[2]
        return f"{text}. {ending}" if ending else text
