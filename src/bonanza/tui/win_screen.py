"""The win: time, score and moves, the records this win set, "first win", the deal.

Use, with the records the win sets (``bonanza.play.ledger.records_set``)::

    def closed(choice: str | None) -> None:
        if choice == NEW_DEAL:
            ...  # choose the next deal

    self.push_screen(WinScreen(WinFacts.of(session, now, found, bankroll)), closed)

The record lines are worded as the web's win dialog words them. A daily deal's
win (``DailyWin``) says so instead: the day won and the daily streak, or why it
counts apart from the daily statistics. The screen
dismisses with ``NEW_DEAL`` on n (or its button), with ``None`` on Esc or Enter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from bonanza.session import Session
from bonanza.tui.status_bar import SEPARATOR, clock_text, money

NEW_DEAL: Final = "new"
"""What the screen dismisses with when the player asks for a new deal."""
TITLE: Final = "You won!"
RECORD_WORDS: Final = {
    "best_time": "best time",
    "best_score": "best score",
    "fewest_moves": "fewest moves",
    "longest_streak": "longest streak",
}
"""A record's name as the web says it."""
FIRST_WIN: Final = "First win under these rules"
DAILY_WON: Final = "Daily deal of {day} won"
DAILY_STREAK: Final = "Daily streak {current} (best {best})"
DAILY_ASSISTED: Final = (
    'Daily deal of {day}: "still winnable?" was asked, so it counts as played, not won'
)
DAILY_APART: Final = (
    "Daily deal of {day}: only a day's first game of it, started that day, counts as daily"
)
ASSISTED_APART: Final = '"Still winnable?" was asked: this game counts apart from your records'
CHOSEN_APART: Final = "A chosen deal: it counts apart from your records"
THOUGHTFUL_APART: Final = (
    "A thoughtful game, every card face up: it counts apart from your records"
)


@dataclass(frozen=True, slots=True)
class DailyWin:
    """A daily deal won: its day, whether this game is the one that counts for the
    day (``counted``), and the daily streak after it."""

    day: str
    counted: bool
    current_streak: int
    best_streak: int

    def lines(self, assisted: bool) -> list[str]:
        """What the win says of the daily deal (instead of "a chosen deal")."""
        if not self.counted:
            return [DAILY_APART.format(day=self.day)]
        if assisted:
            return [DAILY_ASSISTED.format(day=self.day)]
        streak = DAILY_STREAK.format(current=self.current_streak, best=self.best_streak)
        return [DAILY_WON.format(day=self.day), streak]


def _shown(name: str, value: Any, vegas: bool) -> str:
    if name == "best_time":
        return clock_text(float(value))
    return money(value) if name == "best_score" and vegas else str(value)


def record_lines(
    found: Mapping[str, Any], assisted: bool, thoughtful: bool = False, vegas: bool = False
) -> list[str]:
    """What the win says of records (``records_set``'s answer): one line a record
    set, else that it is the first win, else why the game counts apart. Under
    ``vegas`` scoring a score is in dollars, as the web says it."""
    lines = [
        f"New record: {RECORD_WORDS.get(record['name'], record['name'])} "
        f"{_shown(record['name'], record['value'], vegas)} "
        f"(was {_shown(record['name'], record['previous'], vegas)})"
        for record in found.get("records", [])
    ]
    if found.get("first_win"):
        lines.append(FIRST_WIN)
    elif found.get("in_records") is False:
        apart = THOUGHTFUL_APART if thoughtful else CHOSEN_APART
        lines.append(ASSISTED_APART if assisted else apart)
    return lines


