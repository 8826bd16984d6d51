"""What the terminal game says on its message line, beyond the session's own words."""

from __future__ import annotations

from typing import Final

from bonanza.core.errors import RulesError
from bonanza.core.rules import Rules
from bonanza.play.answers import not_yet
from bonanza.play.games import share_link
from bonanza.play.own_games import unstored as unstored  # notes of the play layer's too
from bonanza.tui.status_bar import rules_label

THINKING: Final = "Thinking…"
AUTO_OFFER: Final = "Press A to finish"
AUTO_STOPPED: Final = "Auto finish stopped"
HINT_FAILED: Final = "No hint: the search failed"
NEW_DEAL_QUESTION: Final = "Start a new deal? This game will count as lost."
RESTART_QUESTION: Final = (
    "Restart this deal? All cards go back to the start. Redo can replay your moves."
)
OVER_NOTE: Final = "Press N for a new deal"
REVIEW_OFFER: Final = "Press V to review the game you lost"
REVIEWING: Final = "Reviewing the lost game…"
NO_REVIEW: Final = "No lost game to review: a review is given once a game is lost"
REVIEW_FAILED: Final = "No review: the search failed"
RESUMED: Final = "Resumed your game"
RESUMED_UNDER: Final = (
    "Resumed your game in progress under its own rules ({kept}), not {asked}: "
    "press N for a new deal under {asked}"
)
"""Said when the rules asked for (``bonanza play --draw 3``, say) are not those
of the game resumed."""
SAFE_HOME_ON: Final = "Safe auto-play on: safe cards go home by themselves (O turns it off)"
SAFE_HOME_OFF: Final = "Safe auto-play off: cards go home only when you move them"
SHARED: Final = "Share code {share} (web link {link})"
SHARE_OPENS: Final = "It opens {when} (N's deal box, or bonanza play --share)"
NO_SHARE: Final = "No share code: this game is not in the store yet"


def resumed_under(kept: Rules, asked: Rules) -> str:
    """The greeting of a game resumed under other rules than those asked for."""
    return RESUMED_UNDER.format(kept=rules_label(kept), asked=rules_label(asked))


def failed(
    error: BaseException | None, failed: str, what: str, rules: Rules, *, plural: bool = False
) -> str:
    """What to say when a search gave no answer: ``failed``, or, when it
    raised ``RulesError`` (no search plays ``rules`` yet), that ``what`` is not
    available there. Any other error is a bug, and gets ``failed`` in every game."""
    if isinstance(error, RulesError):
        return not_yet(what, rules, plural=plural)
    return failed


def shared(share: str, *, opens: bool) -> tuple[str, str]:
    """What a share code says: the code and its web link, then when it opens (now,
    for a game over; else once this game is over) and how to play it here."""
    when = "now" if opens else "once this game is over"
    return (
        SHARED.format(share=share, link=share_link(share)),
        SHARE_OPENS.format(when=when),
    )
