"""The record kept of each game: one row per game, its session inside."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from bonanza.core.rules import Rules
from bonanza.session.session import Session
from bonanza.session.status import Origin, Status

RULES_KEYS_KEPT = 256
TAKEN_BACK = "taken_back"
"""The key of ``GameRecord.extra`` that counts the moves a game took back (by undo or
restart; absent: none), which fewest moves adds to the moves, on the daily board and in
the player's own records (``GameRecord.moves_played``)."""


@functools.lru_cache(maxsize=RULES_KEYS_KEPT)
def rules_key(rules: Rules) -> str:
    """A canonical text for a rule set: statistics are grouped by it (kept for the
    rule sets last asked for: every new game and every read record asks)."""
    return json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))


def rules_of_key(key: str) -> Rules:
    """The rule set a ``rules_key`` was made from."""
    return Rules.from_dict(json.loads(key))


@dataclass
class GameRecord:
    """One game of one player, as stored.

    ``state`` is ``Session.to_json()``: enough to rebuild the identical game.
    The other fields are summaries kept in columns, so statistics need not
    replay games. ``version`` counts the writes (for optimistic concurrency).
    ``client`` is the front end that plays it ("web" or "terminal"): each
    resumes and ends only its own games, and statistics count them all.
    ``assisted`` marks a game in which "still winnable?" was asked: statistics
    count it apart from the headline figures.
    """

    id: str
    player: str
    deal: str
    rules_key: str
    state: dict[str, Any]
    status: Status = Status.PLAYING
    origin: Origin = Origin.RANDOM
    created_at: float = 0.0
    started_at: float | None = None
    finished_at: float | None = None
    elapsed: float = 0.0
    moves: int = 0
    score: int = 0
    cards_home: int = 0
    archived: bool = False
    version: int = 0
    client: str = "web"
    assisted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(
        cls, game_id: str, player: str, session: Session, now: float, client: str = "web"
    ) -> GameRecord:
        record = cls(
            client=client,
            id=game_id,
            player=player,
            deal=session.game.deal.id,
            rules_key=rules_key(session.rules),
            state={},
            origin=session.origin,
            created_at=session.created_at,
        )
        record.update(session, now)
        return record

    @property
    def moves_played(self) -> int:
        """Every move the game played, those taken back by undo or restart too
        (``TAKEN_BACK``; none in a game stored before they were counted), as the daily
        board counts them (``leaderboard.MOVES_PLAYED``): what fewest moves counts, so
        that looking ahead by undo costs."""
        taken_back = self.extra.get(TAKEN_BACK, 0)
        return self.moves + (taken_back if type(taken_back) is int and taken_back > 0 else 0)

    def update(self, session: Session, now: float) -> None:
        """Bring the summaries and the state up to ``session`` at ``now``."""
        outcome = session.outcome(now)
        self.state = session.to_json(compact=True)  # the moves' texts are made on reading
        self.status = outcome.status
        self.origin = outcome.origin
        self.started_at = session.clock.started_at
        self.finished_at = session.finished_at
        self.elapsed = outcome.elapsed
        self.moves = outcome.moves
        self.score = outcome.score
        self.cards_home = outcome.cards_home
        self.assisted = session.assisted
        if session.taken_back:
            self.extra[TAKEN_BACK] = session.taken_back