@dataclass(frozen=True, slots=True)
class WinFacts:
    """What the win screen shows: the figures, the record lines and the deal."""

    figures: Sequence[tuple[str, str]]
    records: Sequence[str]
    deal: str | None
    apart: frozenset[str] = frozenset((ASSISTED_APART, CHOSEN_APART, THOUGHTFUL_APART))
    """The record lines that say why the game counts apart (shown muted)."""

    @classmethod
    def of(
        cls,
        session: Session,
        now: float,
        found: Mapping[str, Any],
        bankroll: int | None,
        *,
        daily: DailyWin | None = None,
        deal_shown: bool = True,
    ) -> WinFacts:
        """The facts of ``session``'s win at ``now``; ``bankroll`` for cumulative Vegas;
        ``daily`` for a daily deal; no deal unless ``deal_shown``."""
        score = session.score(now)
        figures = [
            ("Time", clock_text(session.elapsed(now))),
            ("Moves", str(session.game.move_count)),
            ("Score", money(score) if session.rules.scoring.is_vegas else str(score)),
        ]
        if bankroll is not None:
            figures.append(("Bankroll", money(bankroll)))
        rules = session.rules
        lines = record_lines(found, session.assisted, rules.thoughtful, rules.scoring.is_vegas)
        apart = {ASSISTED_APART, CHOSEN_APART, THOUGHTFUL_APART}
        if daily is not None:  # a daily deal: the day, not "a chosen deal"
            said = daily.lines(session.assisted)
            lines = [*(line for line in lines if line != CHOSEN_APART), *said]
            if not daily.counted or session.assisted:
                apart.update(said)
        deal = session.portable_deal if deal_shown else None
        return cls(figures, lines, deal, frozenset(apart))

    def text(self) -> str:
        """Everything the screen says, as plain text."""
        figures = SEPARATOR.join(f"{name} {value}" for name, value in self.figures)
        deal = [f"Deal {self.deal}"] if self.deal else []
        return "\n".join((TITLE, *self.records, figures, *deal))


class WinScreen(ModalScreen[str | None]):
    """The win's figures and records; n deals again, Esc or Enter closes."""

    DEFAULT_CSS = """
    WinScreen { align: center middle; }
    WinScreen > #win-box {
        width: 60; max-width: 100%; height: auto; max-height: 100%;
        border: round $success; background: $surface; padding: 0 2;
        border-title-style: bold; border-subtitle-color: $text-muted;
    }
    WinScreen .record { text-style: bold; color: $success; width: 100%; text-align: center; }
    WinScreen .apart { color: $text-muted; width: 100%; text-align: center; }
    WinScreen #win-figures { margin-top: 1; width: 100%; text-align: center; }
    WinScreen #win-deal { color: $text-muted; width: 100%; text-align: center; }
    WinScreen #win-buttons { height: auto; align: center middle; margin-top: 1; }
    WinScreen Button { margin: 0 2; min-width: 14; }
    """
    AUTO_FOCUS = "#close"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_deal", "New deal"),
        Binding("escape", "close", "Close"),
        Binding("enter", "close", "Close", show=False),  # a focused button takes it first
    ]

    def __init__(self, facts: WinFacts) -> None:
        super().__init__()
        self.facts = facts

    def compose(self) -> ComposeResult:
        box = Vertical(id="win-box")
        box.border_title = TITLE
        box.border_subtitle = "n new deal · Esc or Enter closes"
        with box:
            for line in self.facts.records:
                apart = line in self.facts.apart
                yield Static(line, classes="apart" if apart else "record", markup=False)
            figures = SEPARATOR.join(f"{name} {value}" for name, value in self.facts.figures)
            yield Static(figures, id="win-figures", markup=False)
            if self.facts.deal:
                yield Static(f"Deal {self.facts.deal}", id="win-deal", markup=False)
            with Horizontal(id="win-buttons"):
                yield Button("New deal (n)", variant="success", id="new")
                yield Button("Close (Esc)", variant="primary", id="close")

    def text(self) -> str:
        """Everything the screen says, as plain text."""
        return self.facts.text()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(NEW_DEAL if event.button.id == "new" else None)

    def action_new_deal(self) -> None:
        self.dismiss(NEW_DEAL)

    def action_close(self) -> None:
        self.dismiss(None)
