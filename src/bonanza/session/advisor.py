"""Hints and the progress check, as an interface the front ends inject.

The session never imports the solver: a front end passes an ``Advisor``
(``bonanza.solver`` provides one) and runs it where blocking work belongs
(a worker thread). A hint is asked of the player's view (``Session.view()``),
never of the position: no code path can hand the hint engine a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.core.view import PlayerView
from bonanza.session import messages


class HintAnswer(Protocol):
    """What a hint engine answers: the move (or none) and its words.

    A ``Hint`` is one; so is the solver's own answer, which the session layer
    may not import (``bonanza.solver`` depends on ``bonanza.core`` only).
    """

    @property
    def move(self) -> Move | None: ...

    @property
    def text(self) -> str: ...


class Advisor(Protocol):
    """What a hint engine offers the game.

    The engine gets a ``PlayerView``, never the true position, so no code path
    can hand it hidden cards: its hint is fair by construction. The progress
    check is a proof about the position, not advice, so it takes the position
    (a copy); its answer is only ever "no line makes progress", which names no card.
    """

    def hint(self, view: PlayerView) -> HintAnswer:
        """A useful move for what the player has seen, with its words; no move
        (``move`` None) only when none makes progress."""
        ...

    def progress(self, position: Position) -> bool | None:
        """False when no line of moves can make progress; None when not proven."""
        ...


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint as shown: the move (or none) and its words."""

    move: Move | None
    text: str

    @classmethod
    def of(cls, advice: HintAnswer) -> Hint:
        """``advice`` as the game shows it: the engine's words, and the game's
        shared words (``messages.NO_HINT``) when it gives none for no move.

        The solver's words for no move already are the game's own where they
        mean the same (``NO_MOVES_LEFT``, ``STUCK``), and say more where they
        do not ("every card is known, and no line wins"), so they are kept.
        """
        if advice.move is None:
            return cls(None, advice.text or messages.NO_HINT)
        return cls(advice.move, advice.text)


def ask(advisor: Advisor, view: PlayerView) -> Hint:
    """The hint for ``view``, in the game's words (run it off the UI thread)."""
    return Hint.of(advisor.hint(view))
