"""A player's ledger: the cumulative Vegas bankroll a game plays on, over the stored games.

One rule for every front end: a game of cumulative Vegas carries on the money of
the player's earlier finished games of the same rule set and of the same kind
(random deals apart from chosen ones), leaving out assisted games, as the
statistics count them (``bonanza.session.stats``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bonanza.session import GameRecord, bankroll


def bankroll_before(earlier: Iterable[GameRecord], game: GameRecord) -> int:
    """The money a game of cumulative Vegas starts from."""
    same = [
        other
        for other in earlier
        if other.rules_key == game.rules_key
        and other.id != game.id
        and other.origin.is_chosen == game.origin.is_chosen
        and not other.assisted
    ]
    return bankroll(same)
