"""What a game's searches answer, as typed values: a hint, the progress check,
"still winnable?" and the review of a lost game.

The front ends show them (the web as JSON, the terminal as words). A search
that cannot play the rules in play yet (it raises ``RulesError``: no search
plays that table) answers so, in the words of :func:`not_yet`, written once
here. Plain frozen dataclasses, so a worker process can send them back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bonanza.core.moves import Move
from bonanza.core.rules import Rules

NOT_YET: Final = "{what} {verb} not available for {game} yet"
"""Said when a search refuses the rules in play: no search plays that table yet."""

HINTS: Final = "Hints"
PROGRESS_CHECK: Final = "The progress check"
STILL_WINNABLE: Final = "“Still winnable?”"
REVIEW: Final = "The review"
AUTO_FINISH: Final = "Auto finish"
"""What each search is called in the words of :func:`not_yet`."""

UNKNOWN: Final = "unknown"
"""The verdict of "still winnable?" when none was reached."""
UNAVAILABLE: Final = "unavailable"
"""The finding of a review that could not be made."""


def not_yet(what: str, rules: Rules, plural: bool = False) -> str:
    """The notice for a search that refused the rules in play, such as
    ``Hints are not available for Westcliff yet`` (``plural``: ``are``)."""
    return NOT_YET.format(what=what, verb="are" if plural else "is", game=rules.title)


def not_yet_sentence(what: str, rules: Rules, plural: bool = False) -> str:
    """:func:`not_yet` as a sentence, as answers give it."""
    return f"{not_yet(what, rules, plural)}."


@dataclass(frozen=True, slots=True)
class HintReply:
    """A fair hint: the move (None when no move makes progress) and its words;
    ``unavailable`` when no hint is given for these rules yet."""

    move: Move | None
    text: str
    unavailable: bool = False

    @classmethod
    def not_yet(cls, rules: Rules) -> HintReply:
        return cls(None, not_yet_sentence(HINTS, rules, plural=True), unavailable=True)


@dataclass(frozen=True, slots=True)
class ProgressReply:
    """Whether progress is still possible (None: not proven either way);
    ``unavailable``, the words that say the check does not look at these rules yet."""

    progress: bool | None
    unavailable: str | None = None

    @classmethod
    def not_yet(cls, rules: Rules) -> ProgressReply:
        return cls(None, not_yet_sentence(PROGRESS_CHECK, rules))


@dataclass(frozen=True, slots=True)
class WinnableReply:
    """The answer to "still winnable?": the verdict word and its sentence, never a
    card or a move; ``unavailable`` when the question is not answered for these rules yet."""

    winnable: str
    text: str
    unavailable: bool = False

    @classmethod
    def not_yet(cls, rules: Rules) -> WinnableReply:
        return cls(UNKNOWN, not_yet_sentence(STILL_WINNABLE, rules), unavailable=True)


@dataclass(frozen=True, slots=True)
class CriticalMove:
    """The move that lost a game: its number in the game, the move and its words."""

    number: int
    move: Move
    words: str


@dataclass(frozen=True, slots=True)
class LineStep:
    """One move of a winning line: its notation and its words."""

    text: str
    words: str


@dataclass(frozen=True, slots=True)
class ReviewReply:
    """Where a lost game was lost (``finding`` and its words), the move that lost
    it, and a winning line from after ``after_moves`` of the game's moves."""

    finding: str
    text: str
    critical: CriticalMove | None
    after_moves: int | None
    line: tuple[LineStep, ...]

    @classmethod
    def not_yet(cls, rules: Rules) -> ReviewReply:
        return cls(UNAVAILABLE, not_yet_sentence(REVIEW, rules), None, None, ())


__all__ = [
    "AUTO_FINISH",
    "HINTS",
    "NOT_YET",
    "PROGRESS_CHECK",
    "REVIEW",
    "STILL_WINNABLE",
    "CriticalMove",
    "HintReply",
    "LineStep",
    "ProgressReply",
    "ReviewReply",
    "WinnableReply",
    "not_yet",
    "not_yet_sentence",
]
