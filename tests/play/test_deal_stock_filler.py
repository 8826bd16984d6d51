"""The deal stock's filler outlives a failing search: it logs, waits and goes on."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bonanza.core import Deal, Rules
from bonanza.play.deal_stock import DealStock
from bonanza.solver.grading import Grade, GradedDeal
from bonanza.storage import SQLiteStorage

WAIT = 30.0
PER_GRADE = 1


class FailsFirst:
    """A finder whose first search raises (a bug, a dead child), then finds deals."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, rules: Rules, stopping: Callable[[], bool]) -> GradedDeal:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("the search failed")
        grade = list(Grade)[self.calls % len(Grade)]
        return GradedDeal(Deal.from_number(self.calls), grade, 0.5, 1)


def test_the_filler_goes_on_after_a_search_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    finder = FailsFirst()
    stock = DealStock(
        storage, finder=finder, per_grade=PER_GRADE, first_delay=0, retry_delay=0.05
    )
    with caplog.at_level(logging.ERROR, logger="bonanza.play"):
        stock.start()
        deadline = time.monotonic() + WAIT
        while sum(stock.counts(Rules()).values()) < len(Grade) and time.monotonic() < deadline:
            time.sleep(0.05)
        stock.stop()
    assert stock.counts(Rules()) == {str(grade): PER_GRADE for grade in Grade}
    assert "filler failed" in caplog.text and finder.calls > 1
    storage.close()
