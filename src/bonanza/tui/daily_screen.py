"""The daily deals: today's date, the daily statistics of draw 1 and draw 3, today's
leaderboard (when the overview carries it, as ``leaderboard``) and the calendar of the
last 30 days with the player's result on each day's deal; a day chosen plays its deal.

Use, with the player's daily overview (``bonanza.play.chosen_deals.daily_overview``)::

    def chosen(choice: NewDealChoice | None) -> None:
        if choice is not None:
            ...  # start the day's daily deal

    self.push_screen(DailyScreen(lambda draw: daily_overview(stock, storage, player,
                                                             draw, now), draw=1), chosen)

``overview`` reads the store, so it runs in a worker thread. Enter plays the
highlighted day (today at first), as does a click on a day; ↑ ↓ choose the
day, the draw list (Tab) the calendar's draw mode. The screen dismisses with
the ``NewDealChoice`` of that day's deal, or ``None`` on Esc.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from bonanza.play.daily import DAILY_DRAWS, daily_rules, parse_day
from bonanza.play.errors import PlayError
from bonanza.storage import StorageError
from bonanza.tui.choice_select import ChoiceSelect
from bonanza.tui.deal_choice import NewDealChoice
from bonanza.tui.status_bar import clock_text

Overview = Callable[[int], Mapping[str, Any]]
"""The player's daily overview of a draw mode (``daily_overview``'s answer)."""

TITLE: Final = "Daily deals"
LOADING: Final = "Reading your daily deals…"
MISSING: Final = "–"
FIELD_GAP: Final = " · "
RESULT_WORDS: Final = {"won": "won ✓", "lost": "lost ✗", "playing": "in play …", None: ""}
"""A day's result as the calendar says it (the web's marks)."""
DAY_WIDTH: Final = 18
TODAY_WIDTH: Final = 8
REPLAY_NOTE: Final = "A past day, or today's deal again, is a chosen deal: it counts apart."


def stats_line(draw: int, stats: Mapping[str, Any]) -> str:
    """A draw mode's daily statistics in one line."""
    best = stats.get("best_time")
    return FIELD_GAP.join((
        f"Draw {draw}: played {stats.get('played', 0)}",
        f"won {stats.get('won', 0)}",
        f"best time {MISSING if best is None else clock_text(float(best))}",
        f"streak {stats.get('current_streak', 0)} (best {stats.get('best_streak', 0)})",
    ))  # fmt: skip


def ready_line(draw: int, ready: Mapping[str, int]) -> str:
    """How many winnable deals of each grade are ready under the daily rules of ``draw``."""
    counts = ", ".join(f"{grade} {count}" for grade, count in ready.items())
    return f"Winnable deals ready, draw {draw}: {counts}"


BOARD_PLACES: Final = 5
"""Places of each of the leaderboard's rankings the screen shows (and the player's, if lower)."""


def board_lines(board: Mapping[str, Any] | None) -> list[str]:
    """The daily leaderboard of a draw mode (``daily_leaderboard``'s answer): its first
    places by time and by moves, the player's marked; the names as the players wrote them
    (the screen shows them as plain text, never as markup)."""
    if board is None:
        return []
    title = f"Today's leaderboard ({board['draw_words']})"
    if not board["fastest"]:
        return [f"{title}: no one has won this daily deal yet."]

    def places(rows: list[Mapping[str, Any]]) -> str:
        shown = [row for row in rows if row["place"] <= BOARD_PLACES or row["you"]]
        return FIELD_GAP.join(
            f"{row['place']}. {row['name']}{' (you)' if row['you'] else ''}"
            f" {clock_text(float(row['elapsed']))}, {row['moves']} moves"
            for row in shown
        )

    return [
        f"{title}, fastest: {places(board['fastest'])}",
        f"Fewest moves (those taken back count): {places(board['fewest_moves'])}",
    ]


def day_line(day: Mapping[str, Any]) -> str:
    """One day of the calendar: its date, ``today``, and the player's result."""
    date = parse_day(str(day["day"]))
    shown = date.strftime("%a %d %b %Y") if isinstance(date, datetime.date) else str(day["day"])
    today = "today" if day.get("today") else ""
    return f"{shown:<{DAY_WIDTH}}{today:<{TODAY_WIDTH}}{RESULT_WORDS.get(day.get('result'), '')}"


