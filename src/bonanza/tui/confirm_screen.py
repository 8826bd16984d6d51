"""A yes-or-no question, such as whether to throw away the game in progress.

Use::

    def answered(yes: bool | None) -> None:
        if yes:
            ...  # deal again

    self.push_screen(ConfirmScreen("Abandon this game for a new deal?"), answered)

It dismisses with ``True`` for Yes (the y key or the Yes button) and ``False``
for No (n, Esc or the No button). No has the focus, so Enter alone is safe.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    """Ask ``question``; answer with y / n / Esc or the two buttons."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > #confirm-box {
        width: 60; max-width: 100%; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 1 2 0 2;
    }
    ConfirmScreen #confirm-question { width: 100%; text-align: center; }
    ConfirmScreen #confirm-buttons { height: auto; align: center middle; margin-top: 1; }
    ConfirmScreen Button { margin: 0 2; min-width: 10; }
    """
    AUTO_FOCUS = "#no"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.no_label = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(self.question, id="confirm-question", markup=False)
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes_label} (y)", variant="warning", id="yes")
                yield Button(f"{self.no_label} (n)", variant="primary", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
