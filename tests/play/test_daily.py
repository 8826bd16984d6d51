"""The daily deal's days, statistics, streak and calendar."""

from __future__ import annotations

import datetime

import pytest

from bonanza.core import Deal, Rules
from bonanza.play.daily import (
    DAILY_KEY,
    calendar,
    daily_rules,
    daily_statistics,
    may_show_deal,
    parse_day,
    recent_days,
    utc_day,
)
from bonanza.session import Session, Status
from bonanza.storage.records import GameRecord

DAY = 86_400.0
MIDNIGHT = 1_764_547_200.0  # 2025-12-01 00:00 UTC
TODAY = datetime.date(2025, 12, 1)


def daily_game(
    day: datetime.date,
    status: Status,
    *,
    started: float | None = None,
    draw: int = 1,
    elapsed: float = 200.0,
    assisted: bool = False,
) -> GameRecord:
    """A finished game of ``day``'s daily deal, started at ``started`` (default: that noon)."""
    noon = MIDNIGHT + (day - TODAY).days * DAY + DAY / 2
    at = noon if started is None else started
    session = Session.new(Deal.from_number(day.toordinal()), daily_rules(draw), at)
    record = GameRecord.of(f"g{at}{draw}", "p", session, at)
    record.extra[DAILY_KEY] = day.isoformat()
    record.status, record.elapsed, record.assisted = status, elapsed, assisted
    return record


def days_ago(count: int) -> datetime.date:
    return TODAY - datetime.timedelta(days=count)


def test_days_are_utc_dates() -> None:
    assert utc_day(MIDNIGHT) == TODAY
    assert utc_day(MIDNIGHT - 1) == days_ago(1)
    assert parse_day("2025-12-01") == TODAY
    for bad in ("2025-13-01", "2025-12-1", "today", "2025-12-01x", ""):
        assert parse_day(bad) is None
    assert recent_days(TODAY, 3) == [TODAY, days_ago(1), days_ago(2)]


def test_only_draw_1_and_draw_3_have_a_daily_deal() -> None:
    assert daily_rules(3) == Rules(draw=3)
    with pytest.raises(ValueError, match="draw 1 or draw 3"):
        daily_rules(2)


def test_the_streak_counts_consecutive_days_won() -> None:
    games = [
        daily_game(days_ago(5), Status.WON, elapsed=300),
        daily_game(days_ago(4), Status.LOST),  # breaks the run
        daily_game(days_ago(3), Status.WON, elapsed=150),
        daily_game(days_ago(2), Status.WON, elapsed=250),
        daily_game(days_ago(1), Status.WON, elapsed=190),
    ]
    stats = daily_statistics(games, 1, TODAY)
    # Today is not played yet: the run up to yesterday still stands.
    assert stats == {
        "played": 5, "won": 4, "best_time": 150.0, "current_streak": 3, "best_streak": 3,
    }
    lost_today = daily_statistics([*games, daily_game(TODAY, Status.LOST)], 1, TODAY)
    assert lost_today["current_streak"] == 0 and lost_today["best_streak"] == 3
    won_today = daily_statistics([*games, daily_game(TODAY, Status.WON)], 1, TODAY)
    assert won_today["current_streak"] == 4
    assert daily_statistics(games, 1, TODAY + datetime.timedelta(days=2))["current_streak"] == 0


def test_only_the_first_game_of_the_day_counts() -> None:
    noon = MIDNIGHT + DAY / 2
    first = daily_game(TODAY, Status.LOST, started=noon)
    again = daily_game(TODAY, Status.WON, started=noon + 600)  # a replay: does not count
    stats = daily_statistics([again, first], 1, TODAY)
    assert (stats["played"], stats["won"], stats["current_streak"]) == (1, 0, 0)


def test_the_first_game_started_counts_even_when_left_before_a_move() -> None:
    noon = MIDNIGHT + DAY / 2
    left = daily_game(TODAY, Status.ABANDONED, started=noon, elapsed=0.0)
    farmed = daily_game(TODAY, Status.WON, started=noon + 60, elapsed=0.7)
    stats = daily_statistics([left, farmed], 1, TODAY)
    assert (stats["played"], stats["won"], stats["best_time"]) == (1, 0, None)
    assert stats["current_streak"] == 0


def test_a_day_in_play_is_not_played_yet_and_hides_the_deal_of_its_other_games() -> None:
    noon = MIDNIGHT + DAY / 2
    counting = daily_game(TODAY, Status.PLAYING, started=noon)
    other = daily_game(TODAY, Status.LOST, started=noon + 60)  # on another front end, say
    yesterday = daily_game(days_ago(1), Status.WON)
    stats = daily_statistics([counting, other, yesterday], 1, TODAY)
    assert (stats["played"], stats["won"], stats["current_streak"]) == (1, 1, 1)
    assert not may_show_deal(other, [counting, yesterday])
    counting.status = Status.LOST
    assert may_show_deal(other, [counting, yesterday])
    assert may_show_deal(yesterday, [counting, other])
    plain = GameRecord.of("x", "p", Session.new(Deal.from_number(5), Rules(), noon), noon)
    assert may_show_deal(plain, [counting])


def test_a_past_day_played_later_does_not_count() -> None:
    late = daily_game(days_ago(3), Status.WON, started=MIDNIGHT + DAY / 2)  # from the calendar
    assert daily_statistics([late], 1, TODAY)["played"] == 0
    assert calendar([late], 1, TODAY)[3] == {"day": "2025-11-28", "today": False, "result": "won"}


def test_an_assisted_daily_game_is_played_never_won() -> None:
    stats = daily_statistics([daily_game(TODAY, Status.WON, assisted=True)], 1, TODAY)
    assert (stats["played"], stats["won"], stats["best_time"]) == (1, 0, None)


def test_draw_modes_count_apart_and_other_games_not_at_all() -> None:
    games = [daily_game(TODAY, Status.WON, draw=3)]
    plain = GameRecord.of("x", "p", Session.new(Deal.from_number(5), Rules(), MIDNIGHT), MIDNIGHT)
    plain.status = Status.WON
    assert daily_statistics([*games, plain], 1, TODAY)["played"] == 0
    assert daily_statistics([*games, plain], 3, TODAY)["won"] == 1


def test_the_calendar_shows_the_last_30_days_with_results() -> None:
    games = [
        daily_game(TODAY, Status.PLAYING),
        daily_game(days_ago(1), Status.LOST),
        daily_game(days_ago(1), Status.WON, started=MIDNIGHT - 60),  # won on a second try
        daily_game(days_ago(2), Status.LOST),
    ]
    days = calendar(games, 1, TODAY)
    assert len(days) == 30 and days[0]["today"] and not days[1]["today"]
    assert [day["result"] for day in days[:4]] == ["playing", "won", "lost", None]
    assert days[-1]["day"] == "2025-11-02"
