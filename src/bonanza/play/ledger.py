"""A player's ledger: statistics per rule set, computed from the stored games (never
from a client), the records a win sets, and the cumulative Vegas bankroll.

Fewest moves counts every move a won game played, those undone or restarted too
(``GameRecord.moves_played``), so that undo cannot farm it.

Headline figures come only from deals the program chose at random and played
with hidden cards; deals the player chose (typed, shared, replayed, winnable,
daily) and thoughtful games (every card shown before the first move, so a
player can solve the deal first, or leave it for free) are summed up apart, so
they cannot farm streaks, win rates or best times. Games in which "still
winnable?" was asked (assisted: it looks at the hidden cards) are in neither:
they are only counted, played and won, apart. A game of cumulative Vegas
carries on the money of the player's earlier finished games of the same rule
set and of the same kind (random deals apart from chosen ones), assisted games
left out (:func:`bankroll_before`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Final

from bonanza.core.rules import Rules, Scoring
from bonanza.core.scoring import vegas_bankroll
from bonanza.session.status import Status
from bonanza.storage.records import GameRecord, rules_of_key


def group_stats(rules: Rules, games: list[GameRecord]) -> dict[str, Any]:
    """The statistics of one rule set's finished games (oldest first)."""
    won = [g for g in games if g.status is Status.WON]
    streak = best_streak = 0
    for game in games:
        streak = streak + 1 if game.status is Status.WON else 0
        best_streak = max(best_streak, streak)
    data: dict[str, Any] = {
        "rules": rules.to_dict(),
        "label": str(rules),
        "game": rules.title,
        "draw": rules.draw,
        "played": len(games),
        "won": len(won),
        "win_rate": round(100 * len(won) / len(games), 1) if games else 0.0,
        "current_streak": streak,
        "best_streak": best_streak,
        "best_time": min((round(g.elapsed, 1) for g in won), default=None),
        "best_score": max((g.score for g in won), default=None),
        "fewest_moves": min((g.moves_played for g in won), default=None),
    }
    if rules.scoring is Scoring.VEGAS_CUMULATIVE:
        data["bankroll"] = bankroll(games)
    return data


def bankroll(games: Iterable[GameRecord]) -> int:
    """Cumulative Vegas: the money after these games."""
    total = 0
    for game in games:
        total = vegas_bankroll(total, game.score)
    return total


def _groups(games: Iterable[GameRecord]) -> list[dict[str, Any]]:
    groups: dict[str, list[GameRecord]] = {}
    for game in games:
        if game.status in (Status.WON, Status.LOST):
            groups.setdefault(game.rules_key, []).append(game)
    entries = [
        group_stats(rules_of_key(key), group) for key, group in groups.items()
    ]
    entries.sort(key=lambda e: (e["draw"], e["label"]))
    return entries


def assisted_count(games: Iterable[GameRecord]) -> dict[str, int]:
    """``{"played": n, "won": m}`` of the finished assisted games."""
    counted = [g for g in games if g.assisted and g.status in (Status.WON, Status.LOST)]
    return {"played": len(counted), "won": sum(g.status is Status.WON for g in counted)}


def statistics(games: Iterable[GameRecord]) -> dict[str, Any]:
    """``{"groups": headline groups, "chosen": chosen-deal and thoughtful groups,
    "assisted": {"played", "won"}}``, groups draw 1 first; assisted games are only
    in the last."""
    listed = list(games)
    fair = [g for g in listed if not g.assisted]
    return {
        "groups": _groups(g for g in fair if is_headline(g)),
        "chosen": _groups(g for g in fair if not is_headline(g)),
        "assisted": assisted_count(listed),
    }


# A record's name, the statistics figure it is, and whether higher is better.
RECORDS: Final = (
    ("best_time", "best_time", False),
    ("best_score", "best_score", True),
    ("fewest_moves", "fewest_moves", False),
    ("longest_streak", "best_streak", True),
)


RULES_CACHE_SIZE: Final = 256
"""Rule sets whose thoughtful flag is kept read (a player has few)."""


@lru_cache(maxsize=RULES_CACHE_SIZE)
def _thoughtful(key: str) -> bool:
    return rules_of_key(key).thoughtful


def is_headline(game: GameRecord) -> bool:
    """Whether a game counts in the headline figures: a random deal with hidden
    cards (not thoughtful), not assisted."""
    return not game.origin.is_chosen and not game.assisted and not _thoughtful(game.rules_key)


def records_set(earlier: Iterable[GameRecord], game: GameRecord) -> dict[str, Any]:
    """The headline records that ``game``, just won, sets over the player's ``earlier`` games.

    ``{"in_records": bool, "first_win": bool, "records": [{"name", "value", "previous"}]}``
    (``in_records``: whether the game counts in the headline figures), names from
    ``RECORDS``, compared with the same rule set's headline figures before it
    (``group_stats``; strictly better only). The first win of a rule set is only a
    first win: every figure is trivially a record then, so none is named. A game
    outside the headline figures (a chosen deal, an assisted game) sets none; with
    no scoring, neither does the score.
    """
    counted = is_headline(game)
    if game.status is not Status.WON or not counted:
        return {"in_records": counted, "first_win": False, "records": []}
    before = [
        g
        for g in earlier
        if g.id != game.id
        and g.rules_key == game.rules_key
        and g.status in (Status.WON, Status.LOST)
        and is_headline(g)
    ]
    rules = rules_of_key(game.rules_key)
    old = group_stats(rules, before)
    if not old["won"]:
        return {"in_records": True, "first_win": True, "records": []}
    new = group_stats(rules, [*before, game])
    found = []
    for name, figure, higher in RECORDS:
        if name == "best_score" and rules.scoring is Scoring.NONE:
            continue
        value, previous = new[figure], old[figure]
        if previous is None or (value > previous if higher else value < previous):
            found.append({"name": name, "value": value, "previous": previous})
    return {"in_records": True, "first_win": False, "records": found}


def export_game(game: GameRecord) -> dict[str, Any]:
    """A finished game as exported (finished games only: the deal is no secret then)."""
    return {
        "id": game.id,
        "deal": game.deal,
        "rules": json.loads(game.rules_key),
        "status": str(game.status),
        "origin": str(game.origin),
        "assisted": game.assisted,
        "moves": game.moves,
        "score": game.score,
        "elapsed": round(game.elapsed, 1),
        "finished_at": game.finished_at,
    }


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
