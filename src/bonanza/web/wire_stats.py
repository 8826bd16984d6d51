"""The statistics and the daily deals' page, as declared types.

They are computed below the web from the stored games (``statistics``,
``daily_overview``); ``msgspec.convert`` checks what those give against these
types on the way out, so a figure of the wrong kind is a bug found here, not
a page that breaks.
"""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType

from bonanza.web.wire import RulesData


class GroupStats(Struct):
    """The statistics of one rule set's finished games."""

    rules: RulesData
    label: str
    game: str
    draw: int
    played: int
    won: int
    win_rate: float
    current_streak: int
    best_streak: int
    best_time: float | None
    best_score: int | None
    fewest_moves: int | None
    bankroll: int | UnsetType = UNSET


class Counted(Struct):
    """Games only counted: played and won."""

    played: int
    won: int


class Statistics(Struct):
    """The headline groups (random deals), the chosen deals' groups, and the
    assisted games, only counted."""

    groups: list[GroupStats]
    chosen: list[GroupStats]
    assisted: Counted


class StatisticsReset(Struct):
    """How many games a reset archived, and the statistics after it (none)."""

    reset: int
    groups: list[GroupStats]
    chosen: list[GroupStats]
    assisted: Counted


class ExportedGame(Struct):
    """A finished game as exported (its deal is no secret then, but for a daily deal
    whose game that counts for the day is still in play: ``deal`` null)."""

    id: str
    deal: str | None
    rules: RulesData
    status: str
    origin: str
    assisted: bool
    moves: int
    score: int
    elapsed: float
    finished_at: float | None


class StatisticsExport(Struct):
    """The statistics as a file: its format and time, the figures, and every finished game."""

    format: str
    exported_at: float
    groups: list[GroupStats]
    chosen: list[GroupStats]
    assisted: Counted
    games: list[ExportedGame]


class DailyStats(Struct):
    """The daily deals' own statistics for one draw mode."""

    played: int
    won: int
    best_time: float | None
    current_streak: int
    best_streak: int


class CalendarDay(Struct):
    """A day of the calendar and the player's result on its daily deal (None: not played)."""

    day: str
    today: bool
    result: str | None


class DailyOverview(Struct):
    """The daily deals' page: today, the statistics, the calendar, and how many
    winnable deals of each grade are ready (by grade name)."""

    today: str
    draw: int
    stats: DailyStats
    days: list[CalendarDay]
    ready: dict[str, int]
