"""Helpers of the terminal tests of chosen deals: a settable clock at noon, a fake
finder, deals stocked by hand, picking the new-deal screen's deal list, winning
with the solver's line, and waiting on the app's worker threads."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.widgets import Select

from bonanza.core import Deal, Rules
from bonanza.play.daily import daily_rules
from bonanza.play.deal_stock import DealStock, stock_key
from bonanza.solver.grading import Grade, GradedDeal
from bonanza.storage import Storage
from bonanza.storage.protocol import StockedDeal
from bonanza.tui.app import BonanzaApp
from bonanza.tui.new_deal_screen import NewDealScreen

NOON = 1_764_590_400.0  # 2025-12-01 12:00 UTC
TODAY = "2025-12-01"
DAY = 86_400.0
WINNABLE_DRAW_1 = (0, 4, 7, 9, 16, 34, 2, 3, 5, 6)
"""Deals the solver wins with draw 1, quickly (as the web's daily tests use)."""
TABS_TO_THE_DEAL_LIST = 6
"""From the rules list (focused first): thoughtful, draw, passes, empty, scoring, deal."""
KIND_STEPS = {"easy": 1, "medium": 2, "hard": 3, "daily": 4, "replay": 5}
"""↓ presses from "any deal" to each entry of the deal list."""


async def choose_kind(app: BonanzaApp, pilot: Any, kind: str) -> NewDealScreen:
    """Open the new-deal screen (n, confirming a game in progress) and pick ``kind``."""
    await pilot.press("n")
    if not isinstance(app.screen, NewDealScreen):
        await pilot.press("y")
    screen = app.screen
    assert isinstance(screen, NewDealScreen)
    await pilot.press(*["tab"] * TABS_TO_THE_DEAL_LIST)
    assert app.focused is screen.query_one("#kind", Select)
    await pilot.press(*["down"] * KIND_STEPS[kind])
    return screen


WAIT_STEPS = 500
STEP = 0.02
"""How long ``until`` waits: ``WAIT_STEPS`` pauses of ``STEP`` seconds."""


@dataclass
class Clock:
    """Wall-clock time, as the test sets it (noon of the test's day by default)."""

    now: float = NOON

    def __call__(self) -> float:
        return self.now


class FakeFinder:
    """Graded deals without a search: known winnable deals, grades in turn."""

    def __init__(self, numbers: tuple[int, ...] = WINNABLE_DRAW_1) -> None:
        self.numbers = itertools.cycle(numbers)
        self.grades = itertools.cycle(Grade)
        self.lock = threading.Lock()
        self.calls = 0

    def __call__(self, rules: Rules, stopping: Callable[[], bool]) -> GradedDeal | None:
        with self.lock:
            self.calls += 1
            return GradedDeal(Deal.from_number(next(self.numbers)), next(self.grades), 0.5, 1)


def stock_deal(storage: Storage, number: int, grade: Grade, rules: Rules | None = None) -> Deal:
    """Stock deal ``number`` as a winnable deal of ``grade`` under ``rules``."""
    deal = Deal.from_number(number)
    key = stock_key(rules or daily_rules(1))
    storage.add_stocked_deal(StockedDeal(deal.id, key, str(grade), 0.5))
    return deal


def fast_stock(storage: Storage, clock: Clock, finder: Any = None, per_grade: int = 1) -> DealStock:
    """A stock that fills at once with the fake finder (or ``finder``)."""
    found = FakeFinder() if finder is None else finder
    return DealStock(storage, clock, finder=found, per_grade=per_grade, first_delay=0)


async def until(pilot: Any, ready: Callable[[], bool]) -> None:
    """Pause the app until ``ready()`` (a few seconds at most)."""
    for _ in range(WAIT_STEPS):
        if ready():
            return
        await pilot.pause(STEP)
    raise AssertionError("never ready")


async def settle(app: BonanzaApp, pilot: Any) -> None:
    """Let the app's worker threads finish and their answers arrive."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def win_by_solver(app: BonanzaApp) -> None:
    """Win the game on the table with the solver's line for its deal, played through
    the app (the test knows the deal; the player does not)."""
    from bonanza.solver import solve

    deal = Deal.parse(app.record.deal, app.session.rules.decks)
    for move in solve(deal, app.session.rules).moves:
        app.play(move)
    assert app.session.status.value == "won", app.session.status
