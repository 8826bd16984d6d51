"""Games left in play: a player who never comes back leaves one behind.

A host may end them after a while (``bonanza db prune --end-idle``), as
leaving a game ends it: lost once it counts, abandoned before. The game ends
at its last action, so its playing time and finish are what they were when
the player left, not when the host tidied up.
"""

from __future__ import annotations

import dataclasses

from bonanza.session.session import Session
from bonanza.storage.records import GameRecord


def last_action(record: GameRecord, session: Session) -> float:
    """When the player last acted in the game: its last move or other action,
    else when the game was created."""
    active = session.clock.last_active
    return active if active is not None else record.created_at


def ended_if_idle(record: GameRecord, before: float) -> GameRecord | None:
    """The game's record, ended at its last action, if it is in play and the
    player has not acted since before ``before`` (a Unix time); else None.

    The record returned is one version on, ready for ``Storage.update_game``
    (which refuses it if the player acted meanwhile). ``SaveError`` if the
    stored state cannot be read.
    """
    session = Session.from_json(record.state)
    if session.is_over:
        return None
    at = last_action(record, session)
    if at >= before:
        return None
    session.end(at)
    ended = dataclasses.replace(record, version=record.version + 1)
    ended.update(session, at)
    return ended
