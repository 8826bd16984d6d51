"""A drop-down list whose arrow keys change the choice in place.

Textual's ``Select`` opens its list on Enter, Space, ↑ or ↓. On a form that
deals on Enter (the new-deal screen), ↑ and ↓ here step to the previous or
next choice without opening anything, and Space (or a click) opens the list;
Enter is left to the screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.console import RenderableType
from textual.binding import Binding, BindingType
from textual.widgets import Select


class ChoiceSelect(Select[str], inherit_bindings=False):
    """A ``Select`` of text values with no blank: ↑ ↓ choose, Space opens the list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "show_overlay", "Show the list", show=False),
        Binding("down", "step(1)", "Next", show=False),
        Binding("up", "step(-1)", "Previous", show=False),
    ]

    def __init__(self, options: Iterable[tuple[str, str]], *, value: str, id: str) -> None:
        listed = list(options)
        super().__init__(listed, value=value, allow_blank=False, id=id)
        self.values = [option for _, option in listed]

    def set_options(self, options: Iterable[tuple[RenderableType, str]]) -> None:
        listed = list(options)
        self.values = [option for _, option in listed]
        super().set_options(listed)

    def action_step(self, step: int) -> None:
        """The choice ``step`` places down the list (up when negative), stopping at its ends."""
        if str(self.value) not in self.values:
            return
        index = self.values.index(str(self.value)) + step
        if 0 <= index < len(self.values):
            self.value = self.values[index]
