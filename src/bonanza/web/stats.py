"""Statistics per rule set, computed by the server from the stored games."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bonanza.core import Rules, Scoring
from bonanza.core.scoring import vegas_bankroll
from bonanza.web.records import GameRecord, Status


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
        "draw": rules.draw,
        "played": len(games),
        "won": len(won),
        "win_rate": round(100 * len(won) / len(games), 1) if games else 0.0,
        "current_streak": streak,
        "best_streak": best_streak,
        "best_time": min((round(g.elapsed, 1) for g in won), default=None),
        "best_score": max((g.score for g in games), default=None),
        "fewest_moves": min((g.moves for g in won), default=None),
    }
    if rules.scoring is Scoring.VEGAS_CUMULATIVE:
        bankroll = 0
        for game in games:
            bankroll = vegas_bankroll(bankroll, game.score)
        data["bankroll"] = bankroll
    return data


def statistics(games: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """One entry per rule set played, draw 1 first."""
    groups: dict[str, list[GameRecord]] = {}
    for game in games:
        groups.setdefault(game.rules_key, []).append(game)
    entries = [
        group_stats(Rules.from_dict(json.loads(key)), group) for key, group in groups.items()
    ]
    entries.sort(key=lambda e: (e["draw"], e["label"]))
    return entries


def export_game(game: GameRecord) -> dict[str, Any]:
    """A finished game as exported: no hidden information beyond what its deal ID gives."""
    return {
        "id": game.id,
        "deal": game.deal,
        "rules": json.loads(game.rules_key),
        "status": str(game.status),
        "moves": game.moves,
        "score": game.score,
        "elapsed": round(game.elapsed, 1),
        "finished_at": game.finished_at,
    }