class DailyScreen(ModalScreen[NewDealChoice | None]):
    """Today's date, the daily statistics and the calendar; a day chosen plays it."""

    DEFAULT_CSS = """
    DailyScreen { align: center middle; }
    DailyScreen > #daily-box {
        width: 76; max-width: 100%; height: 100%; max-height: 34;
        border: round $accent; background: $surface; padding: 0 1;
        border-subtitle-color: $text-muted;
    }
    DailyScreen #daily-today { text-style: bold; }
    DailyScreen #daily-ready, DailyScreen #daily-note { color: $text-muted; }
    DailyScreen #daily-board { height: auto; max-height: 6; }
    DailyScreen .row { height: auto; }
    DailyScreen .name { width: 14; height: 3; content-align: left middle; }
    DailyScreen #daily-draw { width: 24; }
    DailyScreen #daily-days { height: 1fr; }
    DailyScreen #daily-problem { color: $error; height: auto; }
    """
    AUTO_FOCUS = "#daily-days"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close"),
        Binding("enter", "play", "Play the day", priority=True),  # see check_action
    ]

    def __init__(self, overview: Overview, draw: int = DAILY_DRAWS[0]) -> None:
        super().__init__()
        self.overview = overview
        self.draw_mode = draw if draw in DAILY_DRAWS else DAILY_DRAWS[0]
        self.found: dict[int, Mapping[str, Any]] = {}  # each draw's overview, once read

    def compose(self) -> ComposeResult:
        box = Vertical(id="daily-box")
        box.border_title = TITLE
        box.border_subtitle = "↑ ↓ choose a day · Enter plays it · Tab: draw · Esc closes"
        with box:
            yield Static(LOADING, id="daily-today", markup=False)
            yield Static("", id="daily-stats", markup=False)
            yield Static("", id="daily-ready", markup=False)
            yield Static("", id="daily-board", markup=False)
            with Horizontal(classes="row"):
                yield Label("Calendar", classes="name")
                yield ChoiceSelect(
                    [(f"draw {draw}", str(draw)) for draw in DAILY_DRAWS],
                    value=str(self.draw_mode),
                    id="daily-draw",
                )
            yield OptionList(id="daily-days")
            yield Static(REPLAY_NOTE, id="daily-note", markup=False)
            yield Static("", id="daily-problem", markup=False)

    def on_mount(self) -> None:
        self.load()

    @work(thread=True, exclusive=True)
    def load(self) -> None:
        """Read both draw modes' overviews (the store) off the UI thread."""
        try:
            found = {draw: self.overview(draw) for draw in DAILY_DRAWS}
        except (StorageError, PlayError) as error:
            self.app.call_from_thread(self.say, f"The daily deals cannot be shown: {error}")
            return
        self.app.call_from_thread(self._show, found)

    def _show(self, found: dict[int, Mapping[str, Any]]) -> None:
        self.found = found
        today = found[self.draw_mode].get("today", "")
        self.query_one("#daily-today", Static).update(f"Today (UTC): {today}")
        stats = [stats_line(draw, found[draw].get("stats", {})) for draw in DAILY_DRAWS]
        self.query_one("#daily-stats", Static).update("\n".join(stats))
        self._show_days()

    def _show_days(self) -> None:
        """The calendar of the draw mode chosen, today highlighted."""
        overview = self.found.get(self.draw_mode)
        if overview is None:
            return
        ready = ready_line(self.draw_mode, overview.get("ready", {}))
        self.query_one("#daily-ready", Static).update(ready)
        board = "\n".join(board_lines(overview.get("leaderboard")))
        self.query_one("#daily-board", Static).update(board)
        days = self.query_one("#daily-days", OptionList)
        days.set_options(Option(day_line(day), id=str(day["day"])) for day in overview["days"])
        days.highlighted = 0

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.draw_mode = int(str(event.value))
        self._show_days()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._play(event.option.id)

    def say(self, text: str) -> None:
        self.query_one("#daily-problem", Static).update(text)

    def text(self) -> str:
        """Everything the screen says, as plain text."""
        lines = [str(static.render()) for static in self.query(Static)]
        days = self.query_one("#daily-days", OptionList)
        lines += [str(days.get_option_at_index(i).prompt) for i in range(days.option_count)]
        return "\n".join(lines)

    # -- actions -------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter plays the highlighted day, but in the open draw list (where it picks)."""
        if action == "play":
            return not self.query_one("#daily-draw", Select).expanded
        return True

    def action_play(self) -> None:
        option = self.query_one("#daily-days", OptionList).highlighted_option
        if option is not None:
            self._play(option.id)

    def _play(self, day: str | None) -> None:
        if day is not None:
            self.dismiss(NewDealChoice(daily_rules(self.draw_mode), daily=day))

    def action_cancel(self) -> None:
        self.dismiss(None)
