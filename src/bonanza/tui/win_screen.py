"""The win: time, score and moves, the records this win set, "first win", the deal.

Use, with the records the win sets (``bonanza.play.ledger.records_set``)::

    def closed(choice: str | None) -> None:
        if choice == NEW_DEAL:
            ...  # choose the next deal

    self.push_screen(WinScreen(WinFacts.of(session, now, found, bankroll)), closed)

The record lines are worded as the web's win dialog words them. The screen
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
ASSISTED_APART: Final = '"Still winnable?" was asked: this game counts apart from your records'
CHOSEN_APART: Final = "A chosen deal: it counts apart from your records"


def _shown(name: str, value: Any) -> str:
    return clock_text(float(value)) if name == "best_time" else str(value)


def record_lines(found: Mapping[str, Any], assisted: bool) -> list[str]:
    """What the win says of records (``records_set``'s answer): one line a record
    set, else that it is the first win, else why the game counts apart."""
    lines = [
        f"New record: {RECORD_WORDS.get(record['name'], record['name'])} "
        f"{_shown(record['name'], record['value'])} "
        f"(was {_shown(record['name'], record['previous'])})"
        for record in found.get("records", [])
    ]
    if found.get("first_win"):
        lines.append(FIRST_WIN)
    elif found.get("in_records") is False:
        lines.append(ASSISTED_APART if assisted else CHOSEN_APART)
    return lines


@dataclass(frozen=True, slots=True)
class WinFacts:
    """What the win screen shows: the figures, the record lines and the deal."""

    figures: Sequence[tuple[str, str]]
    records: Sequence[str]
    deal: str | None

    @classmethod
    def of(
        cls, session: Session, now: float, found: Mapping[str, Any], bankroll: int | None
    ) -> WinFacts:
        """The facts of ``session``'s win at ``now``; ``bankroll`` for cumulative Vegas."""
        score = session.score(now)
        figures = [
            ("Time", clock_text(session.elapsed(now))),
            ("Moves", str(session.game.move_count)),
            ("Score", money(score) if session.rules.scoring.is_vegas else str(score)),
        ]
        if bankroll is not None:
            figures.append(("Bankroll", money(bankroll)))
        return cls(figures, record_lines(found, session.assisted), session.portable_deal)

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
                apart = line in (ASSISTED_APART, CHOSEN_APART)
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
