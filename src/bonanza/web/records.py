"""The records the storage layer keeps: one row per game."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """Where a game stands. Only won and lost games count in the statistics."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"  # left before any move: not counted


@dataclass
class GameRecord:
    """One game of one player, as stored.

    ``state`` is ``Game.to_json()``: deal, rules, moves and redo stack, enough to
    rebuild the identical game. The other fields are derived summaries kept in
    columns so statistics need not replay games.
    """

    id: str
    player: str
    deal: str
    rules_key: str
    state: dict[str, Any]
    status: Status = Status.PLAYING
    created_at: float = 0.0
    started_at: float | None = None
    finished_at: float | None = None
    elapsed: float = 0.0
    moves: int = 0
    score: int = 0
    cards_home: int = 0
    archived: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
