"""Fixtures of the terminal game's tests: the asyncio backend, a real SQLite store,
and a deal stock that searches nothing for every app given none."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bonanza.core import Rules
from bonanza.play.deal_stock import DealStock
from bonanza.storage import SQLiteStorage, Storage
from bonanza.tui import app as app_module

POLL = 0.02
"""Seconds between the idle finder's looks at whether the stock is stopping."""
NEVER = 3600.0
"""The idle stock's first fill delay: its filler never starts in a test (it would
choose the day's daily deal from the deals a test stocks by hand)."""


def finds_nothing(rules: Rules, stopping: Callable[[], bool]) -> None:
    """A finder that waits, finding nothing, until the stock stops (no search, no
    child process): tests stock the deals they need by hand."""
    while not stopping():
        time.sleep(POLL)


def idle_stock(storage: Storage, clock: Callable[[], float]) -> DealStock:
    return DealStock(storage, clock, finder=finds_nothing, first_delay=NEVER)


@pytest.fixture(autouse=True)
def no_searching_stock(monkeypatch: pytest.MonkeyPatch) -> None:
    """An app made without a stock gets one that never searches."""
    monkeypatch.setattr(app_module, "terminal_stock", idle_stock)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[SQLiteStorage]:
    store = SQLiteStorage(tmp_path / "games.db")
    yield store
    store.close()
