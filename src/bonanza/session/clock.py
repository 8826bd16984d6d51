"""The playing clock: it starts at the first move, idle pauses count only so
much, and it stands while the game is off screen (``pause``: the terminal game
closed; not under timed scoring, below).

Under timed scoring the clock is the score, so it cannot be paced: it runs from
the deal and every second counts (``PlayClock.from_deal``); a player who looks
at the table for ten minutes before the first move pays for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

IDLE_CAP = 60.0
"""Seconds a pause between two actions counts for, at most (a tab left open
overnight does not ruin the time)."""


TIMED_IDLE_CAP = 7 * 24 * 3600.0
"""A timed game's cap on a pause: a week, so every second of play counts (the cap
stays finite: the page is told how long the clock runs on without an action)."""


@dataclass
class PlayClock:
    """Playing time in seconds, from the first move to the end of the game.

    ``elapsed`` is the time up to ``last_active`` (the last action), or up to
    ``resumed_at`` when the game came back on screen since; the time after that
    counts up to ``idle_cap`` more. While ``paused`` the clock stands at
    ``elapsed``. Time is given by the caller (``now``): the session has no clock
    of its own, so tests and front ends agree on it.
    """

    started_at: float | None = None
    last_active: float | None = None
    elapsed: float = 0.0
    stopped: bool = False
    idle_cap: float = IDLE_CAP
    paused: bool = False
    resumed_at: float | None = None

    @classmethod
    def from_deal(cls, now: float) -> PlayClock:
        """A timed game's clock: running from the deal at ``now``, every second counted."""
        return cls(started_at=now, last_active=now, idle_cap=TIMED_IDLE_CAP)

    @property
    def running(self) -> bool:
        return self.started_at is not None and not self.stopped

    def _since(self) -> float | None:
        """When the time not yet in ``elapsed`` began; None while the clock stands."""
        if not self.running or self.paused or self.last_active is None:
            return None
        if self.resumed_at is not None:
            return max(self.last_active, self.resumed_at)
        return self.last_active

    def read(self, now: float) -> float:
        """The playing time at ``now``."""
        since = self._since()
        if since is None:
            return self.elapsed
        return self.elapsed + min(self.idle_cap, max(0.0, now - since))

    def idle_left(self, now: float) -> float:
        """How much longer the clock runs without another action."""
        since = self._since()
        if since is None:
            return 0.0
        return max(0.0, self.idle_cap - max(0.0, now - since))

    def touch(self, now: float) -> None:
        """An action at ``now``: the first one starts the clock (and any resumes it)."""
        if self.stopped:
            return
        if self.started_at is None:
            self.started_at = self.last_active = now
            return
        self.elapsed = self.read(now)
        self.last_active = now
        self.paused, self.resumed_at = False, None

    def pause(self, now: float) -> bool:
        """The game goes off screen at ``now``: the time stands until ``resume``
        (or an action). Not under timed scoring (the ``TIMED_IDLE_CAP``), where
        every second counts. Whether the clock was running and now stands."""
        if not self.running or self.paused or self.idle_cap >= TIMED_IDLE_CAP:
            return False
        self.elapsed = self.read(now)
        self.paused = True
        return True

    def resume(self, now: float) -> None:
        """The game is back on screen at ``now``: the clock runs on from there."""
        if self.paused:
            self.paused, self.resumed_at = False, now

    def stop(self, now: float) -> None:
        """The game is over: the time stands."""
        if not self.stopped:
            self.elapsed = self.read(now)
            self.stopped = True

    def to_json(self) -> dict[str, Any]:
        return {
            "started_at": self.started_at,
            "last_active": self.last_active,
            "elapsed": self.elapsed,
            "stopped": self.stopped,
            "paused": self.paused,
            "resumed_at": self.resumed_at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], idle_cap: float = IDLE_CAP) -> PlayClock:
        return cls(
            started_at=_number(data.get("started_at")),
            last_active=_number(data.get("last_active")),
            elapsed=_number(data.get("elapsed")) or 0.0,
            stopped=bool(data.get("stopped", False)),
            idle_cap=idle_cap,
            paused=data.get("paused", False) is True,  # older saves: never paused
            resumed_at=_number(data.get("resumed_at")),
        )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
