"""A search in a thread of its own, awaited, that never holds up the program's end.

Textual's thread workers run in the event loop's default executor, whose threads
are joined when the loop closes and again as the interpreter exits: quitting
during a search waited for it (a second or more), and the compiled search cannot
be stopped from another thread. ``off_thread`` runs the search in a daemon
thread and awaits its answer from an async worker instead: when the worker is
cancelled (a newer search of its kind, or the app exiting) the await ends at
once, the answer is dropped when it comes, and a thread still searching at exit
ends with the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

Answer = tuple[T | None, Exception | None]
"""A search's answer, or the error it raised."""


def attempt(search: Callable[[], T]) -> Answer[T]:
    """``search``'s answer, or the error it raised."""
    try:
        return search(), None
    except Exception as error:  # a search's failure is an answer, not a crash
        return None, error


async def off_thread(search: Callable[[], T]) -> Answer[T]:
    """``attempt(search)``, run in a daemon thread; cancelling the await leaves
    the thread to finish (or to end with the process) and drops its answer."""
    loop = asyncio.get_running_loop()
    answered: asyncio.Future[Answer[T]] = loop.create_future()

    def deliver(answer: Answer[T]) -> None:
        if not answered.done():  # not cancelled meanwhile
            answered.set_result(answer)

    def run() -> None:
        answer = attempt(search)
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(deliver, answer)

    threading.Thread(target=run, name="bonanza-search", daemon=True).start()
    return await answered
