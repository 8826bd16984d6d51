"""What the player asks the next game to deal, as the new-deal and daily screens
answer it: ``NewDealChoice``, which becomes ``bonanza.play``'s ``StartRequest``.

The new-deal screen's deal list (``KINDS``) offers any deal, a winnable deal of
each grade, today's daily deal and the same deal again (:func:`kind_choice`);
its deal box takes a deal (number, code or listing) or a share code: a web
link's ``?share=`` ID, or the bare ID (:func:`read_deal_box`).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError
from bonanza.core.rules import Rules
from bonanza.play.chosen_deals import KLONDIKE_ONLY, TODAY
from bonanza.play.daily import DAILY_DRAWS, daily_rules
from bonanza.play.games import SHARE_ID_BYTES, SHARE_PARAMETER, StartRequest, share_id_in
from bonanza.session.messages import sentence
from bonanza.solver.grading import Grade

QUOTE_LIMIT: Final = 16
"""Quoted input longer than this is shortened in an error message."""
SHARE_ID_LENGTH: Final = 4 * SHARE_ID_BYTES // 3
"""Characters of a share ID (``secrets.token_urlsafe``: 4 for every 3 bytes)."""
SHARE_ID: Final = re.compile(rf"[A-Za-z0-9_-]{{{SHARE_ID_LENGTH}}}")
"""A bare share ID, as this program makes them."""
ANY: Final = "any"
DAILY: Final = "daily"
REPLAY: Final = "replay"
KINDS: Final = (
    ("any deal", ANY),
    *((f"winnable only, {grade}", grade.value) for grade in Grade),
    ("today's daily deal", DAILY),
    ("the same deal again", REPLAY),
)
"""The deal list's entries: the words shown, and the value (a grade's for a winnable deal)."""


@dataclasses.dataclass(frozen=True, slots=True)
class NewDealChoice:
    """What the player chose: the rules, and at most one way to choose the deal
    (none: a random deal). ``deal_text`` a typed deal, ``share`` a share ID,
    ``replay`` the deal of the player's last terminal game again, ``grade`` a
    winnable deal of that grade, ``daily`` the daily deal of a day (``today`` or
    ``YYYY-MM-DD``; the draw of ``rules``)."""

    rules: Rules
    deal_text: str | None = None
    share: str | None = None
    replay: bool = False
    grade: Grade | None = None
    daily: str | None = None

    def request(self, last_game: str | None = None) -> StartRequest:
        """The request to ``bonanza.play``; ``last_game`` is the ID of the game a
        replay deals again (``Invalid`` when more than one way is given)."""
        return StartRequest(
            self.rules,
            deal_text=self.deal_text,
            share=self.share,
            replay=last_game if self.replay else None,
            grade=self.grade,
            daily=self.daily,
        )


def _shorten(match: re.Match[str]) -> str:
    return f"'{match[1][: QUOTE_LIMIT - 4]}…'"


def deal_problem(text: str, decks: int = 1) -> str | None:
    """Why ``text`` is not a deal of ``decks`` decks, as one sentence; ``None``
    when it is one (or blank)."""
    if not text.strip():
        return None
    try:
        Deal.parse(text, decks)
    except BonanzaError as error:
        message = re.sub(rf"'([^']{{{QUOTE_LIMIT + 1},}})'", _shorten, str(error))
        message = " ".join(message.split())
        return message[:1].upper() + message[1:].rstrip(".") + "."
    return None


def is_share(text: str) -> bool:
    """Whether the deal box holds a share code: a link with ``?share=``, or a
    bare ID that is no deal."""
    text = text.strip()
    if f"{SHARE_PARAMETER}=" in text:
        return True
    return SHARE_ID.fullmatch(text) is not None and deal_problem(text) is not None


def read_deal_box(text: str, rules: Rules) -> NewDealChoice | str:
    """The choice the deal box makes under ``rules`` (a typed deal or a share),
    or why it makes none, as a sentence. Blank text is a random deal."""
    text = text.strip()
    if is_share(text):
        share = share_id_in(text)
        return NewDealChoice(rules, share=share) if share else "That share link names no deal."
    problem = deal_problem(text, rules.decks)
    if problem is not None:
        return problem
    return NewDealChoice(rules, text or None)


def kind_choice(kind: str, rules: Rules) -> NewDealChoice | str:
    """The choice a deal list entry (``KINDS``; not ``ANY``) makes under ``rules``,
    or why it makes none, as a sentence."""
    if kind == REPLAY:
        return NewDealChoice(rules, replay=True)
    if not rules.is_klondike:
        return f"{KLONDIKE_ONLY.format(title=rules.title)}."
    if kind == DAILY:
        try:
            return NewDealChoice(daily_rules(rules.draw), daily=TODAY)
        except ValueError as error:
            return f"{sentence(str(error))}."
    return NewDealChoice(rules, grade=Grade(kind))


def kind_rules(kind: str, rules: Rules) -> str:
    """The summary line's rules for a deal list entry: the daily deal's own, the
    last game's for a replay, else ``rules``."""
    if kind == REPLAY:
        return "those of the deal played again"
    if kind == DAILY and rules.is_klondike and rules.draw in DAILY_DRAWS:
        return f"{daily_rules(rules.draw)} (the daily deal's)"
    return str(rules)
