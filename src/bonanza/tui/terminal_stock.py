"""The deal stock of a terminal game given none (``BonanzaApp(stock=None)``, and
``bonanza play``): winnable and daily deals found in the background."""

from __future__ import annotations

import os
from collections.abc import Callable
from multiprocessing import resource_tracker

from bonanza.play.deal_stock import DealStock
from bonanza.storage import Storage


def terminal_stock(storage: Storage, clock: Callable[[], float]) -> DealStock:
    """The deal stock of an app given none: winnable and daily deals found in the
    background (after ``FIRST_FILL_DELAY``), by a child process at the lowest priority.

    Call it before the app runs: it starts multiprocessing's resource tracker now,
    as a running Textual app's ``sys.stderr`` has no file descriptor to give it,
    and the child process could not be started then."""
    if os.name == "posix":
        resource_tracker.ensure_running()
    return DealStock(storage, clock)
