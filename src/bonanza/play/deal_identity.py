"""One deal, one identity, however the player typed it.

A game's record names its deal by ``Deal.id``: the deal number when the deal came
from one, else its code. A deal typed as its code (or as its cards) carries no
number, so the same deal could be stored under two IDs. The play layer gives a
typed deal the number it is known by here (:func:`known_deal`: a number of the
player's own games, or of today's daily deals), and asks whether the player had a
deal under either of its IDs (:func:`has_played`), so that a deal first typed as
its code and then dealt by its number (a daily deal, say) is a replay, as it is
when it was typed by number: a replay never enters the daily leaderboard.
"""

from __future__ import annotations

from collections.abc import Iterator

from bonanza.core import Deal, Rules
from bonanza.core.cards import DECK_SIZE
from bonanza.core.deal import last_face, shuffle
from bonanza.play.daily import DAILY_DRAWS, daily_rules, day_text, utc_day
from bonanza.storage import Storage
from bonanza.storage.records import rules_key


def deal_keys(deal: Deal) -> tuple[str, ...]:
    """The IDs a stored game of ``deal`` may carry: its ID, and its code when the ID
    is its number (a game of it typed as its code carries the code)."""
    return (deal.id,) if deal.number is None else (deal.id, deal.code)


def has_played(storage: Storage, player: str, deal: Deal, rules: Rules) -> bool:
    """Whether ``player`` had a game of ``deal`` on a table laid out as ``rules``'s,
    whichever way it was typed (a deal without a number is first given the number
    of the player's games it is known by)."""
    return not unplayed_keys(storage, player, deal, rules)


def unplayed_keys(storage: Storage, player: str, deal: Deal, rules: Rules) -> tuple[str, ...]:
    """The IDs a game of ``deal`` may carry (:func:`deal_keys`) if ``player`` never had
    one on a table laid out as ``rules``'s, else none: what a first game of the deal asks
    the store to check again as it stores it (``NewGame.first_of``)."""
    known = deal if deal.number is not None else known_deal(storage, player, deal)
    keys = deal_keys(known)
    return () if any(storage.has_played_deal(player, key, rules) for key in keys) else keys


def known_deal(storage: Storage, player: str, deal: Deal, now: float | None = None) -> Deal:
    """``deal`` with the number it is known by: that of one of the player's games in the
    store (any, archived ones too) or, given ``now``, of today's daily deals; else as it
    is. (One read of the games' distinct deals, served by their ``(player, deal)`` index.)"""
    if deal.number is not None:
        return deal
    face = int(deal.cards[-1]) % DECK_SIZE
    for number in dict.fromkeys(_numbers(storage, player, now)):  # in order, once each
        if last_face(number, deal.decks) == face and shuffle(number, deal.decks) == deal.cards:
            return Deal.from_number(number, deal.decks)
    return deal


def _numbers(storage: Storage, player: str, now: float | None) -> Iterator[int]:
    """The deal numbers the play layer knows of for ``player``: today's daily deals',
    then those of the player's games (any, archived ones too)."""
    if now is not None:
        day = day_text(utc_day(now))
        for draw in DAILY_DRAWS:
            daily = storage.daily_deal(day, rules_key(daily_rules(draw)))
            if daily is not None and daily.deal.isdigit():
                yield int(daily.deal)
    for deal in storage.played_deals(player):
        if deal.isdigit() and deal.isascii():
            yield int(deal)
