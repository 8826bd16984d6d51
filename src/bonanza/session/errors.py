"""What the session refuses, each a ``BonanzaError`` (so a ``ValueError``) naming why."""

from __future__ import annotations

from bonanza.core.errors import BonanzaError


class SessionError(BonanzaError):
    """An action the game's flow does not allow now."""


class GameOverError(SessionError):
    """The game is over: only a new game can follow."""


class UndoRefusedError(SessionError):
    """Nothing can be taken back: no move, or (in Vegas) a card seen from the stock."""


class RedoRefusedError(SessionError):
    """There is nothing to play again."""


class HistoryFullError(SessionError):
    """The game has reached its move limit."""

    @classmethod
    def at(cls, limit: int) -> HistoryFullError:
        """The refusal of a move in a game that holds ``limit`` moves."""
        return cls(f"this game has reached its limit of {limit} moves: start a new one")


class NoAutoFinishError(SessionError):
    """Auto finish is not available: some card is unseen, or the finish would stall."""
