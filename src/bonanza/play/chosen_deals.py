"""Starting a winnable deal or a daily deal, and the daily deals' page.

Both come from the deal stock (``bonanza.play.deal_stock``), so they never wait
on a search. The answer names the grade and the daily deal's day, never the
deal. A winnable deal counts with the chosen deals in the statistics
(``Origin.WINNABLE``: the player picked its difficulty). A daily deal is the
same for every player, so its games are chosen deals there (``Origin.SHARED``,
or ``REPLAY`` once the player had it); the first game of a day's deal played
on that day counts in the daily statistics (``bonanza.play.daily``). These
functions block on the store: the service runs them in a worker thread.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Final

from bonanza.core import BonanzaError, Deal, Rules
from bonanza.play.daily import (
    CALENDAR_DAYS,
    DAILY_KEY,
    GRADE_KEY,
    calendar,
    daily_rules,
    daily_statistics,
    day_text,
    parse_day,
    playing_everywhere,
    utc_day,
)
from bonanza.play.deal_identity import unplayed_keys
from bonanza.play.deal_stock import DealStock
from bonanza.play.errors import Conflict, Invalid
from bonanza.session import Origin
from bonanza.solver.grading import Grade
from bonanza.storage import Storage

QUOTED: Final = 40
"""Characters of a bad value quoted back in an error."""
TODAY: Final = "today"
"""What a request may give for today's daily deal, instead of its date."""
NOT_A_DEAL: Final = "That is not a deal number, code or share link"
NONE_READY: Final = (
    "No winnable deal is ready for these rules yet: the server is still finding some. "
    "Try again in a minute, or choose any deal."
)
DAILY_NOT_READY: Final = (
    "The daily deal of {day} is not ready yet: the server is still finding winnable deals. "
    "Try again in a minute."
)


@dataclass(frozen=True, slots=True)
class StockedStart:
    """What to start: the deal, its rules and origin, the labels kept with the
    game (``GameRecord.extra``), the words that announce it and, for the player's
    first game of the deal, its IDs (``Start.first_of``)."""

    deal: Deal
    rules: Rules
    origin: Origin
    announce: str
    extra: dict[str, str] = field(default_factory=dict)
    first_of: tuple[str, ...] = ()


def read_grade(text: str) -> Grade:
    """The grade a request names (``Invalid`` for any other text)."""
    try:
        return Grade(text)
    except ValueError:
        grades = ", ".join(grade.value for grade in Grade)
        raise Invalid(f"grade {text[:QUOTED]!r} is not one of {grades}") from None


KLONDIKE_ONLY: Final = (
    "Winnable and daily deals are dealt for Klondike only: {title} deals are random or typed"
)
"""Why a winnable deal of one of Klondike's relatives is refused: the stock holds
deals proven won by the solver, which grades Klondike's."""


def winnable_start(
    stock: DealStock, storage: Storage, player: str, rules: Rules, grade: Grade
) -> StockedStart:
    """A stocked winnable deal of ``grade`` (or the nearest grade in stock)."""
    if not rules.is_klondike:
        raise Invalid(KLONDIKE_ONLY.format(title=rules.title))
    taken = stock.take(rules, grade)
    if taken is None:
        raise Conflict(NONE_READY)
    first_of = unplayed_keys(storage, player, taken.deal, rules)
    announce = f"New winnable deal, {taken.grade}"
    if taken.grade is not grade:
        announce = f"No {grade} deal was ready: this winnable deal is {taken.grade}"
    return StockedStart(
        taken.deal, rules, Origin.WINNABLE if first_of else Origin.REPLAY, announce,
        {GRADE_KEY: str(taken.grade)}, first_of,
    )


def requested_day(text: str, today: datetime.date) -> datetime.date:
    """The day a request names (``today`` or ``YYYY-MM-DD`` within the calendar)."""
    day = today if text == TODAY else parse_day(text)
    if day is None:
        raise Invalid(f"daily {text[:QUOTED]!r} is not 'today' nor a date like 2026-12-01")
    if day > today:
        raise Invalid(f"the daily deal of {day_text(day)} is not out yet")
    if (today - day).days >= CALENDAR_DAYS:
        raise Invalid(f"the calendar goes back {CALENDAR_DAYS} days, not to {day_text(day)}")
    return day


def daily_start(
    stock: DealStock, storage: Storage, player: str, text: str, draw: int, now: float
) -> StockedStart:
    """The daily deal of the day ``text`` names, for the draw mode ``draw``."""
    rules = read_daily_rules(draw)
    day = requested_day(text, utc_day(now))
    daily = stock.daily(day, draw)
    if daily is None:
        raise Conflict(DAILY_NOT_READY.format(day=day_text(day)))
    deal = Deal.parse(daily.deal)
    first_of = unplayed_keys(storage, player, deal, rules)
    return StockedStart(
        deal, rules, Origin.SHARED if first_of else Origin.REPLAY,
        f"Daily deal of {day_text(day)}, {draw}-card draw, {daily.grade}",
        {DAILY_KEY: day_text(day), GRADE_KEY: daily.grade}, first_of,
    )


def read_daily_rules(draw: int) -> Rules:
    try:
        return daily_rules(draw)
    except ValueError as error:
        raise Invalid(str(error)) from None


def daily_overview(
    stock: DealStock, storage: Storage, player: str, draw: int, now: float
) -> dict[str, Any]:
    """The player's daily statistics and calendar for a draw mode, and how many
    winnable deals of each grade are ready under its rules (no deal in it)."""
    rules = read_daily_rules(draw)
    today = utc_day(now)
    games = storage.finished_games(player) + playing_everywhere(storage, player)
    return {
        "today": day_text(today),
        "draw": draw,
        "stats": daily_statistics(games, draw, today),
        "days": calendar(games, draw, today),
        "ready": stock.counts(rules),
    }


def deal_labels(extra: dict[str, Any]) -> dict[str, str]:
    """The labels of a game the browser may see: its grade and its daily deal's day."""
    return {key: extra[key] for key in (GRADE_KEY, DAILY_KEY) if isinstance(extra.get(key), str)}


def check_deal_text(text: str, decks: int | None = None) -> dict[str, bool]:
    """Whether ``text`` is a deal number or code (of ``decks`` decks, when given;
    it names nothing but itself)."""
    try:
        Deal.parse(text, decks)
    except BonanzaError:
        raise Invalid(NOT_A_DEAL) from None
    return {"valid": True}
