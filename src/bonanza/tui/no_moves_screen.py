"""No way forward: no legal move left, or (proven by the progress check) none
that makes progress. The dialog offers what works: undo and a new deal, or,
where undo is refused (in Vegas, after a draw), a new deal only.

Use::

    def chosen(choice: str | None) -> None:
        if choice == UNDO:
            ...  # undo the last move
        elif choice == NEW_DEAL:
            ...  # choose the next deal

    self.push_screen(NoMovesScreen(stuck=False, can_undo=session.can_undo), chosen)

It dismisses with ``UNDO`` (u, when offered), ``NEW_DEAL`` (n) or ``None``
(Esc: look at the table; the game goes on).
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from bonanza.session import messages

UNDO: Final = "undo"
NEW_DEAL: Final = "new"
NO_MOVES_TITLE: Final = "No moves left"
STUCK_TITLE: Final = "No way forward"
NO_MOVES: Final = "There are no legal moves left."
STUCK: Final = "No sequence of moves can make progress from here."
UNDO_OR_DEAL: Final = "Undo and try another way, or deal again."
ONLY_DEAL: Final = messages.sentence(messages.NO_UNDO) + ": deal again."


class NoMovesScreen(ModalScreen[str | None]):
    """What to do with no way forward: u undoes (when it can), n deals again."""

    DEFAULT_CSS = """
    NoMovesScreen { align: center middle; }
    NoMovesScreen > #no-moves-box {
        width: 60; max-width: 100%; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 1 2 0 2;
        border-title-style: bold; border-subtitle-color: $text-muted;
    }
    NoMovesScreen Static { width: 100%; text-align: center; }
    NoMovesScreen #no-moves-buttons { height: auto; align: center middle; margin-top: 1; }
    NoMovesScreen Button { margin: 0 1; min-width: 12; }
    """
    AUTO_FOCUS = "#new"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "choose('undo')", "Undo"),
        Binding("n", "choose('new')", "New deal"),
        Binding("escape", "choose('')", "Look at the table"),
    ]

    def __init__(self, *, stuck: bool, can_undo: bool) -> None:
        super().__init__()
        self.stuck = stuck
        self.can_undo = can_undo

    def lines(self) -> list[str]:
        """What the dialog says, without its buttons."""
        return [STUCK if self.stuck else NO_MOVES, UNDO_OR_DEAL if self.can_undo else ONLY_DEAL]

    def compose(self) -> ComposeResult:
        box = Vertical(id="no-moves-box")
        box.border_title = STUCK_TITLE if self.stuck else NO_MOVES_TITLE
        box.border_subtitle = "Esc looks at the table"
        with box:
            for line in self.lines():
                yield Static(line, markup=False)
            with Horizontal(id="no-moves-buttons"):
                if self.can_undo:
                    yield Button("Undo (u)", id="undo")
                yield Button("New deal (n)", variant="primary", id="new")
                yield Button("Look (Esc)", id="look")

    def text(self) -> str:
        """Everything the dialog says, its buttons included, as plain text."""
        buttons = [str(button.label) for button in self.query(Button)]
        return "\n".join((*self.lines(), " · ".join(buttons)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """u only where undo works."""
        return self.can_undo or parameters != (UNDO,)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_choose(event.button.id or "")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
