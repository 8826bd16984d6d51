"""The one question that looks at the hidden cards, "still winnable?", and its words.

The player opts in (the front ends ask first), the session marks the game
assisted (``Session.peek``), and the answer is only a word and a sentence:
never a card, never a move. The front ends inject the solver's verdict (a
``Judge``) and run it off the UI thread, as they do hints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bonanza.core.position import Position

LABEL: Final = "Still winnable? (peeks at hidden cards)"
"""How the question is offered, wherever it is."""
EXPLANATION: Final = (
    "Asks the solver, which sees the face-down cards, whether this deal can still be won; "
    "the game then counts as assisted."
)
CONFIRM: Final = "This looks at the hidden cards; the game will count as assisted."
ASSISTED: Final = "Assisted"
"""The mark of a game in which the question was asked."""
ANSWERS: Final = {
    "winnable": "Still winnable: with every card known, some line of moves wins from here.",
    "lost": "Lost: even with every card known, no line of moves wins from here.",
    "unknown": "Unknown: the solver could not decide in its time.",
}
"""The sentence for each verdict: none names a card or a move."""
FAILED: Final = "No answer: the search failed."

Judge = Callable[[Position], str]
"""The solver's verdict on the true position: "winnable", "lost" or "unknown"."""


@dataclass(frozen=True, slots=True)
class WinnableAnswer:
    """The verdict word and its sentence."""

    winnable: str
    text: str

    @classmethod
    def of(cls, verdict: str) -> WinnableAnswer:
        """The answer for a judge's ``verdict`` (anything else counts as unknown)."""
        word = verdict if verdict in ANSWERS else "unknown"
        return cls(word, ANSWERS[word])
