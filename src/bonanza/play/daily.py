"""The daily deal: its day, its rules, and its own statistics and calendar.

Each UTC day has one daily deal per draw mode (draw 1 and draw 3, standard
rules otherwise), the same for every player of a server. A game of it keeps
its day in ``GameRecord.extra["daily"]``. The daily statistics count, for each
day, the player's first game of that day's deal started on that very day,
whatever becomes of it: a game left before its first move counts as played
and lost, so leaving to see the deal and playing it again wins nothing. A
later game, a replay (a game of a deal the player had before, such as one
started with "play again") or a past day played from the calendar does not
count (such games are chosen deals in the main statistics too). A game in which "still
winnable?" was asked counts as played, never as won. While the counted game
of a day is in play, no other game of that deal shows the deal
(:func:`may_show_deal`), even once over.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from datetime import timedelta
from typing import Any, Final

from bonanza.core.rules import Rules
from bonanza.session.status import Origin, Status
from bonanza.storage import Storage
from bonanza.storage.records import GameRecord, rules_key

DAILY_DRAWS: Final = (1, 3)
"""The draw modes that have a daily deal."""
CALENDAR_DAYS: Final = 30
"""Days the calendar offers to replay, today included."""
DAILY_KEY: Final = "daily"
"""The key of a daily game's day (``YYYY-MM-DD``) in ``GameRecord.extra``."""
GRADE_KEY: Final = "grade"
"""The key of a graded deal's grade in ``GameRecord.extra``."""
DAY_FORMAT: Final = "%Y-%m-%d"
BEST_TIME_DIGITS: Final = 1


def daily_rules(draw: int) -> Rules:
    """The rules of the daily deal of a draw mode: the standard ones with that draw."""
    if draw not in DAILY_DRAWS:
        raise ValueError(f"the daily deal is dealt with draw 1 or draw 3, not {draw!r}")
    return Rules(draw=draw)


def utc_day(now: float) -> datetime.date:
    """The UTC date at ``now`` (seconds since the epoch)."""
    return datetime.datetime.fromtimestamp(now, tz=datetime.UTC).date()


def day_text(day: datetime.date) -> str:
    return day.strftime(DAY_FORMAT)


def parse_day(text: str) -> datetime.date | None:
    """The date written ``YYYY-MM-DD``, or None for any other text."""
    try:
        day = datetime.datetime.strptime(text, DAY_FORMAT).date()
    except ValueError:
        return None
    return day if day_text(day) == text else None


def recent_days(today: datetime.date, count: int = CALENDAR_DAYS) -> list[datetime.date]:
    """``count`` days up to ``today``, newest first."""
    return [today - timedelta(days=back) for back in range(count)]


def daily_day(record: GameRecord) -> datetime.date | None:
    """The day whose daily deal ``record`` plays, or None for any other game."""
    text = record.extra.get(DAILY_KEY)
    return parse_day(text) if isinstance(text, str) else None


def _of_draw(games: Iterable[GameRecord], draw: int) -> list[GameRecord]:
    key = rules_key(daily_rules(draw))
    return [g for g in games if g.rules_key == key and daily_day(g) is not None]


def counted_games(games: Iterable[GameRecord], draw: int) -> dict[datetime.date, GameRecord]:
    """Per day, the game that counts in the daily statistics: the first game of that
    day's deal started on that day, in play, finished or left before a move; never a
    replay (its first game may be gone from ``games``, archived by a reset)."""
    counted: dict[datetime.date, GameRecord] = {}
    for game in sorted(_of_draw(games, draw), key=lambda g: g.created_at):
        day = daily_day(game)
        if game.origin is Origin.REPLAY or day is None or day in counted:
            continue
        if day == utc_day(game.created_at):
            counted[day] = game
    return counted


FRONT_ENDS: Final = ("web", "terminal")
"""The front ends whose games in play may hold a day's counted game."""
DEAL_HIDDEN: Final = (
    "the deal of {day}'s daily deal is shown once your game of it that counts for the day"
    " is over (it is still in play)"
)


def deal_shown(storage: Storage, game: GameRecord) -> bool:
    """Whether a game over may show its deal (its code, its review, its cards): not a
    daily game while its day's counted game is still in play on any front end."""
    if daily_day(game) is None:
        return True
    return may_show_deal(game, playing_everywhere(storage, game.player))


def playing_everywhere(storage: Storage, player: str) -> list[GameRecord]:
    """The player's games in play on every front end."""
    return [game for client in FRONT_ENDS for game in storage.playing_games(player, client)]


def may_show_deal(game: GameRecord, games: Iterable[GameRecord]) -> bool:
    """Whether ``game`` (over) may show its deal, ``games`` being the player's others:
    not while the game that counts for its daily deal's day is still in play."""
    day = daily_day(game)
    if day is None:
        return True
    for draw in DAILY_DRAWS:
        that_day = [
            other for other in _of_draw([game, *games], draw)
            if daily_day(other) == day and utc_day(other.created_at) == day
        ]
        if not that_day:
            continue
        first = min(other.created_at for other in that_day)  # ties: any of them may count
        if any(o.status is Status.PLAYING for o in that_day if o.created_at == first):
            return False
    return True


def _won(game: GameRecord) -> bool:
    return game.status is Status.WON and not game.assisted


def daily_statistics(
    games: Iterable[GameRecord], draw: int, today: datetime.date
) -> dict[str, Any]:
    """Played, won, best time, and the current and best daily streaks (consecutive
    days whose daily deal was won; today, not played yet, does not break it)."""
    counted = {
        day: game
        for day, game in counted_games(games, draw).items()
        if game.status is not Status.PLAYING
    }
    won_days = {day for day, game in counted.items() if _won(game)}
    best = run = 0
    previous: datetime.date | None = None
    for day in sorted(won_days):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best, previous = max(best, run), day
    current = 0
    day = today if today in counted else today - timedelta(days=1)
    while day in won_days:
        current += 1
        day -= timedelta(days=1)
    times = [round(g.elapsed, BEST_TIME_DIGITS) for g in counted.values() if _won(g)]
    return {
        "played": len(counted),
        "won": len(won_days),
        "best_time": min(times, default=None),
        "current_streak": current,
        "best_streak": best,
    }


def calendar(
    games: Iterable[GameRecord], draw: int, today: datetime.date, count: int = CALENDAR_DAYS
) -> list[dict[str, Any]]:
    """The last ``count`` days, newest first, each with the player's result on its
    daily deal: ``won`` if some game of it was won, else ``lost``, ``playing``
    or None (never played)."""
    results: dict[datetime.date, set[Status]] = {}
    for game in _of_draw(games, draw):
        day = daily_day(game)
        if day is not None:
            results.setdefault(day, set()).add(game.status)
    days = []
    for day in recent_days(today, count):
        seen = results.get(day, set())
        result = next(
            (str(status) for status in (Status.WON, Status.LOST, Status.PLAYING) if status in seen),
            None,
        )
        days.append({"day": day_text(day), "today": day == today, "result": result})
    return days
