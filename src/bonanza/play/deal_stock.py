"""The stock of winnable deals: found ahead of time, in the background, and stored.

A filler thread deals secret random deals, has the solver prove them winnable
and grade them (``bonanza.solver.grading``) in a child process of the lowest
priority (:mod:`bonanza.play.deal_finder`), and keeps ``STOCK_PER_GRADE`` of each grade per
rule set in the store, so a restart keeps them. Taking a deal wakes it to
refill. Rule sets are kept for draw 1 and draw 3 (standard rules, which the
daily deals use) and for the last few other rule sets players asked for.

A new winnable deal never waits on a search: when its grade is out of stock the
nearest grade in stock is dealt (and the answer says so), and when none is
left the answer says plainly that none is ready yet. Each day's daily deal,
per draw mode, is the first stocked deal chosen for that day, stored so that
every player gets the same one.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bonanza.core import Deal, Rules
from bonanza.play.daily import DAILY_DRAWS, daily_rules, day_text, utc_day
from bonanza.play.deal_finder import FinderProcess
from bonanza.solver.grading import Grade, GradedDeal
from bonanza.storage import Storage, StorageError
from bonanza.storage.protocol import DailyDeal, StockedDeal
from bonanza.storage.records import rules_key

log = logging.getLogger("bonanza.play")

STOCK_PER_GRADE: Final = 3
"""Deals of each grade kept ready per rule set."""
STOCKED_RULE_SETS: Final = 6
"""Rule sets beyond the daily deals' two whose stock is kept (the most recently asked)."""
FIRST_FILL_DELAY: Final = 5.0
"""Seconds between the server's first request and the filler's first search,
so that a server's start and first page are not slowed by it."""
RETRY_DELAY: Final = 10.0
"""Seconds the filler waits after the store failed, before it tries again."""
IDLE_CHECK: Final = 60.0
"""Seconds a full filler sleeps before it looks again (a new day needs a daily deal)."""
STOP_WAIT: Final = 5.0
"""Seconds shutdown waits for a search under way (its solve's time limit bounds it)."""
DAILY_GRADE: Final = Grade.MEDIUM
"""The grade a daily deal is chosen from first."""
STOCK_RULE_FIELDS: Final = ("draw", "passes", "empty_column", "recall", "partial_runs")
"""What the solver's verdict depends on: scoring and thoughtful play change no line."""

Finder = Callable[[Rules, Callable[[], bool]], GradedDeal | None]
"""Deals one random deal under the rules and grades it (None: not proven
winnable); the second argument tells it to stop early."""


def stock_key(rules: Rules) -> str:
    """The rule set as the stock files it: only the fields a verdict depends on."""
    fields = rules.to_dict()
    return json.dumps({name: fields[name] for name in STOCK_RULE_FIELDS}, sort_keys=True)


def stock_rules(key: str) -> Rules:
    return Rules.from_dict(json.loads(key))


def nearest_grades(grade: Grade) -> list[Grade]:
    """The grades to deal from when ``grade`` is asked: itself, then the nearest."""
    order = list(Grade)
    at = order.index(grade)
    return sorted(order, key=lambda other: (abs(order.index(other) - at), order.index(other)))


@dataclass(frozen=True, slots=True)
class Taken:
    """A stocked deal given out, and its grade."""

    deal: Deal
    grade: Grade


