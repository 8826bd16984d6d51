"""Quitting while a search runs ends the app at once: the search's thread is not
waited for (the compiled search cannot be stopped from another thread)."""

from __future__ import annotations

import threading
import time
from typing import Final

from textual.pilot import Pilot

from bonanza.storage import SQLiteStorage
from tests.tui.test_session_play import GATE_TIMEOUT, SIZE, FakeAdvisor, app_on, typed

POLL: Final = 0.01
"""Seconds between looks at whether the search has started."""
QUIT_BOUND: Final = 5.0
"""Seconds from q to the app's end, at most: well under the search's time (it
waits for ``GATE_TIMEOUT``), with room for a loaded machine."""


def test_q_during_a_hint_ends_the_app_without_waiting_for_the_search(
    storage: SQLiteStorage,
) -> None:
    gate = threading.Event()  # the search runs until it opens: a slow search
    advisor = FakeAdvisor(gate=gate)
    app = app_on(storage, start=typed(7), advisor=advisor)
    quit_at: list[float] = []

    async def quit_while_thinking(pilot: Pilot[object]) -> None:
        await pilot.press("h")
        waited = time.monotonic() + GATE_TIMEOUT
        while not advisor.started.is_set() and time.monotonic() < waited:
            await pilot.pause(POLL)
        assert advisor.started.is_set()
        quit_at.append(time.monotonic())
        await pilot.press("q")

    try:
        app.run(headless=True, size=SIZE, auto_pilot=quit_while_thinking)  # as `bonanza play`
        ended = time.monotonic()
        assert quit_at and ended - quit_at[0] < QUIT_BOUND
        assert not gate.is_set()  # the search was still running when the app ended
    finally:
        gate.set()
