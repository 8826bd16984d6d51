"""The move box under the table, where a move is typed in the game's notation.

Single keys are the game's own (s statistics, w the waste, digits the
columns), so the box takes keys only once ``:`` (or a click) has put the focus
in it; its placeholder says so. Enter plays the move typed and gives the keys
back to the game; Esc leaves without playing.
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual.binding import Binding, BindingType
from textual.events import Blur, Focus
from textual.message import Message
from textual.widgets import Input

IDLE: Final = "press : to type a move (sw, w3, 6f, 47:2)"
"""The placeholder while the keys play the game."""
TYPING: Final = "type a move (sw, w3, 6f, 47:2), then Enter; Esc leaves"
"""The placeholder while the box has the focus."""
PROMPT: Final = ":"
"""The key that focuses the box; typed again at the start of a move, it is ignored."""


class MoveBox(Input):
    """A one-line box for a typed move; ``Typed`` carries the move's text."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "Leave", show=False)]

    class Typed(Message):
        """The player typed ``text`` and pressed Enter."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder=IDLE, id=id)

    def on_focus(self, event: Focus) -> None:
        self.placeholder = TYPING

    def on_blur(self, event: Blur) -> None:
        self.placeholder = IDLE

    async def action_submit(self) -> None:
        """Send the move typed (a leading ``:`` dropped) and give the keys back."""
        text = self.value.strip().removeprefix(PROMPT).strip()
        self.value = ""
        self.screen.set_focus(None)
        if text:
            self.post_message(self.Typed(text))

    def action_leave(self) -> None:
        """Esc: leave without playing; the text typed goes too (else the next move
        typed would be added to it)."""
        self.value = ""
        self.screen.set_focus(None)
