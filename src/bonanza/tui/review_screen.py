"""The review of a lost game: the move that lost it, and a line that would have won.

Use, with the solver's review of the game (``bonanza.solver.review.review``)::

    self.push_screen(ReviewScreen(review_lines(found, game.positions)))

The game is over, so the line may show cards that were hidden. The screen
dismisses with ``None`` on Esc, q or v.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from bonanza.core.notation import format_move
from bonanza.core.position import Position
from bonanza.solver.review import Review, line_words

NOTATION_WIDTH: Final = 6
"""Width of a move's notation in the line."""


def review_lines(found: Review, positions: Sequence[Position]) -> list[str]:
    """The review as lines of text: its sentence, the critical move, the winning line."""
    lines = [found.text]
    if found.critical is not None and found.index is not None:
        lines.append(f"Move {found.index + 1} lost it: {format_move(found.critical)}.")
    if found.line and found.index is not None:
        start = positions[found.index]
        after = f"after move {found.index}" if found.index else "from the deal"
        lines.append(f"A line that wins {after}:")
        for number, (move, words) in enumerate(
            zip(found.line, line_words(start, found.line), strict=True), 1
        ):
            lines.append(f"{number:>4}. {format_move(move):<{NOTATION_WIDTH}}{words}")
    return lines


class ReviewScreen(ModalScreen[None]):
    """The review's lines, in a scrolling box."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen > #review-scroll {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
        border-subtitle-color: $text-muted;
    }
    """
    AUTO_FOCUS = "#review-scroll"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("v", "close", "Close", show=False),
    ]

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(id="review-scroll")
        scroll.border_title = "Review of the lost game"
        scroll.border_subtitle = "Esc, q or v closes"
        with scroll:
            yield Static("\n".join(self.lines), id="review-text", markup=False)

    def text(self) -> str:
        """Everything the screen says, as plain text."""
        return "\n".join(self.lines)

    def action_close(self) -> None:
        self.dismiss(None)
