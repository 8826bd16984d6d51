"""A long run's progress on stderr, for ``bonanza analyze`` and ``bonanza autoplay``.

On a terminal: a ``rich`` progress bar with the rate and the time left, and for
items that take long (whole games) a second line counting the work under way
(moves played), which moves before the first item ends. Anywhere else (a log
file, a pipe): a plain line every ``PLAIN_EVERY_SECONDS`` and one at the end,
never a carriage return. With ``--no-progress``: nothing. ``rich`` is loaded
only for the bar, so that the commands start fast; without it, the plain lines
are shown instead.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import threading
import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Final, TextIO

from bonanza.cli.jobs import ctrl_c_held

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn, TaskID

PLAIN_EVERY_SECONDS: Final = 30.0
"""How often a plain progress line is written where stderr is not a terminal."""
TICK_SECONDS: Final = 0.5
"""How often the bar reads the count of work under way."""
BAR_REFRESHES_PER_SECOND: Final = 4
SECONDS_PER_MINUTE: Final = 60
SECONDS_PER_HOUR: Final = 60 * SECONDS_PER_MINUTE
PERCENT: Final = 100


class Shown(enum.Enum):
    """What progress a run shows."""

    NOTHING = "nothing"
    LINES = "lines"
    BAR = "bar"


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    """``--no-progress``."""
    parser.add_argument(
        "--no-progress", action="store_true",
        help="show no progress (by default: a bar with rate and time left where stderr is a "
        f"terminal, else a plain line every {PLAIN_EVERY_SECONDS:.0f} s and at the end)",
    )


def shown_on(stream: TextIO, no_progress: bool) -> Shown:
    """Nothing with ``--no-progress``; the bar if ``stream`` is a terminal; else lines."""
    if no_progress:
        return Shown.NOTHING
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # no such method, or a closed stream
        terminal = False
    return Shown.BAR if terminal else Shown.LINES


@dataclasses.dataclass(frozen=True)
class Activity:
    """Work under way that is counted before any item ends, such as moves played."""

    unit: str
    """What is counted, in the plural: ``moves``."""
    count: Callable[[], int]
    """The count so far (read from any thread)."""


def clock(seconds: float) -> str:
    """``seconds`` as ``H:MM:SS``."""
    whole = round(seconds)
    hours, rest = divmod(whole, SECONDS_PER_HOUR)
    minutes, seconds_left = divmod(rest, SECONDS_PER_MINUTE)
    return f"{hours}:{minutes:02}:{seconds_left:02}"


def _counts_text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items())


class RunProgress:
    """The progress of ``total`` items (``unit``: ``deals``, ``games``), ``done`` of them
    already, with a count by name of how they ended; a context manager.

    ``update`` gives the items done as they end; the bar, or the plain lines, show
    the rate and time left of this run's own items.
    """

    def __init__(
        self, command: str, unit: str, total: int, shown: Shown, stream: TextIO, *,
        done: int = 0, counts: Mapping[str, int] | None = None,
        activity: Activity | None = None, every: float = PLAIN_EVERY_SECONDS,
    ) -> None:
        self.command, self.unit, self.total = command, unit, total
        self.shown, self.stream, self.activity, self.every = shown, stream, activity, every
        self.done, self.counts = done, dict(counts or {})
        self._done_at_start = done
        self._started = time.monotonic()
        self._stopping = threading.Event()
        self._ticker: threading.Thread | None = None
        self._bar: Progress | None = None
        self._tasks: list[TaskID] = []

    def __enter__(self) -> RunProgress:
        if self.shown is Shown.BAR:
            self._bar = _new_bar(self.stream)
            if self._bar is None:  # rich is not installed
                self.shown = Shown.LINES
        self._started = time.monotonic()
        # Threads started with Ctrl-C and SIGTERM held back never take them: the
        # main thread does, and never between counting a row and writing it.
        with ctrl_c_held():
            if self._bar is not None:
                self._tasks.append(self._bar.add_task(
                    self.command, total=self.total, completed=self.done, unit=self.unit,
                    counts=_counts_text(self.counts)))
                if self.activity is not None:
                    self._tasks.append(self._bar.add_task(
                        "", total=None, completed=0, unit=self.activity.unit, counts=""))
                self._bar.start()
            if self.shown is Shown.LINES or (self._bar is not None and self.activity):
                self._ticker = threading.Thread(target=self._tick, daemon=True)
                self._ticker.start()
        return self

    def update(self, done: int, counts: Mapping[str, int]) -> None:
        """``done`` items ended so far, ``counts`` by how they ended."""
        self.done, self.counts = done, dict(counts)
        if self._bar is not None:
            self._bar.update(self._tasks[0], completed=done, counts=_counts_text(counts))

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stopping.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._bar is not None:
            self._count_activity()
            self._bar.stop()
        elif self.shown is Shown.LINES:
            self._write_line()

    def _tick(self) -> None:
        """In its own thread: a plain line every ``every`` seconds, or the bar's activity."""
        wait = self.every if self._bar is None else TICK_SECONDS
        while not self._stopping.wait(wait):
            if self._bar is None:
                self._write_line()
            else:
                self._count_activity()

    def _count_activity(self) -> None:
        if self._bar is not None and self.activity is not None:
            self._bar.update(self._tasks[1], completed=self.activity.count())

    def line(self) -> str:
        """The plain line: items done, rate and time left, counts, and the activity."""
        elapsed = max(time.monotonic() - self._started, 0.0)
        rate = (self.done - self._done_at_start) / elapsed if elapsed else 0.0
        left = f"{clock((self.total - self.done) / rate)} left" if rate else "time left unknown"
        share = PERCENT * self.done / self.total if self.total else PERCENT
        parts = [f"bonanza {self.command}: {self.done}/{self.total} {self.unit} ({share:.1f} %) "
                 f"in {clock(elapsed)}, {rate:.2f} {self.unit}/s, {left}"]
        if self.counts:
            parts.append(_counts_text(self.counts))
        if self.activity is not None:
            count = self.activity.count()
            per_second = count / elapsed if elapsed else 0.0
            parts.append(f"{count} {self.activity.unit} ({per_second:.1f}/s)")
        return "; ".join(parts)

    def _write_line(self) -> None:
        self.stream.write(self.line() + "\n")
        self.stream.flush()


def _new_bar(stream: TextIO) -> Progress | None:
    """A ``rich`` progress bar on ``stream`` (a terminal), or None without ``rich``."""
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        return None
    count, rate = _bar_columns()
    return Progress(
        TextColumn("{task.description}"), BarColumn(), count, rate, TimeElapsedColumn(),
        TimeRemainingColumn(), TextColumn("{task.fields[counts]}"),
        console=Console(file=stream, force_terminal=True),
        refresh_per_second=BAR_REFRESHES_PER_SECOND, redirect_stdout=False,
        redirect_stderr=False,
    )


def _bar_columns() -> tuple[ProgressColumn, ProgressColumn]:
    """The bar's count (``done/total unit``) and rate (``unit/s``) columns."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class CountColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            total = "" if task.total is None else f"/{task.total:.0f}"
            return Text(f"{task.completed:.0f}{total} {task.fields['unit']}",
                        style="progress.download")

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            shown = "?" if speed is None else f"{speed:.1f}"
            return Text(f"{shown} {task.fields['unit']}/s", style="progress.data.speed")

    return CountColumn(), RateColumn()


__all__ = [
    "PLAIN_EVERY_SECONDS",
    "Activity",
    "RunProgress",
    "Shown",
    "add_progress_option",
    "clock",
    "shown_on",
]
