"""Errors by meaning: what went wrong with a player's request, never how a front end says so.

The web maps each kind to an HTTP status in one place (``bonanza.web.errors``);
the terminal shows the message. Every message is a sentence for the player
that names the problem and, where there is one, the way out.
"""

from __future__ import annotations


class PlayError(Exception):
    """A request about a player's games that cannot be carried out: ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class NotFound(PlayError):
    """No such game, shared deal or other thing of this player's."""

    @classmethod
    def of(cls, what: str) -> NotFound:
        return cls(f"{what} not found")


class Invalid(PlayError):
    """The request names something that is not valid: a bad deal, grade, day or rule set."""


class Conflict(PlayError):
    """Not allowed as things stand now (the game is over, a deal is not ready yet,
    another window changed the game meanwhile); it may be allowed later."""


class RateLimited(PlayError):
    """Too many requests of one kind in too short a time."""


class TooLarge(PlayError):
    """Over a size limit of the server's."""


class Unavailable(PlayError):
    """A part the request needs (the game store, the searches) is not answering."""


STORE_DOWN = "the game store is not answering: try again shortly"
"""The ``Unavailable`` message when the store fails."""

__all__ = [
    "STORE_DOWN",
    "Conflict",
    "Invalid",
    "NotFound",
    "PlayError",
    "RateLimited",
    "TooLarge",
    "Unavailable",
]