class DealStock:
    """The stock and its filler thread, shared by the server's players.

    Every method but :meth:`start` and :meth:`aclose` blocks on the store: call
    them from a worker thread. ``clock`` gives the time (for the day of the
    daily deal); ``finder`` is where graded deals come from (by default a child
    process; tests fix it).
    """

    def __init__(
        self,
        storage: Storage,
        clock: Callable[[], float] = time.time,
        *,
        finder: Finder | None = None,
        per_grade: int = STOCK_PER_GRADE,
        first_delay: float = FIRST_FILL_DELAY,
        retry_delay: float = RETRY_DELAY,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self._process: FinderProcess | None = None
        if finder is None:
            finder = self._process = FinderProcess()
        self.finder: Finder = finder
        self.per_grade = per_grade
        self.first_delay = first_delay
        self.retry_delay = retry_delay
        self.searched = 0
        """Deals the filler has searched (for tests and benchmarks)."""
        self._kept = [stock_key(daily_rules(draw)) for draw in DAILY_DRAWS]
        self._asked: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the filler ---------------------------------------------------------------

    def start(self) -> None:
        """Start the filler, unless it runs already (cheap to call on every request)."""
        if self._thread is not None or self._stop.is_set():
            return
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._fill, name="bonanza-deal-stock", daemon=True
                )
                self._thread.start()

    @property
    def running(self) -> bool:
        """Whether the filler thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    async def aclose(self) -> None:
        """Stop the filler (the app's shutdown), waiting for a search under way."""
        self._stop.set()
        self._wake.set()
        thread = self._thread
        if thread is not None:
            await asyncio.to_thread(thread.join, STOP_WAIT)
        if self._process is not None:
            self._process.close()

    def stop(self) -> None:
        """Stop the filler from a thread (tests)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(STOP_WAIT)
        if self._process is not None:
            self._process.close()

    def _fill(self) -> None:
        if self._stop.wait(self.first_delay):
            return
        while not self._stop.is_set():
            try:
                worked = self._fill_once()
            except StorageError as error:
                log.warning("the deal stock cannot reach the store: %s", error)
                self._stop.wait(self.retry_delay)
                continue
            except Exception:  # a bug: logged, and the filler goes on after a pause
                log.exception("the deal stock's filler failed; it tries again")
                self._stop.wait(self.retry_delay)
                continue
            if not worked:
                self._wake.wait(IDLE_CHECK)
                self._wake.clear()

    def _fill_once(self) -> bool:
        """Choose today's daily deals, then search one deal for the rule set that
        lacks most; False when the stock is full."""
        for draw in DAILY_DRAWS:
            self.daily(utc_day(self.clock()), draw)
        counts = self.storage.stock_counts()
        lacking = [
            (sum(max(0, self.per_grade - counts.get((key, g), 0)) for g in Grade), key)
            for key in self._stocked_keys()
        ]
        short, key = max(lacking, key=lambda item: item[0])
        if short == 0:
            return False
        found = self.finder(stock_rules(key), self._stop.is_set)
        self.searched += 1
        if found is None or self._stop.is_set():
            return True
        grade = str(found.grade)
        if self.storage.stock_counts().get((key, grade), 0) < self.per_grade:  # else: not needed
            self.storage.add_stocked_deal(StockedDeal(found.deal.id, key, grade, found.measure))
        return True

    def _stocked_keys(self) -> list[str]:
        """The daily deals' rule sets, then the others asked for, most recent first."""
        with self._lock:
            asked = [key for key in reversed(self._asked) if key not in self._kept]
        return self._kept + asked[:STOCKED_RULE_SETS]

    def want(self, rules: Rules) -> None:
        """Keep a stock for ``rules`` (the most recent rule sets asked for are kept)."""
        key = stock_key(rules)
        with self._lock:
            self._asked[key] = None
            self._asked.move_to_end(key)
            while len(self._asked) > STOCKED_RULE_SETS + len(self._kept):
                self._asked.popitem(last=False)
        self._wake.set()

    # -- taking -------------------------------------------------------------------

    def take(self, rules: Rules, grade: Grade) -> Taken | None:
        """A stocked winnable deal for ``rules``: of ``grade``, else of the nearest
        grade in stock; None when none is ready. The filler then refills.

        The stock is looked at before the filler is told of ``rules``: a rule set
        asked for the first time finds nothing, never a deal found meanwhile."""
        taken = self._take(rules, grade)
        self.want(rules)
        return taken

    def counts(self, rules: Rules) -> dict[str, int]:
        """How many deals of each grade are ready for ``rules``."""
        found = self.storage.stock_counts()
        key = stock_key(rules)
        return {str(grade): found.get((key, str(grade)), 0) for grade in Grade}

    def daily(self, day: datetime.date, draw: int) -> DailyDeal | None:
        """The daily deal of ``day`` (a date) for a draw mode: the stored one, else the
        first chosen from the stock (then stored); None when the stock has none."""
        rules = daily_rules(draw)
        key, day_key = rules_key(rules), day_text(day)
        stored = self.storage.daily_deal(day_key, key)
        if stored is not None:
            return stored
        with self._lock:  # one choice at a time; the store keeps only the first
            stored = self.storage.daily_deal(day_key, key)
            if stored is not None:
                return stored
            taken = self._take(rules, DAILY_GRADE)
            if taken is None:
                return None
            return self.storage.set_daily_deal(
                DailyDeal(day_key, key, taken.deal.id, str(taken.grade))
            )

    def _take(self, rules: Rules, grade: Grade) -> Taken | None:
        key = stock_key(rules)
        for candidate in nearest_grades(grade):
            stocked = self.storage.take_stocked_deal(key, str(candidate))
            if stocked is not None:
                self._wake.set()
                return Taken(Deal.parse(stocked.deal), candidate)
        return None
