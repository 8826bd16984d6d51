"""A session as JSON and back: what ``Session.to_json`` writes and ``from_json`` reads.

A save holds the game (``Game.to_json``) and the session's own state: status,
origin, clock, undo floor, timed penalty, the cards seen, the assisted flag,
safe auto-play and the moves taken back. Older saves lack the later fields and
load with their defaults.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from bonanza.core.cards import DECK_SIZE
from bonanza.core.choices import enum_member
from bonanza.core.errors import SaveError
from bonanza.core.rules import Scoring
from bonanza.session import twins
from bonanza.session.clock import TIMED_IDLE_CAP, PlayClock
from bonanza.session.safe_home import SafeHome
from bonanza.session.status import Origin, Status

if TYPE_CHECKING:
    from bonanza.session.session import Session

SESSION_FORMAT: Final = "bonanza-session"
SESSION_VERSION: Final = 1


def session_data(session: Session, *, compact: bool = False) -> dict[str, Any]:
    """``session`` as JSON-ready data (``compact``: ``Game.to_json``'s, for a store)."""
    session.game.elapsed = session.clock.elapsed
    charged, ticks = session.timed_state
    return {
        "format": SESSION_FORMAT,
        "version": SESSION_VERSION,
        "game": session.game.to_json(compact=compact),
        "status": str(session.status),
        "origin": str(session.origin),
        "typed": session.typed,
        "created_at": session.created_at,
        "finished_at": session.finished_at,
        "clock": session.clock.to_json(),
        "touched": session.touched,
        "undo_floor": session.undo_floor,
        "timed": [charged, ticks],
        "seen": sorted(map(int, session.seen)),
        "assisted": session.assisted,
        "safe_home": session.safe.to_json(),
        "taken_back": session.taken_back,
    }


def origin_of(data: dict[str, Any]) -> Origin:
    """The saved origin (older saves: random)."""
    return enum_member(Origin, data.get("origin", "random"), "origin")


def seen_of(data: dict[str, Any], cards: int) -> set[int]:
    """The cards the save says were seen."""
    return twins.read_seen(data.get("seen", []), cards)


def restore(session: Session, data: dict[str, Any], idle_cap: float) -> None:
    """Set ``session``'s own state (all but the game, origin and seen cards, which
    make it) from ``data``, a checked session save."""
    session.status = enum_member(Status, data.get("status", "playing"), "status")
    finished = data.get("finished_at")
    session.finished_at = float(finished) if finished is not None else None
    clock = data.get("clock")
    timed = session.rules.scoring is Scoring.TIMED
    session.clock = PlayClock.from_json(
        clock if isinstance(clock, dict) else {}, TIMED_IDLE_CAP if timed else idle_cap
    )
    session.touched = bool(data.get("touched", False))
    session.undo_floor = int(data.get("undo_floor", 0))
    charged, ticks = data.get("timed", [0, 0])
    session.timed_state = (int(charged), int(ticks))
    cards = session.rules.decks * DECK_SIZE
    session.assisted = data.get("assisted", False) is True  # older saves: not assisted
    session.safe = SafeHome.from_json(data.get("safe_home"), cards)  # older saves: off
    taken_back = data.get("taken_back", 0)  # older saves: none counted
    if type(taken_back) is not int or taken_back < 0:
        raise SaveError(f"its moves taken back are not a count: {taken_back!r}")
    session.taken_back = taken_back
    if not 0 <= session.undo_floor <= session.game.move_count:
        raise SaveError("its undo floor is past its moves")
