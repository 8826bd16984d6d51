"""A sliding-window rate limiter per key (a player token), in bounded memory."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable

WINDOW = 60.0
"""Seconds in the window: the limit is per this many seconds, as a minute."""
MAX_KEYS = 100_000
"""Keys tracked at most; beyond, the key used longest ago is forgotten."""


class RateLimiter:
    """At most ``per_minute`` allowed calls per key in any ``WINDOW`` seconds.

    Each key keeps the times of its allowed calls within the window (at most
    ``per_minute`` of them). Keys are kept in the order of their latest allowed
    call, so keys whose calls have all left the window are dropped from the
    front as time passes, and past ``max_keys`` the oldest key is forgotten:
    a client inventing keys can cost memory only up to that cap (and can make
    the limiter forget others' calls, never refuse them).
    """

    def __init__(
        self,
        per_minute: int,
        clock: Callable[[], float] = time.monotonic,
        *,
        max_keys: int = MAX_KEYS,
    ) -> None:
        if per_minute < 0 or max_keys < 1:
            raise ValueError(f"need per_minute >= 0, max_keys >= 1: not {per_minute}, {max_keys}")
        self.per_minute = per_minute
        self.clock = clock
        self.max_keys = max_keys
        self._calls: OrderedDict[str, deque[float]] = OrderedDict()

    def __len__(self) -> int:
        """How many keys are tracked now."""
        return len(self._calls)

    def _recent(self, key: str, now: float) -> deque[float] | None:
        """``key``'s allowed calls still in the window (after forgetting expired keys)."""
        start = now - WINDOW
        while self._calls:
            oldest = next(iter(self._calls.values()))
            if oldest[-1] > start:
                break
            self._calls.popitem(last=False)
        calls = self._calls.get(key)
        if calls is None:
            return None
        while calls and calls[0] <= start:
            calls.popleft()
        if not calls:  # only if the clock went back: the order above no longer holds
            del self._calls[key]
            return None
        return calls

    def allow(self, key: str) -> bool:
        """Whether ``key`` may make a call now; an allowed call is counted."""
        now = self.clock()
        calls = self._recent(key, now)
        if calls is None:
            if self.per_minute == 0:
                return False
            calls = self._calls[key] = deque()
            while len(self._calls) > self.max_keys:
                self._calls.popitem(last=False)
        elif len(calls) >= self.per_minute:
            return False
        calls.append(now)
        self._calls.move_to_end(key)
        return True

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may make a call again (0.0 if it may now)."""
        now = self.clock()
        calls = self._recent(key, now)
        if self.per_minute == 0:
            return WINDOW
        if calls is None or len(calls) < self.per_minute:
            return 0.0
        return max(0.0, calls[0] + WINDOW - now)
