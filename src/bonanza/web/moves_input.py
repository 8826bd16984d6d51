"""Reading a move from a request: notation text or source, dest and count."""

from __future__ import annotations

from typing import Any

from bonanza.core import Move, Pile
from bonanza.core.cards import DECK_SIZE, MAX_DECKS
from bonanza.core.moves import ALL_PILES
from bonanza.web.errors import ApiError
from bonanza.web.requests import field


def read_move(data: dict[str, Any]) -> Move | str:
    """``{"move": "w3"}`` or ``{"source": 8, "dest": 2, "count": 1}``."""
    text: str | None = field(data, "move", str)
    if text is not None:
        if len(text) > 16:
            raise ApiError(422, "field 'move' is too long to be a move")
        return text
    source = field(data, "source", int)
    dest = field(data, "dest", int)
    count = field(data, "count", int, 1)
    if source is None or dest is None:
        raise ApiError(422, "give a move as 'move' (like \"w3\") or as 'source' and 'dest'")
    last_pile, most = len(ALL_PILES) - 1, MAX_DECKS * DECK_SIZE
    for name, value in (("source", source), ("dest", dest)):
        if not 0 <= value <= last_pile:
            raise ApiError(
                422, f"field {name!r} must be a pile number from 0 to {last_pile}, not {value}"
            )
    if not 1 <= count <= most:
        raise ApiError(422, f"field 'count' must be from 1 to {most}, not {count}")
    return Move(Pile(source), Pile(dest), count)
