"""The rate limiter: a sliding window per key, on an injected clock, in bounded memory."""

from __future__ import annotations

import pytest

from bonanza.web.rate import WINDOW, RateLimiter


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_allows_the_limit_then_refuses_until_the_first_call_leaves_the_window() -> None:
    clock = Clock()
    limiter = RateLimiter(3, clock)
    assert [limiter.allow("a") for _ in range(3)] == [True, True, True]
    assert limiter.retry_after("a") == WINDOW
    clock.now += 10
    assert not limiter.allow("a")
    assert limiter.retry_after("a") == WINDOW - 10
    clock.now += WINDOW - 10 - 0.5
    assert not limiter.allow("a")
    clock.now += 0.5
    assert limiter.retry_after("a") == 0.0
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]


def test_refused_calls_are_not_counted() -> None:
    clock = Clock()
    limiter = RateLimiter(2, clock)
    assert limiter.allow("a") and limiter.allow("a")
    for _ in range(100):
        clock.now += 0.5
        assert not limiter.allow("a")
    clock.now = 1000.0 + WINDOW
    assert limiter.allow("a") and limiter.allow("a") and not limiter.allow("a")


def test_any_window_holds_at_most_the_limit() -> None:
    clock = Clock()
    limiter = RateLimiter(5, clock)
    allowed: list[float] = []
    for _ in range(2000):
        clock.now += 0.37
        if limiter.allow("a"):
            allowed.append(clock.now)
    for i, start in enumerate(allowed):
        in_window = [t for t in allowed[i:] if t < start + WINDOW]
        assert len(in_window) <= 5
    # and the limiter is not stingier than its word: 5 per 60 s over 740 s
    assert len(allowed) >= 5 * int(2000 * 0.37 // WINDOW)


def test_keys_are_apart() -> None:
    limiter = RateLimiter(1, Clock())
    assert limiter.allow("a")
    assert not limiter.allow("a")
    assert limiter.allow("b")
    assert limiter.retry_after("c") == 0.0


def test_memory_is_capped_and_expired_keys_are_dropped() -> None:
    clock = Clock()
    limiter = RateLimiter(10, clock, max_keys=100)
    for i in range(10_000):
        assert limiter.allow(f"key{i}")
    assert len(limiter) == 100
    assert limiter.allow("key9999")  # the newest keys are kept, with their calls
    assert limiter.allow("key0")  # forgotten, so new again
    assert len(limiter) == 100
    clock.now += WINDOW + 1
    limiter.allow("fresh")
    assert len(limiter) == 1


def test_retry_after_asks_without_counting() -> None:
    limiter = RateLimiter(1, Clock())
    for _ in range(5):
        assert limiter.retry_after("a") == 0.0
    assert limiter.allow("a")


def test_zero_per_minute_refuses_everything_and_bad_settings_raise() -> None:
    limiter = RateLimiter(0, Clock())
    assert not limiter.allow("a")
    assert limiter.retry_after("a") == WINDOW
    assert len(limiter) == 0
    with pytest.raises(ValueError):
        RateLimiter(-1)
    with pytest.raises(ValueError):
        RateLimiter(1, max_keys=0)


def test_a_clock_going_back_does_not_break_it() -> None:
    clock = Clock()
    limiter = RateLimiter(2, clock)
    assert limiter.allow("a")
    clock.now += 5
    assert limiter.allow("b")
    clock.now -= 100
    assert limiter.allow("c")
    clock.now += 2 * WINDOW
    assert limiter.allow("a") and limiter.allow("b") and limiter.allow("c")
