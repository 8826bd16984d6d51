"""The game's keys, as Textual bindings of ``BonanzaApp`` (the help screen says
what each does, in ``help_screen.KEYS``)."""

from __future__ import annotations

from typing import Final

from textual.binding import Binding, BindingType

from bonanza.core.moves import ALL_COLUMNS, Pile
from bonanza.session.winnable import LABEL


def column_key(pile: Pile) -> str:
    """The key that picks a column: ``1``…``9``, and ``0`` for column 10."""
    return str((pile.column_index + 1) % 10)


BINDINGS: Final[list[BindingType]] = [
    Binding("space", "draw", "Draw"),
    Binding("space", "deal", "Deal"),
    Binding("u", "undo", "Undo"),
    Binding("y", "redo", "Redo"),
    Binding("h", "hint", "Hint"),
    Binding("W", "winnable", LABEL, show=False),
    Binding("v", "review", "Review", show=False),
    Binding("a", "auto", "Finish"),
    Binding("o", "safe_home", "Auto-play", show=False),
    Binding("n", "new_deal", "New"),
    Binding("D", "daily", "Daily", show=False),
    Binding("x", "share", "Share", show=False),
    Binding("r", "restart", "Restart", show=False),
    Binding("s", "stats", "Stats"),
    Binding("colon", "command", "Type a move", show=False),
    Binding("escape", "cancel", "Cancel", show=False),
    Binding("w", "pick('waste')", "Waste", show=False),
    Binding("f", "pick('foundation')", "Foundation", show=False),
    *(
        Binding(column_key(pile), f"pick('{pile.name.lower()}')", pile.label.capitalize(),
                show=False)
        for pile in ALL_COLUMNS
    ),
    Binding("question_mark", "help", "Help"),
    Binding("f1", "help", "Help", show=False),
    Binding("q", "quit", "Quit"),
]
"""Space draws (or deals, in Easthaven: ``BonanzaApp.check_action`` shows one),
the piles' keys pick them up, ``:`` goes to the move box."""
