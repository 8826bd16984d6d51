"""Errors: every ``BonanzaError`` is a ``ValueError`` whose message names the bad
input; an ``InternalError`` is a bug in Bonanza itself."""

from __future__ import annotations


class BonanzaError(ValueError):
    """Base of every error Bonanza raises for bad input."""


class CardSyntaxError(BonanzaError):
    """A card's text is not a rank and a suit, such as ``7H``."""


class RulesError(BonanzaError):
    """A rule set is out of range or its text cannot be read."""


class DealError(BonanzaError):
    """A deal number, deal code or card listing cannot be read."""


class PositionSyntaxError(BonanzaError):
    """A position's text cannot be read, or describes an impossible position."""


class MoveSyntaxError(BonanzaError):
    """A move's text is malformed."""


class IllegalMoveError(BonanzaError):
    """A well-formed move is not legal in the position."""


class HistoryError(BonanzaError):
    """There is nothing to undo or redo."""


class SaveError(BonanzaError):
    """A saved game cannot be read, or does not replay."""


class InternalError(RuntimeError):
    """A bug in Bonanza itself, not bad input (the command line asks for a report)."""
